# cmake -P script behind the frontend_embed test: ctnnAddModel.cmake's generator in script mode.
#   -DCTNN_ADD_MODEL=<cmake/ctnnAddModel.cmake> -DWORK_DIR=<scratch> -DBIG_MODEL=<~1 MB .tflite, may be
#   absent> -DSMALL_MODEL=<a small .tflite>
# Checks: a 1 MB model is embedded whole (a generated 1 MB TFLite-looking file when BIG_MODEL is absent):
# the header has the aligned array, the size, the model type and exactly one `\xNN` escape per byte (its
# size is linear in the file's: 4 characters a byte plus one line break and quotes per 64-byte line); a re-run with the same file
# leaves the header untouched; an .onnx file gets the ONNX model type; a file that is neither is refused; sizes that are not a multiple of 4 are embedded whole.
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(embed file name out_result)
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DCTNN_MODEL_FILE=${file}" "-DCTNN_MODEL_HEADER=${WORK_DIR}/${name}.hpp"
                          "-DCTNN_MODEL_NAME=${name}" "-DCTNN_MODEL_NAMESPACE=test::models" -P "${CTNN_ADD_MODEL}"
                  RESULT_VARIABLE result ERROR_VARIABLE error)
  set(${out_result} "${result}" PARENT_SCOPE)
  set(embed_error "${error}" PARENT_SCOPE)
endfunction()

# 1. A ~1 MB file. The time is printed for information only: tests assert results, not wall times
#    (benchmarks/compile_time measures embedding with the rest of a model's build).
if(NOT EXISTS "${BIG_MODEL}")
  # 1 MiB: bytes 4..7 "TFL3", the rest a repeating pattern.
  string(REPEAT "0123456789abcdef" 65536 body)
  file(WRITE "${WORK_DIR}/big.tflite" "abcdTFL3${body}")
  set(BIG_MODEL "${WORK_DIR}/big.tflite")
endif()
file(SIZE "${BIG_MODEL}" big_size)
string(TIMESTAMP start "%s%f")
embed("${BIG_MODEL}" big result)
string(TIMESTAMP stop "%s%f")
math(EXPR elapsed_ms "(${stop} - ${start}) / 1000")
if(NOT result EQUAL 0)
  message(FATAL_ERROR "embedding ${BIG_MODEL} failed: ${embed_error}")
endif()
message(STATUS "embedded ${BIG_MODEL} (${big_size} bytes) in ${elapsed_ms} ms (information, not checked)")
file(READ "${WORK_DIR}/big.hpp" header)
string(REGEX MATCHALL "\\\\x[0-9a-f][0-9a-f]" escapes "${header}")
list(LENGTH escapes escape_count)
if(NOT escape_count EQUAL big_size)
  message(FATAL_ERROR "the header of a ${big_size}-byte file has ${escape_count} byte escapes")
endif()
string(LENGTH "${header}" header_chars)
math(EXPR header_limit "${big_size} * 4 + (${big_size} / 64 + 1) * 8 + 4096")
if(header_chars GREATER header_limit)
  message(FATAL_ERROR "the header of a ${big_size}-byte file has ${header_chars} characters (> ${header_limit})")
endif()

# 2. The header's parts.
file(READ "${WORK_DIR}/big.hpp" header)
foreach(part "#pragma GCC diagnostic ignored \"-Woverlength-strings\""
             "alignas(16) inline constexpr char big_bytes[${big_size} + 1] ="
             "inline constexpr std::size_t big_size = ${big_size};"
             "using big = ::ctnn::tflite::model<ctnn_model_data::big_bytes, ctnn_model_data::big_size, ctnn_model_data::big_name>;")
  string(FIND "${header}" "${part}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the generated header lacks: ${part}")
  endif()
endforeach()

# 3. A re-run with the same file leaves the header (and its time stamp) alone.
embed("${SMALL_MODEL}" small result)
file(TIMESTAMP "${WORK_DIR}/small.hpp" first "%s.%f")
execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 0.05)
embed("${SMALL_MODEL}" small result)
file(TIMESTAMP "${WORK_DIR}/small.hpp" second "%s.%f")
if(NOT first STREQUAL second)
  message(FATAL_ERROR "re-embedding the same file rewrote the header")
endif()

# 4. A size that is not a multiple of 4 (the last bytes are escaped apart from the rest).
file(WRITE "${WORK_DIR}/odd.tflite" "abcdTFL3xyz")
embed("${WORK_DIR}/odd.tflite" odd result)
file(READ "${WORK_DIR}/odd.hpp" header)
string(FIND "${header}" "odd_bytes[11 + 1] =\n    \"\\x61\\x62\\x63\\x64\\x54\\x46\\x4c\\x33\\x78\\x79\\x7a\";" at)
if(NOT result EQUAL 0 OR at EQUAL -1)
  message(FATAL_ERROR "an 11-byte file was not embedded as its 11 bytes:\n${header}")
endif()

# 5. ONNX: the header includes the ONNX frontend and names ctnn::onnx::model; 6. other files are refused.
file(WRITE "${WORK_DIR}/tiny.onnx" "onnx-bytes-for-the-test")
embed("${WORK_DIR}/tiny.onnx" tiny_onnx result)
file(READ "${WORK_DIR}/tiny_onnx.hpp" header)
string(FIND "${header}" "#include <ctnn/frontend/onnx.hpp>" include_at)
string(FIND "${header}" "::ctnn::onnx::model<" type_at)
if(NOT result EQUAL 0 OR include_at EQUAL -1 OR type_at EQUAL -1)
  message(FATAL_ERROR "the .onnx header does not name ctnn::onnx::model:\n${header}")
endif()
file(WRITE "${WORK_DIR}/notes.txt" "these are not model bytes")
embed("${WORK_DIR}/notes.txt" notes result)
if(result EQUAL 0 OR NOT embed_error MATCHES "neither[ \n]+a[ \n]+TFLite[ \n]+file")
  message(FATAL_ERROR "a text file was embedded: ${embed_error}")
endif()
message(STATUS "embedding checks passed")
