# ctest script (tests/tools/CMakeLists.txt): the arena ctnn-memory-report plans for a model (default options)
# equals the one ctnn-inspect prints for it ("arena: N bytes" of print_module's memory plan), i.e. the
# report and the executor's pipeline agree. OPTIONS (a list, e.g. --patches) go to both tools; when they
# print a patch stage, its line must be the same in both (one printer, tools/patch_stage.hpp).
#   cmake -DREPORT=<ctnn-memory-report> -DINSPECT=<ctnn-inspect> -DMODEL=<file> -DOUTPUT_DIR=<dir>
#         [-DOPTIONS=--patches] -P check_memory_report_matches_inspect.cmake
foreach(_var REPORT INSPECT MODEL OUTPUT_DIR)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "check_memory_report_matches_inspect.cmake: pass -D${_var}=...")
  endif()
endforeach()
get_filename_component(_stem "${MODEL}" NAME_WE)
if(OPTIONS)  # not the picture of the test without options, which may run at the same time
  string(APPEND _stem "_with_options")
endif()
execute_process(COMMAND "${REPORT}" "${MODEL}" ${OPTIONS} -o "${OUTPUT_DIR}/${_stem}_inspected.svg" RESULT_VARIABLE _status
                OUTPUT_VARIABLE _report ERROR_VARIABLE _error)
if(NOT _status EQUAL 0 OR NOT _report MATCHES "pool 0 \"arena\": ([0-9]+) bytes")
  message(FATAL_ERROR "ctnn-memory-report ${MODEL} failed (${_status}): ${_report}${_error}")
endif()
set(_report_bytes "${CMAKE_MATCH_1}")
string(REGEX MATCH "patch stage: [^\n]*" _report_patch_stage "${_report}")
execute_process(COMMAND "${INSPECT}" ${OPTIONS} "${MODEL}" RESULT_VARIABLE _status OUTPUT_VARIABLE _inspect ERROR_VARIABLE _error)
if(NOT _status EQUAL 0 OR NOT _inspect MATCHES "\n  arena: ([0-9]+) bytes")
  message(FATAL_ERROR "ctnn-inspect ${MODEL} failed (${_status}): ${_error}")
endif()
if(NOT _report_bytes STREQUAL CMAKE_MATCH_1)
  message(FATAL_ERROR "${MODEL}: ctnn-memory-report plans ${_report_bytes} bytes, ctnn-inspect ${CMAKE_MATCH_1}")
endif()
string(REGEX MATCH "patch stage: [^\n]*" _inspect_patch_stage "${_inspect}")
if(NOT _report_patch_stage STREQUAL _inspect_patch_stage)
  message(FATAL_ERROR "${MODEL}: ctnn-memory-report shows \"${_report_patch_stage}\", ctnn-inspect \"${_inspect_patch_stage}\"")
endif()
if(_report_patch_stage)
  message("the patch stage is the same in both: ${_report_patch_stage}")
endif()
message("the report's arena equals ctnn-inspect's: ${_report_bytes} bytes")
