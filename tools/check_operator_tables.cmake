# docs_operator_tables (tests/tools/CMakeLists.txt): the operator tables of docs/frontends.md, between the lines
# "<!-- begin: ctnn-inspect --operators -->" and "<!-- end: ctnn-inspect --operators -->", are exactly what
# `ctnn-inspect --operators` prints from the importers' own tables, so the documented list cannot drift
# from the code. -DWRITE=ON rewrites the docs' block instead (after adding an operator):
#   cmake -DTOOL=<ctnn-inspect> -DDOC=docs/frontends.md -DWRITE=ON -P tools/check_operator_tables.cmake
# -DOPTION=--fast-kernels does the same for docs/design.md's table of the Cortex-M families' shapes
# (docs_fast_kernel_table).
if(NOT OPTION)
  set(OPTION --operators)
endif()
execute_process(COMMAND "${TOOL}" ${OPTION} RESULT_VARIABLE _status OUTPUT_VARIABLE _tables ERROR_VARIABLE _error)
if(NOT _status EQUAL 0)
  message(FATAL_ERROR "${TOOL} ${OPTION} failed (${_status}): ${_error}")
endif()
file(READ "${DOC}" _doc)
set(_begin "<!-- begin: ctnn-inspect ${OPTION} -->\n")
set(_end "<!-- end: ctnn-inspect ${OPTION} -->")
string(FIND "${_doc}" "${_begin}" _at)
string(FIND "${_doc}" "${_end}" _end_at)
if(_at EQUAL -1 OR _end_at EQUAL -1 OR _end_at LESS _at)
  message(FATAL_ERROR "${DOC}: no block between '${_begin}' and '${_end}'")
endif()
string(LENGTH "${_begin}" _begin_length)
math(EXPR _from "${_at} + ${_begin_length}")
math(EXPR _length "${_end_at} - ${_from}")
string(SUBSTRING "${_doc}" ${_from} ${_length} _documented)
if(_documented STREQUAL _tables)
  message("the tables of ${DOC} are ctnn-inspect ${OPTION}")
elseif(WRITE)
  string(SUBSTRING "${_doc}" 0 ${_from} _head)
  string(SUBSTRING "${_doc}" ${_end_at} -1 _tail)
  file(WRITE "${DOC}" "${_head}${_tables}${_tail}")
  message("rewrote the tables of ${DOC} (ctnn-inspect ${OPTION})")
else()
  message(FATAL_ERROR "the tables of ${DOC} differ from ctnn-inspect ${OPTION}; rewrite them with\n"
                      "  cmake -DTOOL=${TOOL} -DDOC=${DOC} -DOPTION=${OPTION} -DWRITE=ON -P ${CMAKE_CURRENT_LIST_FILE}\n"
                      "ctnn-inspect ${OPTION} prints:\n${_tables}")
endif()
