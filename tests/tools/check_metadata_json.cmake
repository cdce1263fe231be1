# ctest script (tests/tools/CMakeLists.txt, tests tool_metadata_*): runs ctnn-metadata on a model (with plan
# options ARGS, if any) to stdout and with -o FILE, checks that both give the same text, that it names the
# model and holds the text CONTAINS (if given), then validates it with `python3 -m json.tool`. Without
# python3 it prints a line starting with "SKIP: " (the test's SKIP_REGULAR_EXPRESSION).
#   cmake -DTOOL=<ctnn-metadata> -DMODEL=<file> -DNAME=<model name> -DOUTPUT_DIR=<dir> [-DARGS=<a;b>]
#         [-DCONTAINS=<regex>] -P check_metadata_json.cmake
foreach(_var TOOL MODEL NAME OUTPUT_DIR)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "check_metadata_json.cmake: pass -D${_var}=...")
  endif()
endforeach()

file(MAKE_DIRECTORY "${OUTPUT_DIR}")
set(_file "${OUTPUT_DIR}/${NAME}_metadata.json")
file(REMOVE "${_file}")
execute_process(COMMAND "${TOOL}" "${MODEL}" ${ARGS} -o "${_file}" RESULT_VARIABLE _status ERROR_VARIABLE _error)
if(NOT _status EQUAL 0 OR NOT EXISTS "${_file}")
  message(FATAL_ERROR "ctnn-metadata -o ${_file} failed (${_status}): ${_error}")
endif()
execute_process(COMMAND "${TOOL}" "${MODEL}" ${ARGS} RESULT_VARIABLE _status OUTPUT_VARIABLE _stdout ERROR_VARIABLE _error)
if(NOT _status EQUAL 0)
  message(FATAL_ERROR "ctnn-metadata failed (${_status}): ${_error}")
endif()
file(READ "${_file}" _written)
if(NOT _written STREQUAL _stdout)
  message(FATAL_ERROR "ctnn-metadata: -o ${_file} wrote other text than stdout got")
endif()
if(NOT _written MATCHES "\"model\": \"${NAME}\"")
  message(FATAL_ERROR "ctnn-metadata: no \"model\": \"${NAME}\" member in\n${_written}")
endif()
if(DEFINED CONTAINS AND NOT _written MATCHES "${CONTAINS}")
  message(FATAL_ERROR "ctnn-metadata: nothing matches '${CONTAINS}' in\n${_written}")
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
