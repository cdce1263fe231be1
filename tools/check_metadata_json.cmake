# ctest script (tools/CMakeLists.txt, test tool_metadata_json): runs ctnn-metadata to stdout and with
# -o FILE, checks that both give the same text, then validates it with `python3 -m json.tool`. Without
# python3 it prints a line starting with "SKIP: " (the test's SKIP_REGULAR_EXPRESSION).
#   cmake -DTOOL=<ctnn-metadata> -DOUTPUT_DIR=<dir> -P check_metadata_json.cmake
foreach(_var TOOL OUTPUT_DIR)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "check_metadata_json.cmake: pass -D${_var}=...")
  endif()
endforeach()

set(_file "${OUTPUT_DIR}/digits_metadata.json")
file(REMOVE "${_file}")
execute_process(COMMAND "${TOOL}" -o "${_file}" RESULT_VARIABLE _status ERROR_VARIABLE _error)
if(NOT _status EQUAL 0 OR NOT EXISTS "${_file}")
  message(FATAL_ERROR "ctnn-metadata -o ${_file} failed (${_status}): ${_error}")
endif()
execute_process(COMMAND "${TOOL}" RESULT_VARIABLE _status OUTPUT_VARIABLE _stdout ERROR_VARIABLE _error)
if(NOT _status EQUAL 0)
  message(FATAL_ERROR "ctnn-metadata failed (${_status}): ${_error}")
endif()
file(READ "${_file}" _written)
if(NOT _written STREQUAL _stdout)
  message(FATAL_ERROR "ctnn-metadata: -o ${_file} wrote other text than stdout got")
endif()
if(NOT _written MATCHES "\"model\": \"digits\"")
  message(FATAL_ERROR "ctnn-metadata: no \"model\": \"digits\" member in\n${_written}")
endif()

find_program(_python3 NAMES python3)
if(NOT _python3)
  message("SKIP: python3 not found, the JSON was not validated")
  return()
endif()
execute_process(COMMAND "${_python3}" -m json.tool "${_file}" RESULT_VARIABLE _status OUTPUT_QUIET
                ERROR_VARIABLE _error)
if(NOT _status EQUAL 0)
  message(FATAL_ERROR "python3 -m json.tool rejects ${_file}: ${_error}")
endif()
message("metadata JSON is valid (python3 -m json.tool ${_file})")
