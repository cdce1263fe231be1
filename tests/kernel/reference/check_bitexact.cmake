# Runs each of PROGRAMS (a ;-list; numerics_bitexact.cpp built at several optimisation levels) and compares
# its output with EXPECTED, byte for byte (ctest -R unit_numerics_bitexact). The expected file is the same
# for g++ and clang: one file checks both compilers and every level.
if(NOT EXISTS "${EXPECTED}")
  message(FATAL_ERROR "unit_numerics_bitexact: ${EXPECTED} is missing")
endif()
file(READ "${EXPECTED}" expected)
foreach(program IN LISTS PROGRAMS)
  execute_process(COMMAND "${program}" OUTPUT_VARIABLE got RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "unit_numerics_bitexact: ${program} exited with ${status}")
  endif()
  if(NOT got STREQUAL expected)
    file(WRITE "${program}.out" "${got}")
    message(FATAL_ERROR "unit_numerics_bitexact: ${program} printed other results than ${EXPECTED} "
                        "(its output: ${program}.out; compare them with diff)")
  endif()
  message(STATUS "${program}: identical to ${EXPECTED}")
endforeach()
