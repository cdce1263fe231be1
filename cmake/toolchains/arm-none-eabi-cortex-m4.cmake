# CMake toolchain file: bare-metal Arm Cortex-M4 with single-precision FPU (hard-float ABI),
# GNU Arm Embedded toolchain (arm-none-eabi-gcc/g++, newlib-nano, semihosting through librdimon),
# programs run under QEMU's mps2-an386 board (Cortex-M4 + FPU).
#
#   cmake -S tests/baremetal -B build-baremetal -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=<repo>/cmake/toolchains/arm-none-eabi-cortex-m4.cmake
#
# Cache variables (set with -D on the first configure):
#   CTNN_BAREMETAL_LINKER_SCRIPT      linker script passed with -T (default: tests/baremetal/mps2_an386.ld)
#   CTNN_BAREMETAL_HOST_INCLUDE_DIR   host header directory appended to the C++ search path with
#                                     -idirafter, so that Debian's Boost.Hana/doctest/xsimd headers are
#                                     found *after* newlib's and libstdc++'s (default: /usr/include)
#   CTNN_BAREMETAL_USE_NANO           link newlib-nano (--specs=nano.specs), default ON
#   CTNN_QEMU_SYSTEM_ARM              the qemu-system-arm executable (found on PATH)
#
# CMAKE_CROSSCOMPILING_EMULATOR runs executables under qemu with semihosting, so that
# add_test(NAME x COMMAND target) and `ctest` work; main's return value is qemu's exit status.

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

set(CTNN_BAREMETAL_LINKER_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/../../tests/baremetal/mps2_an386.ld"
    CACHE FILEPATH "Linker script for bare-metal Cortex-M4 executables")
get_filename_component(CTNN_BAREMETAL_LINKER_SCRIPT "${CTNN_BAREMETAL_LINKER_SCRIPT}" ABSOLUTE)
set(CTNN_BAREMETAL_HOST_INCLUDE_DIR "/usr/include"
    CACHE PATH "Host headers (Boost.Hana, doctest) searched after the toolchain's own (-idirafter)")
option(CTNN_BAREMETAL_USE_NANO "Link newlib-nano (nano.specs)" ON)

# The CPU: Cortex-M4, Thumb-2, FPv4-SP FPU, hard-float calling convention (multilib thumb/v7e-m+fp/hard).
set(_ctnn_cpu_flags "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16")
# nano.specs also changes the preprocessor (newlib-nano's newlib.h: _REENT_SMALL, ...), so it has to be
# passed when compiling as well as when linking.
set(_ctnn_specs "")
if(CTNN_BAREMETAL_USE_NANO)
  set(_ctnn_specs "--specs=nano.specs")
endif()
set(_ctnn_common_flags "${_ctnn_cpu_flags} ${_ctnn_specs} -O2 -ffunction-sections -fdata-sections")

set(CMAKE_C_FLAGS_INIT "${_ctnn_common_flags}")
# -Wno-psabi: silences GCC's notes that the parameter passing of some types changed in GCC 7.1 (every
# object file here is built by the same compiler).
set(CMAKE_CXX_FLAGS_INIT
    "${_ctnn_common_flags} -std=c++20 -fno-exceptions -fno-rtti -Wno-psabi -idirafter ${CTNN_BAREMETAL_HOST_INCLUDE_DIR}")
set(CMAKE_ASM_FLAGS_INIT "${_ctnn_cpu_flags}")

# rdimon.specs: newlib's semihosting syscalls + rdimon-crt0 (_start), stdio goes to the host.
# -u _printf_float: newlib-nano's printf (used by libstdc++ to format floats, e.g. in doctest's
# messages) has no float support unless it is pulled in explicitly.
# Debian's newlib (nano or not) is built without C99 printf formats: %zu, %jd, %td, %hhd print
# literally ("zu"), and nano has no %lld either; GCC's -Wformat does not warn about it.
set(_ctnn_link_flags "--specs=rdimon.specs -T ${CTNN_BAREMETAL_LINKER_SCRIPT} -Wl,--gc-sections")
if(CTNN_BAREMETAL_USE_NANO)
  string(APPEND _ctnn_link_flags " -u _printf_float")
endif()
set(CMAKE_EXE_LINKER_FLAGS_INIT "${_ctnn_link_flags}")

# Search headers/libraries/packages only in the toolchain's prefix, programs only on the host.
set(CMAKE_FIND_ROOT_PATH /usr/lib/arm-none-eabi)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Run executables (add_test, custom commands using the target) under qemu: mps2-an386 is a Cortex-M4
# with FPU; -kernel loads the ELF (at its load addresses) and the core boots from the vector table at 0.
find_program(CTNN_QEMU_SYSTEM_ARM qemu-system-arm)
if(CTNN_QEMU_SYSTEM_ARM)
  set(CMAKE_CROSSCOMPILING_EMULATOR
      "${CTNN_QEMU_SYSTEM_ARM};-M;mps2-an386;-nographic;-monitor;none;-semihosting-config;enable=on,target=native;-kernel")
endif()
