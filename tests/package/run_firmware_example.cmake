# cmake -P script behind the test package_firmware_example: the user path of docs/install.md, "Cross-compiling
# a firmware": install ctnn into a scratch prefix, configure examples/firmware with the installed Cortex-M4
# toolchain file and find_package(ctnn), build it, run it under qemu (its own ctest). Arguments (-D):
#   CTNN_BUILD_DIR   ctnn's build tree (installed)        CTNN_SOURCE_DIR   ctnn's source tree
#   CTNN_WORK_DIR    scratch directory, wiped first       CTNN_GENERATOR, CTNN_MAKE_PROGRAM
#   CTNN_SHARED_DIR  the MLPerf Tiny files (models/mlperf-tiny); the test is skipped without them
cmake_minimum_required(VERSION 3.25)

set(mlperf "${CTNN_SHARED_DIR}/models/mlperf-tiny")
if(NOT EXISTS "${mlperf}/kws_ref_model.tflite" OR NOT EXISTS "${mlperf}/refs/kws_ref_model/output_0.bin")
  message("SKIP: ${mlperf}/kws_ref_model.tflite or its reference case not found (set CTNN_SHARED_DIR)")
  return()
endif()

function(run_step name)
  message(STATUS "[firmware example] ${name}: ${ARGN}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "[firmware example] ${name} failed (${result})")
  endif()
endfunction()

file(REMOVE_RECURSE "${CTNN_WORK_DIR}")
set(prefix "${CTNN_WORK_DIR}/prefix")
set(build "${CTNN_WORK_DIR}/firmware")
run_step("install" "${CMAKE_COMMAND}" --install "${CTNN_BUILD_DIR}" --prefix "${prefix}")
set(configure -S "${CTNN_SOURCE_DIR}/examples/firmware" -B "${build}" -G "${CTNN_GENERATOR}"
    "-DCMAKE_TOOLCHAIN_FILE=${prefix}/share/ctnn/cortex-m/arm-none-eabi-cortex-m4.cmake"
    "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
    "-DKWS_MODEL=${mlperf}/kws_ref_model.tflite" "-DKWS_INPUT=${mlperf}/refs/kws_ref_model/input_0.bin"
    "-DKWS_EXPECTED=${mlperf}/refs/kws_ref_model/output_0.bin")
if(CTNN_MAKE_PROGRAM)
  list(APPEND configure "-DCMAKE_MAKE_PROGRAM=${CTNN_MAKE_PROGRAM}")
endif()
run_step("configure" "${CMAKE_COMMAND}" ${configure})
run_step("build" "${CMAKE_COMMAND}" --build "${build}")
# No host include directory may reach the C sources of a cross build (newlib's headers must win).
file(GLOB_RECURSE flag_files "${build}/*.ninja" "${build}/*flags.make")
foreach(file IN LISTS flag_files)
  file(STRINGS "${file}" lines REGEX "main\\.c|C_FLAGS|C_INCLUDES")
  foreach(line IN LISTS lines)
    if(line MATCHES "-isystem /usr/include( |$)|-I/usr/include( |$)")
      message(FATAL_ERROR "[firmware example] a host include directory reaches the C sources: ${line}")
    endif()
  endforeach()
endforeach()
run_step("run under qemu" "${CMAKE_CTEST_COMMAND}" --test-dir "${build}" --output-on-failure -V)
execute_process(COMMAND arm-none-eabi-size "${build}/kws_firmware.elf")
