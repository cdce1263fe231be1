# CMake toolchain for bare-metal Arm Cortex-M cores with the GNU Arm Embedded toolchain (arm-none-eabi-gcc/g++,
# newlib-nano, semihosting through librdimon), programs run under QEMU's MPS2 boards. Not used directly:
# a per-core file sets the core and includes this one:
#
#   arm-none-eabi-cortex-m0plus.cmake  Cortex-M0+ (soft float), qemu -M mps2-an385 (a Cortex-M3), mps2_an386.ld
#   arm-none-eabi-cortex-m4.cmake      Cortex-M4 + FPv4-SP, qemu -M mps2-an386, tests/baremetal/mps2_an386.ld
#   arm-none-eabi-cortex-m7.cmake      Cortex-M7 + FPv5-D16, qemu -M mps2-an500, mps2_an386.ld
#   arm-none-eabi-cortex-m33.cmake     Cortex-M33 + FPv5-SP, qemu -M mps2-an505 (secure state), mps2_an505.ld
#   arm-none-eabi-cortex-m55.cmake     Cortex-M55 + MVE/FPU, qemu -M mps3-an547 (secure state), mps3_an547.ld
#
#   cmake -S tests/baremetal -B build-baremetal -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=<repo>/cmake/toolchains/arm-none-eabi-cortex-m4.cmake
#
# What the per-core file sets (plain variables, before include()):
#   CTNN_CORTEX_M_CPU           -mcpu value (cortex-m0plus, cortex-m4, cortex-m7, cortex-m33, cortex-m55)
#   CTNN_CORTEX_M_FPU           -mfpu value with the hard-float ABI; empty: no FPU, soft-float ABI
#   CTNN_CORTEX_M_BOARD         qemu-system-arm machine (mps2-an385, mps2-an386, mps2-an500, mps2-an505, mps3-an547)
#   CTNN_CORTEX_M_LINKER_SCRIPT default linker script (file name in tests/baremetal/)
#   CTNN_CORTEX_M_QEMU_INSTRUCTIONS_PER_TICK  instructions per SysTick tick (processor clock) of the board
#                               under qemu -icount shift=0 (1 ns per instruction / the board's clock period:
#                               40 on the 25 MHz MPS2 boards, 50 on mps2-an505's 20 MHz, 31.25 on mps3-an547's
#                               32 MHz; measured by benchmarks/cortex_m/run.py's calibration loop)
#
# Cache variables (set with -D on the first configure):
#   CTNN_BAREMETAL_LINKER_SCRIPT      linker script passed with -T (default: the core's, above)
#   CTNN_BAREMETAL_OPTIMIZATION       optimisation flag of every compile (default -O2; e.g. -Os)
#   CTNN_BAREMETAL_HOST_INCLUDE_DIR   host header directory appended to the C++ search path with
#                                     -idirafter, so that Debian's Boost.Hana/doctest/xsimd headers are
#                                     found *after* newlib's and libstdc++'s (default: /usr/include)
#   CTNN_BAREMETAL_USE_NANO           link newlib-nano (--specs=nano.specs), default ON
#   CTNN_BAREMETAL_PRINTF_FLOAT       link newlib-nano's float formatting (%f, %g, %e) into every program,
#                                     default OFF: programs that print floats opt in one by one with
#                                     ctnn_baremetal_printf_float(<target>...) (below)
#   CTNN_QEMU_SYSTEM_ARM              the qemu-system-arm executable (found on PATH)
#
# CTNN_BAREMETAL_CPU and CTNN_BAREMETAL_BOARD (cache, read-only in effect) tell projects which core and
# board they build for, CTNN_BAREMETAL_QEMU_INSTRUCTIONS_PER_TICK how many instructions a SysTick tick stands for
# there under qemu -icount shift=0 (empty when the per-core file does not say).
#
# ctnn_baremetal_printf_float(<target>...): newlib-nano's printf has no float formatting unless the program pulls
# it in (-u _printf_float: about 12 KB of .text); this links it into the given executables (those that print
# floats: doctest's messages, %g in a test's diagnostics). A no-op without nano, or when CTNN_BAREMETAL_PRINTF_FLOAT
# already links it into every program.
#
# CMAKE_CROSSCOMPILING_EMULATOR runs executables under qemu with semihosting, so that add_test(NAME x COMMAND target)
# and `ctest` work; main's return value is qemu's exit status.
foreach(_ctnn_var IN ITEMS CTNN_CORTEX_M_CPU CTNN_CORTEX_M_FPU CTNN_CORTEX_M_BOARD CTNN_CORTEX_M_LINKER_SCRIPT)
  if(NOT DEFINED ${_ctnn_var})
    message(FATAL_ERROR "arm-none-eabi-cortex-m.cmake is included by a per-core toolchain file that sets ${_ctnn_var} "
                        "(use cmake/toolchains/arm-none-eabi-cortex-m4.cmake, -cortex-m0plus, -m7, -m33 or -m55.cmake)")
  endif()
