# Runs TOOL on MODEL (ctnn-run with no inputs, or ctnn-inspect) and passes when it exits with status 1 and
# its output matches EXPECTED (a regular expression): a rejected model gets its sentence, not a crash or a
# bare error code.
execute_process(COMMAND ${TOOL} ${MODEL} ${TOOL_ARGS} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
if(NOT status EQUAL 1)
  message(FATAL_ERROR "${TOOL} ${MODEL}: exit status ${status}, expected 1\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECTED}")
  message(FATAL_ERROR "${TOOL} ${MODEL}: the output does not match '${EXPECTED}':\n${out}${err}")
endif()
