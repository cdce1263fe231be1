# Runs the bare-metal digits executor under qemu and the host demo with --predictions, and fails unless
# both print the same "<index> <prediction>" line for every held-out image.
#   cmake -DHOST_DEMO=<digits_demo> -DELF=<digits_baremetal.elf> -DQEMU=<qemu-system-arm> -P this file
foreach(var HOST_DEMO ELF QEMU)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "compare_digits_with_host.cmake: -D${var}=... is required")
  endif()
endforeach()

execute_process(COMMAND "${HOST_DEMO}" --predictions OUTPUT_VARIABLE host_out RESULT_VARIABLE host_status)
if(NOT host_status EQUAL 0)
  message(FATAL_ERROR "host demo failed (${host_status})")
endif()
execute_process(COMMAND "${QEMU}" -M mps2-an386 -nographic -monitor none
                        -semihosting-config enable=on,target=native -kernel "${ELF}"
                OUTPUT_VARIABLE arm_out RESULT_VARIABLE arm_status TIMEOUT 300)
if(NOT arm_status EQUAL 0)
  message(FATAL_ERROR "bare-metal digits program failed (${arm_status}):\n${arm_out}")
endif()

string(REGEX MATCHALL "[0-9]+ [0-9]\n" host_lines "${host_out}")
string(REGEX MATCHALL "[0-9]+ [0-9]\n" arm_lines "${arm_out}")
list(LENGTH host_lines host_count)
list(LENGTH arm_lines arm_count)
if(host_count EQUAL 0 OR NOT host_count EQUAL arm_count)
  message(FATAL_ERROR "prediction counts differ: host ${host_count}, bare metal ${arm_count}")
endif()
if(NOT host_lines STREQUAL arm_lines)
  foreach(line IN LISTS host_lines)
    list(FIND arm_lines "${line}" found)
    if(found EQUAL -1)
      message(SEND_ERROR "bare metal differs from host at: ${line}")
    endif()
  endforeach()
  message(FATAL_ERROR "bare-metal predictions differ from the host's")
endif()
string(REGEX MATCH "summary:[^\n]*" summary "${arm_out}")
message(STATUS "bare metal and host agree on all ${host_count} predictions; ${summary}")
