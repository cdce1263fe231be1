# CMake toolchain file: bare-metal Arm Cortex-M0+ (Armv6-M: no DSP extension, no FPU, soft-float ABI).
# ctnn's select_kernels chooses the portable C++ kernels here (no __ARM_FEATURE_DSP: ctnn/target.hpp).
# QEMU has no Cortex-M0+ board with enough memory for a model (its micro:bit, a Cortex-M0, has 16 KB of
# RAM), so programs run on mps2-an385 (a Cortex-M3; Armv6-M code runs on Armv7-M unchanged) with the
# MPS2 memory map of mps2_an386.ld. Options and details: arm-none-eabi-cortex-m.cmake.
#
#   cmake -S <project> -B build-m0plus -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=<prefix>/share/ctnn/cortex-m/arm-none-eabi-cortex-m0plus.cmake
set(CTNN_CORTEX_M_CPU cortex-m0plus)
set(CTNN_CORTEX_M_FPU "")
set(CTNN_CORTEX_M_BOARD mps2-an385)
set(CTNN_CORTEX_M_LINKER_SCRIPT mps2_an386.ld)
set(CTNN_CORTEX_M_QEMU_INSTRUCTIONS_PER_TICK 40)
include("${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-cortex-m.cmake")
