# cmake -P script: runs a bare-metal program that is expected to FAIL a doctest check, and passes only
# if the program ran to the end of doctest (summary "Status: FAILURE!"), did not crash, and qemu exited
# with a non-zero status. This guards the path "failed check -> main's return value -> semihosting
# exit -> qemu's exit status" that every other bare-metal test relies on.
#
#   cmake "-DEMULATOR=<qemu;args;...;-kernel>" -DPROGRAM=<elf> "-DPROGRAM_ARGS=<args for main>"
#         -P expect_failure.cmake
foreach(var IN ITEMS EMULATOR PROGRAM)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "expect_failure.cmake: -D${var}=... is required")
  endif()
endforeach()

set(command ${EMULATOR} "${PROGRAM}")
if(PROGRAM_ARGS)
  list(APPEND command -append "${PROGRAM_ARGS}")
endif()
execute_process(COMMAND ${command} RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("${output}")
message("exit status: ${result}")

if(result EQUAL 0)
  message(FATAL_ERROR "the failing check did not fail the program: exit status 0")
endif()
if(output MATCHES "unexpected exception")
  message(FATAL_ERROR "the program crashed instead of failing a check")
endif()
if(NOT output MATCHES "Status: FAILURE!")
  message(FATAL_ERROR "doctest's failure summary is missing")
endif()
message("OK: a failed check gives a non-zero exit status")
