#pragma once
// Structure-aware mutators for the fuzz targets (docs/fuzzing.md, "Structure-aware mutators").
//
// libFuzzer's own mutations flip, insert and erase bytes; in a FlatBuffers or protobuf file nearly all of
// them break an offset or a length, so the importer rejects the file at the first table or record and the
// code behind it (shapes, quantization parameters, operands, options) sees few of them. These mutators
// parse the file leniently, collect the *locations* of its fields and edit them:
//
//   * TFLite (FlatBuffers, tflite_mutator.cpp): scalars and vector elements of the schema's tables
//     (shapes, types, buffer/tensor/opcode indices, quantization scale/zero_point/quantized_dimension,
//     operator codes, builtin options walked as a table of scalars, buffer data) set in place to values
//     chosen for their role; index entries swapped; vectors truncated; table vector entries (tensors,
//     operators, ...) swapped; a value copied from another field of the same role; a field the writer
//     omitted (a default value) added through a new vtable appended to the file.
//   * ONNX (protobuf, onnx_mutator.cpp): the message tree walked by wire type (a length-delimited field
//     is a sub-message when the schema says so, or, for fields it does not know, when its bytes parse
//     completely as records); varints re-encoded (in place, or spliced with a new length and the length
//     of every enclosing message fixed up), fixed32/fixed64 values, raw_data bytes, strings (value names
//     swapped for another name of the file, emptied or left dangling; op types; attribute names),
//     records deleted, duplicated, swapped with a sibling, or copied into another message of the same
//     type.
//
// Everything is deterministic given libFuzzer's seed. A call falls back to the byte mutator
// (LLVMFuzzerMutate) for 1 in 5 calls and whenever the input does not parse. The result never exceeds
// max_size.
//
// In the libFuzzer build (CTNN_FUZZ_LIBFUZZER defined by tests/fuzz/CMakeLists.txt) a target writes
//   CTNN_FUZZ_STRUCTURED_MUTATOR(tflite);      // or onnx, or both (the format is chosen by content)
// at namespace scope to define LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver; the mutators live in
// the static library ctnn_fuzz_mutator, compiled without coverage instrumentation (their branches are not
// the target's coverage). Elsewhere (the _replay executables) the macro expands to nothing.
// CTNN_FUZZ_MUTATOR=plain in the environment makes both hooks defer to libFuzzer's own mutations (the
// comparison of docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ctnn_fuzz::structured {

enum class format : unsigned { tflite = 1, onnx = 2, both = 3 };

// What a call did (the tests check it; the names appear in their messages).
enum class edit : std::uint8_t {
  none,
  fallback,       // the byte mutator ran
  fb_scalar,      // a scalar field or vector element set to a value chosen for its role
  fb_copy,        // a field's value copied from another field of the same role
  fb_swap,        // two index entries, or two entries of a vector of tables, swapped
  fb_truncate,    // a vector's length lowered
  fb_data,        // bytes inside a Buffer's data set to an interesting value
  fb_add_field,   // an absent scalar field added (a new vtable appended to the file)
  fb_crossover,   // values copied from another file's fields of the same role
  pb_varint,      // a varint re-encoded in place (same length, or padded)
  pb_varint_resized,  // a varint re-encoded with another length, the enclosing lengths fixed up
  pb_fixed,       // a fixed32/fixed64 value (float, double)
  pb_bytes,       // bytes of a bytes field (raw_data, ...) set in place
  pb_bytes_resized,   // a bytes/string/packed payload shortened or lengthened
  pb_string,      // a string replaced (value names, op types, attribute names, attribute strings)
  pb_delete,      // a record deleted
  pb_duplicate,   // a record duplicated
  pb_move,        // two sibling records swapped
  pb_transplant,  // a record copied into another message of the same type
  pb_crossover,   // a record of another file inserted into a message of the same type
};
const char* name_of(edit e);

struct report {
  edit last = edit::none;  // the last edit applied
  unsigned edits = 0;      // structured edits applied
  bool resized = false;    // an edit changed the size (protobuf: with the enclosing lengths fixed up)
  bool fell_back = false;  // the byte mutator ran (the input did not parse, or the 1-in-N draw)
};

// libFuzzer's LLVMFuzzerMutate, or a stand-in (the tests).
using byte_mutator = std::size_t (*)(std::uint8_t* data, std::size_t size, std::size_t max_size);

// Mutates data[0, size) in place (capacity max_size) and returns the new size. `formats` are the formats
// the structured mutators handle (a .tflite file is one with "TFL3" at byte 4, anything else is ONNX);
// fallback_one_in: 1 call in N goes straight to `fallback` (0: never).
std::size_t mutate(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed, byte_mutator fallback,
                   format formats, unsigned fallback_one_in = 5, report* what = nullptr);

// LLVMFuzzerCustomCrossOver: a file of the same format as data1 with parts of data2 (FlatBuffers: field
// values copied between fields of the same role; protobuf: a record of data2 inserted into a message of
// the same type in data1). Returns 0 (libFuzzer then picks another mutation) for 3 calls in 4, when the
// formats differ or a file does not parse.
std::size_t cross_over(const std::uint8_t* data1, std::size_t size1, const std::uint8_t* data2, std::size_t size2,
                       std::uint8_t* out, std::size_t max_out, unsigned seed, format formats, report* what = nullptr);

// Whether CTNN_FUZZ_MUTATOR=plain is set (read once).
bool plain_requested();

// --- What the tests look at ---------------------------------------------------------------------------
// A field's bytes: a scalar, a vector element, a varint/fixed payload, a length-delimited payload.
struct location {
  std::uint32_t at = 0;
  std::uint32_t width = 0;
};
// The field locations the mutators edit; false when the file does not parse at the top level (FlatBuffers:
// a root table with a valid vtable; protobuf: every top-level record).
bool tflite_locations(const std::uint8_t* data, std::size_t size, std::vector<location>& out);
bool onnx_locations(const std::uint8_t* data, std::size_t size, std::vector<location>& out);

}  // namespace ctnn_fuzz::structured

#if defined(CTNN_FUZZ_LIBFUZZER) && !defined(CTNN_FUZZ_NO_CUSTOM_MUTATOR)
extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);
#define CTNN_FUZZ_STRUCTURED_MUTATOR(formats_)                                                                  \
  extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,      \
                                                 unsigned int seed) {                                             \
    return ctnn_fuzz::structured::mutate(data, size, max_size, seed, &LLVMFuzzerMutate,                           \
                                         ctnn_fuzz::structured::format::formats_);                                \
  }                                                                                                               \
  extern "C" std::size_t LLVMFuzzerCustomCrossOver(const std::uint8_t* data1, std::size_t size1,                 \
                                                   const std::uint8_t* data2, std::size_t size2, std::uint8_t* out, \
                                                   std::size_t max_out, unsigned int seed) {                      \
    return ctnn_fuzz::structured::cross_over(data1, size1, data2, size2, out, max_out, seed,                      \
                                             ctnn_fuzz::structured::format::formats_);                            \
  }                                                                                                               \
  static_assert(true)
#else
#define CTNN_FUZZ_STRUCTURED_MUTATOR(formats_) static_assert(true)
#endif
