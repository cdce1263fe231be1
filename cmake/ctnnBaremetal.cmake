# Helpers for bare-metal Cortex-M programs (cross-compiled with a toolchain file of cmake/toolchains/:
# arm-none-eabi-cortex-m4.cmake, run under qemu-system-arm -M mps2-an386, or arm-none-eabi-cortex-m33.cmake,
# -M mps2-an505).
#
#   ctnn_add_baremetal_executable(<name>
#       SOURCES <file>...
#       [ARGS <arg>...]          command-line arguments for main (passed with qemu's -append)
#       [TIMEOUT <seconds>]      ctest timeout (default: CTNN_BAREMETAL_TEST_TIMEOUT)
#       [NO_TEST])               build only, no ctest test
#
# builds <name>.elf from the sources plus the start-up code (startup_cortex_m4.c; its functions, e.g. the
# peak stack use, are declared in ctnn_baremetal.h), linked with the toolchain's linker script
# (CTNN_BAREMETAL_LINKER_SCRIPT), with a map file <name>.elf.map, warnings as errors, ctnn's include
# directory (${CTNN_SOURCE_DIR}/include) and the doctest configuration that works on newlib (no
# exceptions, signals, threads or colours), and adds a ctest test <name> that runs it under qemu: the
# test passes when main returns 0. A crash (HardFault, ...) prints a report and fails the test.
#
#   ctnn_add_mlperf_refs(<name> REFS_DIR <dir> [CASES <n>] [NAMESPACE <ns>])
#
# embeds the TFLM reference cases of one MLPerf Tiny model (input_<k>.bin / output_<k>.bin of <dir>, a
# folder of ../shared/models/mlperf-tiny/refs; k < n, default 4) in a header "<ns>.hpp" that the
# sources of <name> include (tests/baremetal/embed_refs.cmake: namespace <ns>, input[k], output[k]);
# <ns> is mlperf_refs by default, another name for each model of a program that embeds several.
#
# Requires: the toolchain file, C and CXX enabled. CTNN_SOURCE_DIR (the repository root) defaults to the
# folder above this file.

include_guard(GLOBAL)

if(NOT CTNN_SOURCE_DIR)
  set(CTNN_SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." CACHE PATH "Root of the ctnn repository")
endif()
get_filename_component(CTNN_SOURCE_DIR "${CTNN_SOURCE_DIR}" ABSOLUTE)

set(CTNN_BAREMETAL_STARTUP_SOURCE "${CMAKE_CURRENT_LIST_DIR}/../tests/baremetal/startup_cortex_m4.c"
    CACHE FILEPATH "Vector table and Reset_Handler for bare-metal Cortex-M executables (M4 and M33 alike)")
# The sections every per-board linker script INCLUDEs (a link dependency too).
set(CTNN_BAREMETAL_SECTIONS_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/../tests/baremetal/cortex_m_sections.ld")
set(CTNN_BAREMETAL_TEST_TIMEOUT 60 CACHE STRING "Default ctest timeout (seconds) of a bare-metal program under qemu")

function(ctnn_add_baremetal_executable name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "NO_TEST" "TIMEOUT" "SOURCES;ARGS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ctnn_add_baremetal_executable(${name}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "ctnn_add_baremetal_executable(${name}): SOURCES is required")
  endif()
  if(NOT CMAKE_CROSSCOMPILING OR NOT CTNN_BAREMETAL_LINKER_SCRIPT)
    message(FATAL_ERROR "ctnn_add_baremetal_executable(${name}): configure with "
                        "-DCMAKE_TOOLCHAIN_FILE=<ctnn>/cmake/toolchains/arm-none-eabi-cortex-m4.cmake")
  endif()
  if(NOT DEFINED CTNN_SOURCE_DIR)
    message(FATAL_ERROR "ctnn_add_baremetal_executable(${name}): set CTNN_SOURCE_DIR to the ctnn repository")
  endif()

  add_executable(${name} ${arg_SOURCES} "${CTNN_BAREMETAL_STARTUP_SOURCE}")
  set_target_properties(${name} PROPERTIES
    SUFFIX ".elf"
    CXX_STANDARD 20
    CXX_STANDARD_REQUIRED ON
    CXX_EXTENSIONS OFF
    LINK_DEPENDS "${CTNN_BAREMETAL_LINKER_SCRIPT};${CTNN_BAREMETAL_SECTIONS_SCRIPT}")
  get_filename_component(startup_dir "${CTNN_BAREMETAL_STARTUP_SOURCE}" DIRECTORY)
  target_include_directories(${name} PRIVATE "${CTNN_SOURCE_DIR}/include" "${startup_dir}")  # ctnn_baremetal.h
  target_compile_options(${name} PRIVATE -Wall -Wextra -Wpedantic -Werror)
  # doctest on newlib/bare metal. Inert in translation units that do not include doctest.
  target_compile_definitions(${name} PRIVATE
    DOCTEST_CONFIG_NO_EXCEPTIONS_BUT_WITH_ALL_ASSERTS
    DOCTEST_CONFIG_NO_POSIX_SIGNALS
    DOCTEST_CONFIG_NO_MULTITHREADING
    DOCTEST_CONFIG_COLORS_NONE)
  target_link_options(${name} PRIVATE
    "LINKER:-Map=$<TARGET_FILE:${name}>.map"
    "LINKER:--print-memory-usage")

  if(NOT arg_NO_TEST)
    if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
      message(WARNING "ctnn_add_baremetal_executable(${name}): qemu-system-arm not found, no test added")
      return()
    endif()
    set(command ${name})
    if(arg_ARGS)
      # qemu passes "<elf> <-append string>" to the program as its semihosting command line (argv).
      list(JOIN arg_ARGS " " joined)
      list(APPEND command -append "${joined}")
    endif()
    if(NOT arg_TIMEOUT)
      set(arg_TIMEOUT ${CTNN_BAREMETAL_TEST_TIMEOUT})
    endif()
    add_test(NAME ${name} COMMAND ${command})
    set_tests_properties(${name} PROPERTIES TIMEOUT ${arg_TIMEOUT} LABELS baremetal)
  endif()
endfunction()

function(ctnn_add_mlperf_refs name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "REFS_DIR;CASES;NAMESPACE" "")
  if(NOT arg_REFS_DIR)
    message(FATAL_ERROR "ctnn_add_mlperf_refs(${name}): REFS_DIR is required")
  endif()
  if(NOT arg_CASES)
    set(arg_CASES 4)
  endif()
  if(NOT arg_NAMESPACE)
    set(arg_NAMESPACE mlperf_refs)
  endif()
  set(header_dir "${CMAKE_CURRENT_BINARY_DIR}/${name}_refs")
  set(script "${CTNN_SOURCE_DIR}/tests/baremetal/embed_refs.cmake")
  get_filename_component(refs_name "${arg_REFS_DIR}" NAME)
  add_custom_command(
    OUTPUT "${header_dir}/${arg_NAMESPACE}.hpp"
    COMMAND ${CMAKE_COMMAND} -DREFS_DIR=${arg_REFS_DIR} -DHEADER=${header_dir}/${arg_NAMESPACE}.hpp -DCASES=${arg_CASES}
            -DNAMESPACE=${arg_NAMESPACE} -P "${script}"
    DEPENDS "${script}" "${arg_REFS_DIR}/input_0.bin"
    COMMENT "Embedding the TFLM reference cases of ${refs_name}" VERBATIM)
  target_sources(${name} PRIVATE "${header_dir}/${arg_NAMESPACE}.hpp")
  target_include_directories(${name} PRIVATE "${header_dir}")
endfunction()
