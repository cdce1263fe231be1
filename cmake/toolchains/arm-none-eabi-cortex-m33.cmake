# CMake toolchain file: bare-metal Arm Cortex-M33 (Armv8-M Mainline with the DSP extension) with
# single-precision FPU (hard-float ABI), programs run in the secure state under QEMU's mps2-an505 board.
# Options and details: arm-none-eabi-cortex-m.cmake.
#
#   cmake -S tests/baremetal -B build-baremetal-m33 -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=<repo>/cmake/toolchains/arm-none-eabi-cortex-m33.cmake
set(CTNN_CORTEX_M_CPU cortex-m33)
set(CTNN_CORTEX_M_FPU fpv5-sp-d16)
set(CTNN_CORTEX_M_BOARD mps2-an505)
set(CTNN_CORTEX_M_LINKER_SCRIPT mps2_an505.ld)
set(CTNN_CORTEX_M_QEMU_INSTRUCTIONS_PER_TICK 50)
include("${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-cortex-m.cmake")
