# ctnn-run on a real export's reference cases (tests/data/onnx_exports): <CASES>/input_<k>.bin -> output,
# compared with <CASES>/output_<k><SUFFIX> (k = 0, 1): float within the float tolerance (compare-f32,
# -DCOMPARE), QDQ within -DATOL (1 LSB: the output DequantizeLinear's scale) by ctnn-run --expect.
# Arguments: -DTOOL=<ctnn-run> -DMODEL=<model file> -DCASES=<folder> -DSUFFIX=<.bin|.qdq.bin> -DWORK_DIR=<dir>
# and -DCOMPARE=<compare-f32> or -DATOL=<number>.
file(MAKE_DIRECTORY "${WORK_DIR}")
foreach(_k RANGE 1)
  set(_expected "${CASES}/output_${_k}${SUFFIX}")
  if(ATOL)
    set(_check --expect "${_expected}" --rtol 0 --atol "${ATOL}")
  else()
    set(_check)
  endif()
  execute_process(COMMAND "${TOOL}" "${MODEL}" "${CASES}/input_${_k}.bin" ${_check} -o "${WORK_DIR}/case_${_k}"
                  RESULT_VARIABLE _status OUTPUT_VARIABLE _output ERROR_VARIABLE _error)
  if(NOT _status EQUAL 0)
    message(FATAL_ERROR "case ${_k}: ctnn-run failed (status ${_status}): ${_output}${_error}")
  endif()
  if(NOT ATOL)
    execute_process(COMMAND "${COMPARE}" "${WORK_DIR}/case_${_k}_0.bin" "${_expected}"
                    RESULT_VARIABLE _different OUTPUT_VARIABLE _difference)
    if(_different)
      message(FATAL_ERROR "case ${_k}: ctnn-run's output differs from ${_expected}: ${_difference}")
    endif()
  endif()
endforeach()
message("2 reference cases match")
