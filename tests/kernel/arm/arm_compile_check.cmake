# Compiles arm_compile_check.cpp for a bare-metal Cortex-M4 and checks the object's undefined symbols:
# no heap (malloc, operator new) and no exception machinery (__cxa_*, _Unwind_*).
#   cmake -DCXX=arm-none-eabi-g++ -DNM=arm-none-eabi-nm -DSOURCE=... -DINCLUDE=... -DTESTS=... -DOBJECT=... -P arm_compile_check.cmake
execute_process(
  COMMAND ${CXX} -std=c++20 -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 --specs=nano.specs -O2
          -fno-exceptions -fno-rtti -Wall -Wextra -Wpedantic -Werror -Wno-psabi -I${INCLUDE} -I${TESTS}
          -idirafter /usr/include -c ${SOURCE} -o ${OBJECT}
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the int8 kernels do not compile for arm-none-eabi")
endif()
execute_process(COMMAND ${NM} -u ${OBJECT} OUTPUT_VARIABLE undefined RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${OBJECT}")
endif()
string(REGEX MATCHALL "[^\n]*(malloc|_Znw|_Zna|__cxa_|_Unwind_)[^\n]*" forbidden "${undefined}")
if(forbidden)
  message(FATAL_ERROR "the int8 kernels need heap or exception support on arm-none-eabi: ${forbidden}")
endif()
message(STATUS "arm-none-eabi: int8 kernels compiled; undefined symbols: ${undefined}")
