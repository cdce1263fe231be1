# CMake toolchain file: bare-metal Arm Cortex-M55 (Armv8.1-M Mainline with the DSP extension, MVE and FPU;
# -mfpu=auto takes them from -mcpu, hard-float ABI), programs run in the secure state under QEMU's
# mps3-an547 board (mps3_an547.ld). ctnn uses its MVE (Helium) kernels there (kernel/arm/mve), and its
# DSP kernels for the calls those leave. Options and details: arm-none-eabi-cortex-m.cmake.
#
#   cmake -S <project> -B build-m55 -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=<prefix>/share/ctnn/cortex-m/arm-none-eabi-cortex-m55.cmake
set(CTNN_CORTEX_M_CPU cortex-m55)
set(CTNN_CORTEX_M_FPU auto)
set(CTNN_CORTEX_M_BOARD mps3-an547)
set(CTNN_CORTEX_M_LINKER_SCRIPT mps3_an547.ld)
set(CTNN_CORTEX_M_QEMU_INSTRUCTIONS_PER_TICK 31.25)
include("${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-cortex-m.cmake")
