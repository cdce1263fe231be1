# Vectorised int8 kernels (kernel/simd/i8) against the reference kernels, bit-exact.
#
# Every test is built once per x86 level, because the kernels are chosen by -march at compile time:
#   <name> (the toolchain's default: plain x86-64 has no SSE4.1, so the reference kernels run),
#   <name>_x86_64_v2 (SSE4.1, pmaddwd), <name>_x86_64_v3 (AVX2, pmaddwd), <name>_native (this machine:
#   AVX-512 VNNI where it has it).
# On other processors only the default build is added.
set(_ctnn_simd_i8_levels "")
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
  set(_ctnn_simd_i8_levels "x86_64_v2|-march=x86-64-v2" "x86_64_v3|-march=x86-64-v3" "native|-march=native")
endif()

# ctnn_simd_i8_test(<name> <sources...>): the test at the default level and at every level above.
function(ctnn_simd_i8_test name)
  ctnn_add_test(${name} ${ARGN})
  foreach(_level IN LISTS _ctnn_simd_i8_levels)
    string(REGEX MATCH "^[^|]*" _suffix "${_level}")
    string(REGEX REPLACE "^[^|]*\\|" "" _flag "${_level}")
    ctnn_add_test(${name}_${_suffix} ${ARGN})
    target_compile_options(${name}_${_suffix} PRIVATE ${_flag})
  endforeach()
endfunction()

ctnn_simd_i8_test(kernels_simd_i8_gemm simd_i8_gemm.cpp)
ctnn_simd_i8_test(kernels_simd_i8_depthwise simd_i8_depthwise.cpp)
ctnn_simd_i8_test(kernels_simd_i8_elementwise simd_i8_elementwise.cpp)

# The MLPerf Tiny per-layer test (kernels_mlperf_layers) at every level: it goes through kernel::invoke,
# so it runs these kernels on the four models' layers. It reads weights at run time, so it must pack them
# with kernel::pack_operand where kernel::packs_operand says so; until it does, the levels are not added.
file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/mlperf_layers_test.cpp _ctnn_packs REGEX "pack_operand")
if(_ctnn_packs)
  foreach(_level IN LISTS _ctnn_simd_i8_levels)
    string(REGEX MATCH "^[^|]*" _suffix "${_level}")
    string(REGEX REPLACE "^[^|]*\\|" "" _flag "${_level}")
    ctnn_add_test(kernels_mlperf_layers_${_suffix} mlperf_layers_test.cpp)
    target_compile_options(kernels_mlperf_layers_${_suffix} PRIVATE ${_flag})
    target_compile_definitions(kernels_mlperf_layers_${_suffix} PRIVATE
      CTNN_MLPERF_DEFAULT_DIR="${PROJECT_SOURCE_DIR}/../shared/models/mlperf-tiny")
  endforeach()
else()
  message(STATUS "mlperf_layers_test.cpp does not pack constant operands: its per-x86-level builds are not added")
endif()

# kernels_simd_i8_mlperf_<model>[_<level>]: each int8 MLPerf Tiny model compiled whole and run through the
# executor (packed weights as a compiled model gets them), bit-exact with TFLM's outputs. Not added
# without ../shared/models/mlperf-tiny.
set(_ctnn_mlperf "${PROJECT_SOURCE_DIR}/../shared/models/mlperf-tiny")
foreach(_model kws_ref_model vww_96_int8 pretrainedResnet_quant ad01_int8)
  if(EXISTS "${_ctnn_mlperf}/refs/${_model}/output_0.bin")
    ctnn_simd_i8_test(kernels_simd_i8_mlperf_${_model} simd_i8_mlperf_model.cpp)
    foreach(_target kernels_simd_i8_mlperf_${_model} kernels_simd_i8_mlperf_${_model}_x86_64_v2
                    kernels_simd_i8_mlperf_${_model}_x86_64_v3 kernels_simd_i8_mlperf_${_model}_native)
      if(TARGET ${_target})
        target_compile_definitions(${_target} PRIVATE CTNN_MLPERF_MODEL=${_model} CTNN_MLPERF_REFS_DIR="${_ctnn_mlperf}/refs")
        ctnn_add_model(${_target} ${_ctnn_mlperf}/${_model}.tflite NAME mlperf_model)
      endif()
    endforeach()
  endif()
endforeach()
