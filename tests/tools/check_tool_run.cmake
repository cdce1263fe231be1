# ctest script (tests/tools/CMakeLists.txt): runs a tool and checks its exit status and what it wrote to stdout
# and stderr, apart (PASS_REGULAR_EXPRESSION sees both streams mixed and ignores the status).
#   cmake -DCOMMAND="<tool>;<arguments...>" -DSTATUS=<expected exit status>
#         [-DSTDOUT=<regex>] [-DSTDERR=<regex>] [-DEMPTY_STDOUT=ON] -P check_tool_run.cmake
# Prints "tool run as expected" when everything matches, else fails with what was seen.
foreach(_var COMMAND STATUS)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "check_tool_run.cmake: pass -D${_var}=...")
  endif()
endforeach()

execute_process(COMMAND ${COMMAND} RESULT_VARIABLE _status OUTPUT_VARIABLE _stdout ERROR_VARIABLE _stderr)
set(_seen "exit status ${_status}\n--- stdout:\n${_stdout}\n--- stderr:\n${_stderr}")
if(NOT _status STREQUAL STATUS)
  message(FATAL_ERROR "${COMMAND}: expected exit status ${STATUS}, got ${_seen}")
endif()
if(DEFINED STDOUT AND NOT _stdout MATCHES "${STDOUT}")
  message(FATAL_ERROR "${COMMAND}: stdout does not match '${STDOUT}': ${_seen}")
endif()
if(DEFINED STDERR AND NOT _stderr MATCHES "${STDERR}")
  message(FATAL_ERROR "${COMMAND}: stderr does not match '${STDERR}': ${_seen}")
endif()
if(EMPTY_STDOUT AND NOT _stdout STREQUAL "")
  message(FATAL_ERROR "${COMMAND}: expected nothing on stdout: ${_seen}")
endif()
message("tool run as expected (exit status ${STATUS})")
