# ctest script (tools/CMakeLists.txt): the arena ctnn-memory-report plans for a model (default options)
# equals the one ctnn-inspect prints for it ("arena: N bytes" of print_module's memory plan), i.e. the
# report and the executor's pipeline agree.
#   cmake -DREPORT=<ctnn-memory-report> -DINSPECT=<ctnn-inspect> -DMODEL=<file> -DOUTPUT_DIR=<dir>
#         -P check_memory_report_matches_inspect.cmake
foreach(_var REPORT INSPECT MODEL OUTPUT_DIR)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "check_memory_report_matches_inspect.cmake: pass -D${_var}=...")
  endif()
endforeach()
get_filename_component(_stem "${MODEL}" NAME_WE)
execute_process(COMMAND "${REPORT}" "${MODEL}" -o "${OUTPUT_DIR}/${_stem}_inspected.svg" RESULT_VARIABLE _status
                OUTPUT_VARIABLE _report ERROR_VARIABLE _error)
if(NOT _status EQUAL 0 OR NOT _report MATCHES "pool 0 \"arena\": ([0-9]+) bytes")
  message(FATAL_ERROR "ctnn-memory-report ${MODEL} failed (${_status}): ${_report}${_error}")
endif()
set(_report_bytes "${CMAKE_MATCH_1}")
execute_process(COMMAND "${INSPECT}" "${MODEL}" RESULT_VARIABLE _status OUTPUT_VARIABLE _inspect ERROR_VARIABLE _error)
if(NOT _status EQUAL 0 OR NOT _inspect MATCHES "\n  arena: ([0-9]+) bytes")
  message(FATAL_ERROR "ctnn-inspect ${MODEL} failed (${_status}): ${_error}")
endif()
if(NOT _report_bytes STREQUAL CMAKE_MATCH_1)
  message(FATAL_ERROR "${MODEL}: ctnn-memory-report plans ${_report_bytes} bytes, ctnn-inspect ${CMAKE_MATCH_1}")
endif()
message("the report's arena equals ctnn-inspect's: ${_report_bytes} bytes")
