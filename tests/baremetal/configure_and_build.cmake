# cmake -P script run by the host tests baremetal_configure_build / baremetal_m33_configure_build (and the
# host target `baremetal`): configures the standalone bare-metal project with a Cortex-M toolchain file and
# builds it.
#
#   cmake -DSOURCE_DIR=<tests/baremetal> -DBINARY_DIR=<dir> -DTOOLCHAIN_FILE=<file>
#         -DCTNN_SOURCE_DIR=<repo> [-DCTNN_SHARED_DIR=<shared>] [-DGENERATOR=Ninja] [-DMAKE_PROGRAM=<ninja>] [-DJOBS=<n>]
#         [-DTARGETS=<target>,<target>...] -P configure_and_build.cmake
#
# TARGETS (comma-separated): build only these (default: all).
#
# Fails (non-zero exit) if either step fails.
foreach(var IN ITEMS SOURCE_DIR BINARY_DIR TOOLCHAIN_FILE CTNN_SOURCE_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "configure_and_build.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT GENERATOR)
  set(GENERATOR "Ninja")
endif()

# The host's compiler flags from the environment (e.g. CXXFLAGS=-fsanitize=address) must not leak
# into the cross build: CMake initialises CMAKE_<LANG>_FLAGS from them on the first configure.
foreach(env IN ITEMS CFLAGS CXXFLAGS ASMFLAGS LDFLAGS CPPFLAGS CC CXX CMAKE_BUILD_TYPE CMAKE_TOOLCHAIN_FILE)
  unset(ENV{${env}})
endforeach()

set(configure_args
    -S "${SOURCE_DIR}" -B "${BINARY_DIR}" -G "${GENERATOR}"
    "-DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN_FILE}"
    "-DCTNN_SOURCE_DIR=${CTNN_SOURCE_DIR}")
if(CTNN_SHARED_DIR)  # the MLPerf Tiny models and their reference cases (mlperf_memory_*)
  list(APPEND configure_args "-DCTNN_SHARED_DIR=${CTNN_SHARED_DIR}")
endif()
if(MAKE_PROGRAM)
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()

list(JOIN configure_args " " shown)
message(STATUS "Configuring the bare-metal project: ${CMAKE_COMMAND} ${shown}")
execute_process(COMMAND "${CMAKE_COMMAND}" ${configure_args} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "Configuring the bare-metal project failed (${result})")
endif()

set(build_args --build "${BINARY_DIR}")
if(JOBS)
  list(APPEND build_args --parallel "${JOBS}")
endif()
if(TARGETS)
  string(REPLACE "," ";" targets "${TARGETS}")
  list(APPEND build_args --target ${targets})
endif()
list(JOIN build_args " " shown)
message(STATUS "Building the bare-metal project: ${CMAKE_COMMAND} ${shown}")
execute_process(COMMAND "${CMAKE_COMMAND}" ${build_args} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "Building the bare-metal project failed (${result})")
endif()
