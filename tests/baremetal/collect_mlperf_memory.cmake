# cmake -P script run by the host test baremetal_mlperf_memory: runs the bare-metal mlperf_memory_<model>
# programs under qemu and writes their output (one JSON line of plan figures per option set) to OUTPUT,
# which `ctnn-memory-plan-benchmark --cortex-m4 OUTPUT` reads. A program that is absent (its model or
# reference cases were not found) is reported and skipped; one that fails fails the test.
#
#   cmake -DQEMU=<qemu-system-arm> -DBINARY_DIR=<bare-metal build> -DOUTPUT=<file> -P collect_mlperf_memory.cmake
foreach(var IN ITEMS QEMU BINARY_DIR OUTPUT)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "collect_mlperf_memory.cmake: -D${var}=... is required")
  endif()
endforeach()

set(collected "")
set(failed "")
foreach(model IN ITEMS kws vww ic ad)
  set(elf "${BINARY_DIR}/mlperf_memory_${model}.elf")
  if(NOT EXISTS "${elf}")
    message(STATUS "SKIP mlperf_memory_${model}: ${elf} was not built (model or reference cases absent)")
    continue()
  endif()
  execute_process(
    COMMAND "${QEMU}" -M mps2-an386 -nographic -monitor none -semihosting-config enable=on,target=native -kernel "${elf}"
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE result TIMEOUT 300)
  message(STATUS "mlperf_memory_${model} (exit status ${result}):\n${out}${err}")
  string(APPEND collected "${out}")
  if(NOT result EQUAL 0)
    list(APPEND failed mlperf_memory_${model})
  endif()
endforeach()
file(WRITE "${OUTPUT}" "${collected}")
if(failed)
  message(FATAL_ERROR "failed: ${failed}")
endif()
