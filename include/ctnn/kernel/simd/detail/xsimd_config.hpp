#pragma once
// xsimd's configuration (which SIMD architecture -march selects), or none when xsimd's headers are not on
// the include path: a bare-metal build (arm-none-eabi has no SIMD architecture xsimd knows) needs no host
// package then, and every x86 kernel's `supports` is false, as with xsimd on such a target.
#if __has_include(<xsimd/config/xsimd_config.hpp>)
#include <xsimd/config/xsimd_config.hpp>
#elif !defined(XSIMD_NO_SUPPORTED_ARCHITECTURE)
#define XSIMD_NO_SUPPORTED_ARCHITECTURE 1
#endif
