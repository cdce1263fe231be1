# ctest script (tests/tools/CMakeLists.txt, tool_default_stack_*): runs a tool through with_default_stack.sh and
# checks that it ran under the 8 MiB limit and ended by itself: exit status 0, or 1 with the frontend's
# diagnostic in words (a model ctnn does not support, e.g. an MLPerf ONNX model with com.microsoft ops).
# A stack overflow kills the tool with a signal: no exit status, the test fails.
#   cmake -DCOMMAND="sh;with_default_stack.sh;<tool>;<arguments...>" -P check_default_stack.cmake
if(NOT DEFINED COMMAND)
  message(FATAL_ERROR "check_default_stack.cmake: pass -DCOMMAND=...")
endif()
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE _status OUTPUT_VARIABLE _stdout ERROR_VARIABLE _stderr)
set(_seen "exit status ${_status}\n--- stdout (end):\n${_stdout}\n--- stderr:\n${_stderr}")
if(NOT _stderr MATCHES "stack limit: 8192 KiB")
  message(FATAL_ERROR "${COMMAND}: the 8 MiB stack limit did not apply: ${_seen}")
endif()
if(_status STREQUAL "0")
  message("ran on the default stack (exit status 0)")
elseif(_status STREQUAL "1" AND "${_stdout}${_stderr}" MATCHES "error: ctnn::(tflite|onnx): ")
  message("ran on the default stack (exit status 1: the model is not supported, said in words)")
else()
  message(FATAL_ERROR "${COMMAND}: did not end by itself on the default stack: ${_seen}")
endif()
