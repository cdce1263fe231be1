# cmake -P script behind compile_fail_older_standard: compiles older_standard.cpp with -std=gnu++17 and passes
# when the compiler fails with exactly one error, the one that names C++20.
#   -DCXX=<compiler> -DSOURCE=<older_standard.cpp> -DINCLUDE_DIR=<ctnn's include directory>
execute_process(COMMAND "${CXX}" -std=gnu++17 -fsyntax-only "-I${INCLUDE_DIR}" "${SOURCE}"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCHALL "error:|error [^:]*:" errors "${out}${err}")
list(LENGTH errors count)
if(status EQUAL 0 OR NOT count EQUAL 1 OR NOT "${err}" MATCHES "ctnn needs C\\+\\+20")
  message(FATAL_ERROR "expected one error naming C++20, got status ${status} and ${count} errors:\n${err}")
endif()
message(STATUS "one error: ${err}")
