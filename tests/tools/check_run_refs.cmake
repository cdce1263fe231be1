# ctnn-run on a model's reference cases: input_<k>.bin -> output, compared with output_<k>.bin (k = 0..3):
# byte for byte, or with -DCOMPARE=<compare-f32> within the float tolerance. Arguments: -DTOOL=<ctnn-run>
# -DMODEL=<model file> -DREFS=<refs directory> -DWORK_DIR=<directory> [-DCOMPARE=<compare-f32>]
# [-DEXPECTED=<directory of the output_<k>.bin files, when not REFS>].
file(MAKE_DIRECTORY "${WORK_DIR}")
if(NOT EXPECTED)
  set(EXPECTED "${REFS}")
endif()
foreach(_k RANGE 3)
  execute_process(COMMAND "${TOOL}" "${MODEL}" "${REFS}/input_${_k}.bin" -o "${WORK_DIR}/case_${_k}"
                  RESULT_VARIABLE _status ERROR_VARIABLE _error)
  if(NOT _status EQUAL 0)
    message(FATAL_ERROR "ctnn-run failed on case ${_k} (status ${_status}): ${_error}")
  endif()
  if(COMPARE)
    set(_compare "${COMPARE}")
  else()
    set(_compare ${CMAKE_COMMAND} -E compare_files)
  endif()
  execute_process(COMMAND ${_compare} "${WORK_DIR}/case_${_k}_0.bin" "${EXPECTED}/output_${_k}.bin"
                  RESULT_VARIABLE _different OUTPUT_VARIABLE _difference)
  if(_different)
    message(FATAL_ERROR "case ${_k}: ctnn-run's output differs from ${EXPECTED}/output_${_k}.bin ${_difference}")
  endif()
endforeach()
message("4 reference cases match")
