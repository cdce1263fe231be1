# cmake -P script behind the tests package_firmware_example and package_cortex_<core>: the user path of
# docs/install.md, "Cross-compiling a firmware": install ctnn into a scratch prefix, configure
# examples/firmware with an installed Cortex-M toolchain file and find_package(ctnn), build it, run it under
# qemu (its own ctest), with the example's own model and case (examples/firmware/kws/, passed as docs/install.md
# passes them: the repository's files, nothing from ../shared). Arguments (-D):
#   CTNN_BUILD_DIR   ctnn's build tree (installed)        CTNN_SOURCE_DIR   ctnn's source tree
#   CTNN_WORK_DIR    scratch directory, wiped first       CTNN_GENERATOR, CTNN_MAKE_PROGRAM
#   CTNN_CORE        the toolchain preset: m4 (default), m0plus, m7, m33, m55
#                    (<prefix>/share/ctnn/cortex-m/arm-none-eabi-cortex-<core>.cmake)
#   CTNN_EXPECT_DSP  ON: the image must contain the Armv7E-M DSP kernels (SMLAD), MVE: the Armv8.1-M MVE
#                    kernels (VMLADAV), OFF: neither, and it must be built for Armv6-M (select_kernels chose
#                    the portable kernels). Unset: not checked.
cmake_minimum_required(VERSION 3.25)

function(run_step name)
  message(STATUS "[firmware example] ${name}: ${ARGN}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "[firmware example] ${name} failed (${result})")
  endif()
endfunction()

if(NOT CTNN_CORE)
  set(CTNN_CORE m4)
endif()

file(REMOVE_RECURSE "${CTNN_WORK_DIR}")
set(prefix "${CTNN_WORK_DIR}/prefix")
set(build "${CTNN_WORK_DIR}/firmware")
run_step("install" "${CMAKE_COMMAND}" --install "${CTNN_BUILD_DIR}" --prefix "${prefix}")
set(configure -S "${CTNN_SOURCE_DIR}/examples/firmware" -B "${build}" -G "${CTNN_GENERATOR}"
    "-DCMAKE_TOOLCHAIN_FILE=${prefix}/share/ctnn/cortex-m/arm-none-eabi-cortex-${CTNN_CORE}.cmake"
    "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
    "-DKWS_MODEL=${CTNN_SOURCE_DIR}/examples/firmware/kws/model.tflite"
    "-DKWS_INPUT=${CTNN_SOURCE_DIR}/examples/firmware/kws/input_0.bin"
    "-DKWS_EXPECTED=${CTNN_SOURCE_DIR}/examples/firmware/kws/output_0.bin")
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
# The kernels select_kernels chose for this core, seen in the image: the DSP kernels multiply with SMLAD;
# a core without the DSP extension (Armv6-M) gets the portable ones.
if(DEFINED CTNN_EXPECT_DSP)
  set(elf "${build}/kws_firmware.elf")
  execute_process(COMMAND arm-none-eabi-objdump -d "${elf}" OUTPUT_VARIABLE disassembly RESULT_VARIABLE result)
  execute_process(COMMAND arm-none-eabi-readelf -A "${elf}" OUTPUT_VARIABLE attributes)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "[firmware example] arm-none-eabi-objdump -d ${elf} failed (${result})")
  endif()
  string(REGEX MATCHALL "\tsmlad" smlad "${disassembly}")
  list(LENGTH smlad smlad_count)
  message(STATUS "[firmware example] cortex-${CTNN_CORE}: ${smlad_count} SMLAD instructions in the image")
  if(CTNN_EXPECT_DSP STREQUAL "MVE")
    # objdump prints MVE only for that architecture (else as coprocessor instructions); VMLADAV shows as vmlav.
    execute_process(COMMAND arm-none-eabi-objdump -d -m armv8.1-m.main "${elf}" OUTPUT_VARIABLE mve_disassembly)
    string(REGEX MATCHALL "\tvmla(da)?va?\\.s8" vmladav "${mve_disassembly}")
    list(LENGTH vmladav vmladav_count)
    message(STATUS "[firmware example] cortex-${CTNN_CORE}: ${vmladav_count} VMLADAV instructions in the image")
    if(vmladav_count EQUAL 0)
      message(FATAL_ERROR "[firmware example] cortex-${CTNN_CORE} has MVE, but the image has no MVE kernel "
                          "(no VMLADAV): select_kernels did not choose them")
    endif()
  elseif(CTNN_EXPECT_DSP AND smlad_count EQUAL 0)
    message(FATAL_ERROR "[firmware example] cortex-${CTNN_CORE} has the DSP extension, but the image has no "
                        "DSP kernel (no SMLAD): select_kernels did not choose them")
  endif()
  if(NOT CTNN_EXPECT_DSP)
    if(NOT smlad_count EQUAL 0 OR NOT attributes MATCHES "Tag_CPU_arch: v6S-M")
      message(FATAL_ERROR "[firmware example] cortex-${CTNN_CORE}: expected an Armv6-M image with the portable "
                          "kernels only (${smlad_count} SMLAD instructions; attributes:\n${attributes})")
    endif()
  endif()
endif()
run_step("run under qemu" "${CMAKE_CTEST_COMMAND}" --test-dir "${build}" --output-on-failure -V)
execute_process(COMMAND arm-none-eabi-size "${build}/kws_firmware.elf")
