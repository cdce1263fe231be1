# CMake toolchain file: bare-metal Arm Cortex-M7 (Armv7E-M with the DSP extension) with double-precision
# FPU (FPv5-D16, hard-float ABI), programs run under QEMU's mps2-an500 board, whose memory map is
# mps2-an386's (mps2_an386.ld). Options and details: arm-none-eabi-cortex-m.cmake.
#
#   cmake -S <project> -B build-m7 -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=<prefix>/share/ctnn/cortex-m/arm-none-eabi-cortex-m7.cmake
set(CTNN_CORTEX_M_CPU cortex-m7)
set(CTNN_CORTEX_M_FPU fpv5-d16)
set(CTNN_CORTEX_M_BOARD mps2-an500)
set(CTNN_CORTEX_M_LINKER_SCRIPT mps2_an386.ld)
set(CTNN_CORTEX_M_QEMU_INSTRUCTIONS_PER_TICK 40)
include("${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-cortex-m.cmake")
