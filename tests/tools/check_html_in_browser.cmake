# ctest script (tests/tools/CMakeLists.txt): opens ctnn-memory-report's HTML page in a real headless browser
# (Debian's chromium) and checks the DOM it rendered: the inline SVG picture with its boxes, one table row
# per op, the peak's row marked. Without chromium it prints a line starting with "SKIP: " (the test's
# SKIP_REGULAR_EXPRESSION).
#   cmake -DPAGE=<file.html> -DOPS=<op count> -DPEAK_OP=<op index> -DBOX=<a box's title> -P check_html_in_browser.cmake
foreach(_var PAGE OPS PEAK_OP BOX)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "check_html_in_browser.cmake: pass -D${_var}=...")
  endif()
endforeach()
find_program(_browser NAMES chromium)
if(NOT _browser)
  message("SKIP: chromium not found (Debian package chromium); the HTML page was not opened in a browser")
  return()
endif()
if(NOT EXISTS "${PAGE}")
  message(FATAL_ERROR "${PAGE} does not exist (the test that writes it failed)")
endif()
get_filename_component(_page "${PAGE}" ABSOLUTE)
execute_process(COMMAND "${_browser}" --headless --no-sandbox --disable-gpu --disable-background-networking
                        --dump-dom "file://${_page}"
                RESULT_VARIABLE _status OUTPUT_VARIABLE _dom ERROR_VARIABLE _error TIMEOUT 120)
if(NOT _status EQUAL 0 OR _dom STREQUAL "")
  message(FATAL_ERROR "${_browser} --dump-dom ${_page} failed (${_status}): ${_error}")
endif()
# The rendered DOM: the picture inline, with the box, and the table of ops.
foreach(_expected "<svg xmlns=\"http://www.w3.org/2000/svg\"" "<title>${BOX}</title>" "<table id=\"ops\">" "</svg>")
  string(FIND "${_dom}" "${_expected}" _at)
  if(_at LESS 0)
    message(FATAL_ERROR "the DOM chromium rendered from ${_page} has no ${_expected}:\n${_dom}")
  endif()
endforeach()
string(REGEX MATCHALL "<tr id=\"op[0-9]+\" class=\"op[ a-z]*\">" _rows "${_dom}")
list(LENGTH _rows _row_count)
if(NOT _row_count EQUAL OPS)
  message(FATAL_ERROR "the rendered table has ${_row_count} op rows, the model ${OPS} ops:\n${_dom}")
endif()
string(REGEX MATCHALL "<tr id=\"op[0-9]+\" class=\"op peak\">" _peaks "${_dom}")
if(NOT _peaks STREQUAL "<tr id=\"op${PEAK_OP}\" class=\"op peak\">")
  message(FATAL_ERROR "expected op ${PEAK_OP}'s row alone marked as the peak, got '${_peaks}'")
endif()
message("chromium rendered the page: the SVG, ${_row_count} op rows, the peak at op ${PEAK_OP}")
