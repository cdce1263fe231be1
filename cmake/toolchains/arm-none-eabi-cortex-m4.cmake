# CMake toolchain file: bare-metal Arm Cortex-M4 with single-precision FPU (hard-float ABI), programs run
# under QEMU's mps2-an386 board (Cortex-M4 + FPU). Options and details: arm-none-eabi-cortex-m.cmake.
#
#   cmake -S tests/baremetal -B build-baremetal -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=<repo>/cmake/toolchains/arm-none-eabi-cortex-m4.cmake
set(CTNN_CORTEX_M_CPU cortex-m4)
set(CTNN_CORTEX_M_FPU fpv4-sp-d16)
set(CTNN_CORTEX_M_BOARD mps2-an386)
set(CTNN_CORTEX_M_LINKER_SCRIPT mps2_an386.ld)
set(CTNN_CORTEX_M_QEMU_INSTRUCTIONS_PER_TICK 40)
include("${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-cortex-m.cmake")
