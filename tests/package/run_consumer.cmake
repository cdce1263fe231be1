# cmake -P script behind the package tests (see CMakeLists.txt here). Arguments (-D):
#   CTNN_MODE                 find_package | add_subdirectory
#   CTNN_CONSUMER_SOURCE_DIR  the consumer project
#   CTNN_WORK_DIR             scratch directory, wiped first (prefix/, build/)
#   CTNN_BUILD_DIR            (find_package) ctnn's build tree, installed into CTNN_WORK_DIR/prefix
#   CTNN_SOURCE_DIR           ctnn's source tree
#   CTNN_GENERATOR, CTNN_MAKE_PROGRAM, CTNN_CXX_COMPILER, CTNN_BUILD_TYPE   as in the outer build
#   CTNN_EXPECTED_VERSION     ctnn's project version, checked against the headers by the consumer
cmake_minimum_required(VERSION 3.25)

foreach(_var CTNN_MODE CTNN_CONSUMER_SOURCE_DIR CTNN_WORK_DIR CTNN_SOURCE_DIR CTNN_GENERATOR
             CTNN_CXX_COMPILER CTNN_EXPECTED_VERSION)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer.cmake: -D${_var}=... is required")
  endif()
endforeach()

function(run_step name)
  message(STATUS "[${CTNN_MODE}] ${name}: ${ARGN}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "[${CTNN_MODE}] ${name} failed (${result})")
  endif()
endfunction()

file(REMOVE_RECURSE "${CTNN_WORK_DIR}")
file(MAKE_DIRECTORY "${CTNN_WORK_DIR}")
set(prefix "${CTNN_WORK_DIR}/prefix")
set(build "${CTNN_WORK_DIR}/build")

set(configure_args
  -S "${CTNN_CONSUMER_SOURCE_DIR}" -B "${build}"
  -G "${CTNN_GENERATOR}"
  "-DCMAKE_CXX_COMPILER=${CTNN_CXX_COMPILER}"
  "-DCTNN_EXPECTED_VERSION=${CTNN_EXPECTED_VERSION}"
  -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON)
if(CTNN_MAKE_PROGRAM)
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${CTNN_MAKE_PROGRAM}")
endif()
if(CTNN_BUILD_TYPE)
  list(APPEND configure_args "-DCMAKE_BUILD_TYPE=${CTNN_BUILD_TYPE}")
endif()

if(CTNN_MODE STREQUAL "find_package")
  if(NOT CTNN_BUILD_DIR)
    message(FATAL_ERROR "run_consumer.cmake: -DCTNN_BUILD_DIR=... is required for find_package")
  endif()
  set(install_args --install "${CTNN_BUILD_DIR}" --prefix "${prefix}")
  if(CTNN_BUILD_TYPE)
    list(APPEND install_args --config "${CTNN_BUILD_TYPE}")
  endif()
  run_step("install" "${CMAKE_COMMAND}" ${install_args})

  # The installed package must not point back into the source or build tree.
  file(GLOB_RECURSE installed_cmake_files "${prefix}/*.cmake")
  if(NOT installed_cmake_files)
    message(FATAL_ERROR "[find_package] no CMake package files were installed under ${prefix}")
  endif()
  foreach(file IN LISTS installed_cmake_files)
    file(READ "${file}" content)
    foreach(tree "${CTNN_SOURCE_DIR}" "${CTNN_BUILD_DIR}")
      string(FIND "${content}" "${tree}" pos)
      if(NOT pos EQUAL -1)
        message(FATAL_ERROR "[find_package] installed ${file} refers to ${tree}: the package is not relocatable")
      endif()
    endforeach()
  endforeach()
  list(APPEND configure_args "-DCMAKE_PREFIX_PATH=${prefix}" "-DCTNN_EXPECTED_PREFIX=${prefix}")
elseif(CTNN_MODE STREQUAL "add_subdirectory")
  list(APPEND configure_args "-DCTNN_SOURCE_DIR=${CTNN_SOURCE_DIR}")
else()
  message(FATAL_ERROR "run_consumer.cmake: unknown CTNN_MODE '${CTNN_MODE}'")
endif()

run_step("configure" "${CMAKE_COMMAND}" ${configure_args})
set(build_args --build "${build}")
if(CTNN_BUILD_TYPE)
  list(APPEND build_args --config "${CTNN_BUILD_TYPE}")
endif()
run_step("build" "${CMAKE_COMMAND}" ${build_args})

# Ninja/Makefiles put app at the top of the build tree; multi-config generators in a <config>/ folder.
set(app "${build}/app")
if(CTNN_BUILD_TYPE AND EXISTS "${build}/${CTNN_BUILD_TYPE}/app")
  set(app "${build}/${CTNN_BUILD_TYPE}/app")
endif()
run_step("run" "${app}")
# The consumer's ctnn_add_model(... ARCH) program, where it builds one (x86-64 hosts, find_package consumer).
cmake_path(REPLACE_FILENAME app arch_check OUTPUT_VARIABLE arch_check)
if(EXISTS "${arch_check}")
  run_step("run arch_check" "${arch_check}")
endif()
message(STATUS "[${CTNN_MODE}] ok")
