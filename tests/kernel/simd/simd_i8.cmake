# Vectorised int8 kernels (kernel/simd/i8) against the reference kernels, bit-exact.
#
# Each kernel test at every level of CTNN_SIMD_TEST_LEVELS (tests/kernel/simd/CMakeLists.txt): at the default
# level (plain x86-64 has no SSE4.1) the reference kernels run; x86-64-v2 (SSE4.1, pmaddwd), x86-64-v3
# (AVX2, pmaddwd), native (this machine: AVX-512 VNNI where it has it).
foreach(_test gemm depthwise elementwise onnx)
  ctnn_add_simd_test(kernels_simd_i8_${_test} LEVELS ${CTNN_SIMD_TEST_LEVELS} SOURCES simd_i8_${_test}.cpp)
endforeach()
# The 16x8 GEMM and depthwise kernel (int16 data; i8/gemm16.hpp, i8/depthwise.hpp), in the same family.
ctnn_add_simd_test(kernels_simd_i16_conv LEVELS ${CTNN_SIMD_TEST_LEVELS} SOURCES simd_i16_conv.cpp)

# The MLPerf Tiny per-layer test (kernels_mlperf_layers, the default level, is in tests/kernel/reference) at the
# other levels: it goes through kernel::invoke with constants packed by kernel::pack_operand, so it runs
# these kernels on the four models' layers against TFLM's dumps.
set(_ctnn_other_levels ${CTNN_SIMD_TEST_LEVELS})
list(REMOVE_ITEM _ctnn_other_levels default)
ctnn_add_simd_test(kernels_mlperf_layers LEVELS ${_ctnn_other_levels} SOURCES ${PROJECT_SOURCE_DIR}/tests/kernel/reference/mlperf_layers_test.cpp)
foreach(_target IN LISTS kernels_mlperf_layers_TARGETS)
  target_compile_definitions(${_target} PRIVATE
    CTNN_MLPERF_DEFAULT_DIR="${CTNN_SHARED_DIR}/models/mlperf-tiny")
endforeach()

# kernels_simd_i8_mlperf_<model>[_<level>]: each int8 MLPerf Tiny model compiled whole and run through the
# executor (packed weights as a compiled model gets them), bit-exact with TFLM's outputs, at
# CTNN_SIMD_MODEL_TEST_LEVELS. Not added without ${CTNN_SHARED_DIR}/models/mlperf-tiny.
set(_ctnn_mlperf "${CTNN_SHARED_DIR}/models/mlperf-tiny")
foreach(_model kws_ref_model vww_96_int8 pretrainedResnet_quant ad01_int8)
  if(EXISTS "${_ctnn_mlperf}/refs/${_model}/output_0.bin")
    ctnn_add_simd_test(kernels_simd_i8_mlperf_${_model} LEVELS ${CTNN_SIMD_MODEL_TEST_LEVELS}
                       SOURCES simd_i8_mlperf_model.cpp)
    foreach(_target IN LISTS kernels_simd_i8_mlperf_${_model}_TARGETS)
      target_compile_definitions(${_target} PRIVATE CTNN_MLPERF_MODEL=${_model} CTNN_MLPERF_REFS_DIR="${_ctnn_mlperf}/refs")
      ctnn_add_model(${_target} ${_ctnn_mlperf}/${_model}.tflite NAME mlperf_model)
    endforeach()
  endif()
endforeach()