endforeach()

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
# No linking in CMake's compiler checks: a bare-metal executable needs the startup code and linker
# script, which the checks do not have.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

find_program(CMAKE_OBJCOPY arm-none-eabi-objcopy)
find_program(CMAKE_OBJDUMP arm-none-eabi-objdump)
find_program(CMAKE_SIZE arm-none-eabi-size)

set(CTNN_BAREMETAL_CPU "${CTNN_CORTEX_M_CPU}" CACHE INTERNAL "The Cortex-M core of this build (toolchain file)")
set(CTNN_BAREMETAL_BOARD "${CTNN_CORTEX_M_BOARD}" CACHE INTERNAL "The qemu board of this build (toolchain file)")
set(CTNN_BAREMETAL_QEMU_INSTRUCTIONS_PER_TICK "${CTNN_CORTEX_M_QEMU_INSTRUCTIONS_PER_TICK}" CACHE INTERNAL
    "Instructions per SysTick tick on the qemu board under -icount shift=0 (toolchain file)")
# The board files (linker scripts, start-up code): beside this file when installed
# (<prefix>/share/ctnn/cortex-m/), in tests/baremetal/ in the source tree.
if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/${CTNN_CORTEX_M_LINKER_SCRIPT}")
  set(_ctnn_baremetal_dir "${CMAKE_CURRENT_LIST_DIR}")
else()
  set(_ctnn_baremetal_dir "${CMAKE_CURRENT_LIST_DIR}/../../tests/baremetal")
endif()
get_filename_component(_ctnn_baremetal_dir "${_ctnn_baremetal_dir}" ABSOLUTE)
# The start-up code (vector table, FPU, .data copy, fault reports through semihosting) for a firmware's own
# executables: add_executable(fw main.c ${CTNN_BAREMETAL_STARTUP_SOURCE}).
set(CTNN_BAREMETAL_STARTUP_SOURCE "${_ctnn_baremetal_dir}/startup_cortex_m4.c"
    CACHE FILEPATH "Start-up code of bare-metal Cortex-M executables (vector table, FPU, .data copy)")
set(CTNN_BAREMETAL_LINKER_SCRIPT "${_ctnn_baremetal_dir}/${CTNN_CORTEX_M_LINKER_SCRIPT}"
    CACHE FILEPATH "Linker script for bare-metal ${CTNN_CORTEX_M_CPU} executables")
get_filename_component(CTNN_BAREMETAL_LINKER_SCRIPT "${CTNN_BAREMETAL_LINKER_SCRIPT}" ABSOLUTE)
set(CTNN_BAREMETAL_OPTIMIZATION "-O2" CACHE STRING "Optimisation flag of the bare-metal compiles (-O2, -Os, ...)")
set(CTNN_BAREMETAL_HOST_INCLUDE_DIR "/usr/include"
    CACHE PATH "Host headers (Boost.Hana, doctest) searched after the toolchain's own (-idirafter)")
option(CTNN_BAREMETAL_USE_NANO "Link newlib-nano (nano.specs)" ON)
option(CTNN_BAREMETAL_PRINTF_FLOAT "Link newlib-nano's float printf (-u _printf_float) into every program" OFF)

# The CPU: Thumb, the core's FPU with the hard-float calling convention (multilib thumb/<arch>+fp/hard), or
# soft float on a core without FPU (multilib thumb/<arch>/nofp).
if(CTNN_CORTEX_M_FPU)
  set(_ctnn_cpu_flags "-mcpu=${CTNN_CORTEX_M_CPU} -mthumb -mfloat-abi=hard -mfpu=${CTNN_CORTEX_M_FPU}")
