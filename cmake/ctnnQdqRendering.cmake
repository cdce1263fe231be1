# ctnn_qdq_rendering(<qlinear.onnx> <qdq.onnx> <result_var>)
# ctnn_qdq_rendering_cases(<model> <tflm_refs_dir> <folder>)
#
# rewrites a QLinear ONNX model (QLinearConv, QGemm, QLinearAdd, ...) as QDQ ONNX at configure time with
# scripts/qlinear_to_qdq.py (/usr/bin/python3 with onnx): the MLPerf Tiny int8 models' QDQ renderings that
# ctnn-run's tests (tools/), the host benchmark (benchmarks/kernels) and the Cortex-M benchmark
# (benchmarks/cortex_m) read. <result_var> is TRUE when <qdq.onnx> was written, FALSE without the model,
# python3 or onnx (the callers then skip what needs it). An unchanged rendering keeps its file (and its time
# stamp): re-configuring rebuilds nothing that embeds it.
#
# ctnn_qdq_rendering_cases gathers the reference cases of MLPerf Tiny model <model>'s QDQ rendering in <folder>:
# TFLM's inputs (input_<k>.bin of <tflm_refs_dir>, k < 4) with onnxruntime's outputs
# (tests/data/onnx/mlperf_qdq/<model>/output_<k>.bin), which ctnn gives byte for byte.
include_guard(GLOBAL)

function(ctnn_qdq_rendering qlinear output result_var)
  find_program(CTNN_QDQ_PYTHON3 NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
  set(written FALSE)
  if(CTNN_QDQ_PYTHON3 AND EXISTS "${qlinear}")
    get_filename_component(folder "${output}" DIRECTORY)
    file(MAKE_DIRECTORY "${folder}")
    execute_process(COMMAND ${CTNN_QDQ_PYTHON3} "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../scripts/qlinear_to_qdq.py" "${qlinear}"
                            "${output}.new"
                    RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
    if(status EQUAL 0)
      file(COPY_FILE "${output}.new" "${output}" ONLY_IF_DIFFERENT)
      file(REMOVE "${output}.new")
      set(written TRUE)
    endif()
  endif()
  set(${result_var} ${written} PARENT_SCOPE)
endfunction()

function(ctnn_qdq_rendering_cases model tflm_refs_dir folder)
  file(MAKE_DIRECTORY "${folder}")
  foreach(k 0 1 2 3)
    file(COPY_FILE "${tflm_refs_dir}/input_${k}.bin" "${folder}/input_${k}.bin" ONLY_IF_DIFFERENT)
    file(COPY_FILE "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../tests/data/onnx/mlperf_qdq/${model}/output_${k}.bin"
         "${folder}/output_${k}.bin" ONLY_IF_DIFFERENT)
  endforeach()
endfunction()
