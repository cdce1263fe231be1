// doctest's main for arm_kernels (the DSP int8 kernels against the reference kernels; arm_kernels_test.hpp).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