else()
  set(_ctnn_cpu_flags "-mcpu=${CTNN_CORTEX_M_CPU} -mthumb -mfloat-abi=soft")
endif()
# nano.specs also changes the preprocessor (newlib-nano's newlib.h: _REENT_SMALL, ...), so it has to be
# passed when compiling as well as when linking.
set(_ctnn_specs "")
if(CTNN_BAREMETAL_USE_NANO)
  set(_ctnn_specs "--specs=nano.specs")
endif()
set(_ctnn_common_flags "${_ctnn_cpu_flags} ${_ctnn_specs} ${CTNN_BAREMETAL_OPTIMIZATION} -ffunction-sections -fdata-sections")

set(CMAKE_C_FLAGS_INIT "${_ctnn_common_flags}")
# -Wno-psabi: silences GCC's notes that the parameter passing of some types changed in GCC 7.1 (every
# object file here is built by the same compiler).
set(CMAKE_CXX_FLAGS_INIT
    "${_ctnn_common_flags} -std=c++20 -fno-exceptions -fno-rtti -Wno-psabi -idirafter ${CTNN_BAREMETAL_HOST_INCLUDE_DIR}")
set(CMAKE_ASM_FLAGS_INIT "${_ctnn_cpu_flags}")

# rdimon.specs: newlib's semihosting syscalls + rdimon-crt0 (_start), stdio goes to the host.
# -u _printf_float: newlib-nano's printf (used by libstdc++ to format floats, e.g. in doctest's
# messages) has no float support unless it is pulled in explicitly; only with CTNN_BAREMETAL_PRINTF_FLOAT here,
# else per program (ctnn_baremetal_printf_float, below).
# Debian's newlib (nano or not) is built without C99 printf formats: %zu, %jd, %td, %hhd print
# literally ("zu"), and nano has no %lld either; GCC's -Wformat does not warn about it.
# -L <dir of the linker script>: the per-board scripts INCLUDE the shared sections (cortex_m_sections.ld).
get_filename_component(_ctnn_linker_dir "${CTNN_BAREMETAL_LINKER_SCRIPT}" DIRECTORY)
set(_ctnn_link_flags "--specs=rdimon.specs -L ${_ctnn_linker_dir} -T ${CTNN_BAREMETAL_LINKER_SCRIPT} -Wl,--gc-sections")
if(CTNN_BAREMETAL_USE_NANO AND CTNN_BAREMETAL_PRINTF_FLOAT)
  string(APPEND _ctnn_link_flags " -u _printf_float")
endif()
set(CMAKE_EXE_LINKER_FLAGS_INIT "${_ctnn_link_flags}")

# Float formatting for the programs that print floats (the header above).
function(ctnn_baremetal_printf_float)
  if(CTNN_BAREMETAL_USE_NANO AND NOT CTNN_BAREMETAL_PRINTF_FLOAT)
    foreach(_target IN LISTS ARGN)
      target_link_options(${_target} PRIVATE "SHELL:-u _printf_float")
    endforeach()
  endif()
endfunction()

# Search headers and libraries only in the toolchain's prefix, programs only on the host. CMake packages
# in both: a header-only package such as an installed ctnn has no architecture, and find_package(ctnn)
# must find it in its install prefix (ctnn's package then asks for no host package: cmake/ctnnHostDependencies.cmake).
set(CMAKE_FIND_ROOT_PATH /usr/lib/arm-none-eabi)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

# Run executables (add_test, custom commands using the target) under qemu; -kernel loads the ELF (at its
# load addresses) and the core boots from its reset vector table (the linker script puts it there).
find_program(CTNN_QEMU_SYSTEM_ARM qemu-system-arm)
if(CTNN_QEMU_SYSTEM_ARM)
  set(CMAKE_CROSSCOMPILING_EMULATOR
      "${CTNN_QEMU_SYSTEM_ARM};-M;${CTNN_CORTEX_M_BOARD};-nographic;-monitor;none;-semihosting-config;enable=on,target=native;-kernel")
endif()
