# Vectorised float32 kernels (kernel/simd/f32) against the reference kernels.
# Each test builds once per instruction-set level: the default flags (x86-64: SSE2), x86-64-v2 (SSE4.2),
# x86-64-v3 (AVX2 + FMA) and native (AVX-512 on the development machine), since xsimd's architecture is
# fixed at compile time. Only on x86-64 hosts; other hosts build the default level.
set(_ctnn_simd_f32_tests conv layers model)
set(_ctnn_simd_f32_levels default)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  list(APPEND _ctnn_simd_f32_levels x86-64-v2 x86-64-v3 native)
endif()
foreach(_test IN LISTS _ctnn_simd_f32_tests)
  foreach(_level IN LISTS _ctnn_simd_f32_levels)
    if(_level STREQUAL "default")
      set(_target kernels_simd_f32_${_test})
    else()
      string(REPLACE "-" "_" _suffix "${_level}")
      set(_target kernels_simd_f32_${_test}_${_suffix})
    endif()
    ctnn_add_test(${_target} ${CMAKE_CURRENT_SOURCE_DIR}/simd_f32_${_test}_test.cpp)
    if(NOT _level STREQUAL "default")
      target_compile_options(${_target} PRIVATE -march=${_level})
    endif()
  endforeach()
endforeach()
