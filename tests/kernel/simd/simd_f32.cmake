# Vectorised float32 kernels (kernel/simd/f32) against the reference kernels.
# Each test at every level of CTNN_SIMD_TEST_LEVELS (tests/kernel/simd/CMakeLists.txt); the whole-model test
# at CTNN_SIMD_MODEL_TEST_LEVELS.
foreach(_test conv tconv layers)
  ctnn_add_simd_test(kernels_simd_f32_${_test} LEVELS ${CTNN_SIMD_TEST_LEVELS}
                     SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/simd_f32_${_test}_test.cpp)
endforeach()
ctnn_add_simd_test(kernels_simd_f32_model LEVELS ${CTNN_SIMD_MODEL_TEST_LEVELS}
                   SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/simd_f32_model_test.cpp)
