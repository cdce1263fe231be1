#pragma once
// The C entry point of a compiled model (docs/c_api.md). ctnn_add_model(<target> <file> NAME x C_API)
// compiles c_api::header_text<Net, "x">() into an object file section and extracts it as `ctnn_x.h`: a plain
// C99 header with the model's sizes, types and quantization as macros and the run functions' prototypes.
// The compiler writes the header, so its numbers are the compiled plan's, for the target being built (no host
// tool, also when cross-compiling). The same header, included by C++ with CTNN_<X>_C_API_IMPLEMENTATION
// defined, defines the functions over c_api::run_* below.
#include <ctnn/detail/require_cxx20.hpp>  // first: one clear error under an older -std
#include <array>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <ctnn/ir/dtype.hpp>
#include <ctnn/ir/name.hpp>

namespace ctnn::c_api {

// The status the C functions return.
enum status : int { ok = 0, null_argument = 1, misaligned_memory = 2 };

namespace detail {

// A growing text of bounded capacity, written during constant evaluation.
template <std::size_t Capacity>
struct text_writer {
  std::array<char, Capacity> chars{};
  std::size_t length = 0;
  bool overflow = false;

  constexpr text_writer& put(char c) {
    if (length < Capacity) chars[length++] = c;
    else overflow = true;
    return *this;
  }
  constexpr text_writer& operator<<(std::string_view s) {
    for (char c : s) put(c);
    return *this;
  }
  constexpr text_writer& operator<<(const char* s) { return *this << std::string_view{s}; }
  // Integers in decimal (char and bool are not integers here).
  template <std::integral T>
    requires(!std::is_same_v<T, char> && !std::is_same_v<T, bool>)
  constexpr text_writer& operator<<(T value) {
    std::uint64_t magnitude = static_cast<std::uint64_t>(value);
    if constexpr (std::is_signed_v<T>) {
      if (value < 0) {
        put('-');
        magnitude = std::uint64_t{0} - magnitude;
      }
    }
    char digits[20]{};
    int count = 0;
    do {
      digits[count++] = static_cast<char>('0' + magnitude % 10);
      magnitude /= 10;
    } while (magnitude != 0);
    while (count > 0) put(digits[--count]);
    return *this;
  }
  // The exact value as a C99 hexadecimal float literal (0x1.8p-7f): no rounding through decimal digits.
  constexpr text_writer& hex_float(float value) {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    if (bits & 0x80000000u) put('-');
    const auto exponent_bits = static_cast<std::int32_t>((bits >> 23) & 0xff);
    auto mantissa = (bits & 0x7fffffu) << 1;  // 24 bits: six hexadecimal digits
    if (exponent_bits == 0 && mantissa == 0) return *this << "0x0p+0f";
    const bool subnormal = exponent_bits == 0;
    *this << (subnormal ? "0x0." : "0x1.");
    constexpr char hex[] = "0123456789abcdef";
    for (int shift = 20; shift >= 0; shift -= 4) put(hex[(mantissa >> shift) & 0xf]);
    const std::int64_t exponent = subnormal ? -126 : exponent_bits - 127;
    put('p');
    if (exponent >= 0) put('+');
    return *this << exponent << "f";
  }
};

constexpr std::string_view c_type_of(dtype type) {
  switch (type) {
    case dtype::f32: return "float";
    case dtype::i8: return "int8_t";
    case dtype::u8: return "uint8_t";
    case dtype::i32: return "int32_t";
    case dtype::i64: return "int64_t";
    case dtype::i16: return "int16_t";
    case dtype::b8: return "bool";
  }
  return "void";
}

// CTNN_DTYPE_* values: the order of ctnn::dtype, so that C code can switch on a model's element types.
constexpr std::string_view dtype_macro_of(dtype type) {
  switch (type) {
    case dtype::f32: return "CTNN_DTYPE_FLOAT32";
    case dtype::i8: return "CTNN_DTYPE_INT8";
    case dtype::u8: return "CTNN_DTYPE_UINT8";
    case dtype::i32: return "CTNN_DTYPE_INT32";
    case dtype::i64: return "CTNN_DTYPE_INT64";
    case dtype::i16: return "CTNN_DTYPE_INT16";
    case dtype::b8: return "CTNN_DTYPE_BOOL";
  }
  return "";
}

template <std::size_t Capacity>
constexpr void put_upper(text_writer<Capacity>& out, std::string_view s) {
  for (char c : s) out.put(c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c);
}

// The parameter list of the run functions: the external inputs (const), then the external outputs, in the
// executor's order (inputs and outputs placed in the arena by ctnn::io_in_arena are not parameters).
template <class Net, std::size_t Capacity>
constexpr void put_parameters(text_writer<Capacity>& out, bool leading_comma) {
  bool first = !leading_comma;
  for (std::size_t k = 0; k < Net::external_inputs + Net::external_outputs; ++k) {
    const bool is_input = Net::external[k][0] == 0;
    const std::size_t index = Net::external[k][1];
    const auto& info = is_input ? Net::module.input_tensor(index) : Net::module.output_tensor(index);
    out << (first ? "" : ", ") << (is_input ? "const " : "") << c_type_of(info.type) << "* "
        << (is_input ? "input" : "output") << index;
    first = false;
  }
  if (first) out << "void";
}

template <std::size_t Capacity>
constexpr void put_arguments(text_writer<Capacity>& out, std::size_t external_count, const auto& external) {
  for (std::size_t k = 0; k < external_count; ++k)
    out << ", " << (external[k][0] == 0 ? "input" : "output") << external[k][1];
}

template <class Net, std::size_t Capacity>
constexpr void put_io_macros(text_writer<Capacity>& out, std::string_view prefix, bool is_input, std::size_t index) {
  const auto& module = Net::module;
  const auto& info = is_input ? module.input_tensor(index) : module.output_tensor(index);
  const std::int32_t id = is_input ? module.inputs[index] : module.outputs[index];
  const auto& allocation = module.allocations[static_cast<std::size_t>(id)];
  const char* role = is_input ? "INPUT" : "OUTPUT";
  const auto define = [&](std::string_view what) -> text_writer<Capacity>& {
    return out << "#define " << prefix << role << index << "_" << what << " ";
  };
  out << "/* " << (is_input ? "input " : "output ") << index << " \"" << info.label.view() << "\": "
      << c_type_of(info.type) << " [";
  for (std::int32_t d = 0; d < info.dims.rank; ++d)
    out << (d > 0 ? ", " : "") << info.dims[static_cast<std::size_t>(d)];
  out << "] */\n";
  define("TYPE") << c_type_of(info.type) << "\n";
  define("DTYPE") << dtype_macro_of(info.type) << "\n";
  define("ELEMENTS") << static_cast<std::int64_t>(info.dims.elements()) << "\n";
  define("BYTES") << info.bytes() << "\n";
  define("RANK") << info.dims.rank << "\n";
  define("DIMS") << "{";
  for (std::int32_t d = 0; d < info.dims.rank; ++d)
    out << (d > 0 ? ", " : "") << info.dims[static_cast<std::size_t>(d)];
  out << "}\n";
  // Per-tensor quantization of the interface (0.0f and 0 when the tensor is not quantized).
  define("SCALE").hex_float(info.quant.quantized() ? info.quant.scale : 0.0f) << "\n";
  define("ZERO_POINT") << (info.quant.quantized() ? info.quant.zero_point : 0) << "\n";
  const bool in_pool = allocation.offset >= 0;
  define("IN_POOL") << (in_pool ? 1 : 0) << "\n";
  define("POOL") << (in_pool ? allocation.pool : -1) << "\n";
  define("POOL_OFFSET") << (in_pool ? allocation.offset : 0) << "\n";
}

template <class Net, fixed_string Name, std::size_t Capacity>
constexpr text_writer<Capacity> write_header() {
  text_writer<Capacity> out;
  const std::string_view name = Name.view();
  text_writer<64> prefix_text;
  prefix_text << "CTNN_";
  put_upper(prefix_text, name);
  prefix_text << "_";
  const std::string_view prefix{prefix_text.chars.data(), prefix_text.length};
  const std::string_view guard{prefix_text.chars.data(), prefix_text.length - 1};

  out << "/* ctnn_" << name << ".h: the C interface of the model \"" << name
      << "\", written by the compiler that compiled it (ctnn_add_model ... C_API). Do not edit.\n"
      << "   Sizes, types and quantization are those of the compiled plan; see docs/c_api.md. */\n"
      << "#ifndef " << guard << "_H\n#define " << guard << "_H\n\n"
      << "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n"
      << "#ifndef CTNN_C_API_COMMON\n#define CTNN_C_API_COMMON\n"
      << "/* Return values of the run functions. */\n"
      << "#define CTNN_OK 0\n#define CTNN_ERROR_NULL_ARGUMENT 1\n#define CTNN_ERROR_MISALIGNED_MEMORY 2\n"
      << "/* Element types. */\n"
      << "#define CTNN_DTYPE_FLOAT32 0\n#define CTNN_DTYPE_INT8 1\n#define CTNN_DTYPE_UINT8 2\n"
      << "#define CTNN_DTYPE_INT32 3\n#define CTNN_DTYPE_INT64 4\n#define CTNN_DTYPE_INT16 5\n"
      << "#define CTNN_DTYPE_BOOL 6\n"
      << "#endif\n\n";

  out << "#define " << prefix << "INPUT_COUNT " << Net::input_count << "\n"
      << "#define " << prefix << "OUTPUT_COUNT " << Net::output_count << "\n"
      << "#define " << prefix << "POOL_COUNT " << Net::pool_count << "\n"
      << "/* Pool 0, the arena of ctnn_" << name << "_run_with_arena. */\n"
      << "#define " << prefix << "ARENA_BYTES " << Net::pool_bytes_at(0) << "\n"
      << "#define " << prefix << "ARENA_ALIGNMENT " << Net::pool_alignment_at(0) << "\n";
  for (std::size_t p = 0; p < Net::pool_count; ++p) {
    out << "/* pool " << p << " \"" << Net::pool_name_at(p) << "\" */\n"
        << "#define " << prefix << "POOL" << p << "_BYTES " << Net::pool_bytes_at(p) << "\n"
        << "#define " << prefix << "POOL" << p << "_ALIGNMENT " << Net::pool_alignment_at(p) << "\n";
  }
  out << "/* The state (variable tensors: an SVDF's or LSTM's memory), kept between runs outside the pools. */\n"
      << "#define " << prefix << "STATE_BYTES " << Net::state_bytes << "\n"
      << "#define " << prefix << "STATE_ALIGNMENT " << Net::state_alignment << "\n";
  out << "\n";
  for (std::size_t i = 0; i < Net::input_count; ++i) put_io_macros<Net>(out, prefix, true, i);
  for (std::size_t o = 0; o < Net::output_count; ++o) put_io_macros<Net>(out, prefix, false, o);

  out << "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
      << "/* Runs the model in its static pools (in .bss): not re-entrant. Returns CTNN_OK, or\n"
      << "   CTNN_ERROR_NULL_ARGUMENT when a pointer is null. */\n"
      << "int ctnn_" << name << "_run(";
  put_parameters<Net>(out, false);
  out << ");\n\n";
  if constexpr (Net::pool_count == 1) {
    out << "/* As ctnn_" << name << "_run, in the caller's arena of " << prefix << "ARENA_BYTES bytes aligned to "
        << prefix << "ARENA_ALIGNMENT:\n   re-entrant, one arena per caller. CTNN_ERROR_MISALIGNED_MEMORY when "
        << "it is not aligned. */\n"
        << "int ctnn_" << name << "_run_with_arena(void* arena";
    put_parameters<Net>(out, true);
    out << ");\n\n";
  }
  out << "/* As ctnn_" << name << "_run, in the caller's pools: pools[p] holds " << prefix << "POOL<p>_BYTES bytes "
      << "aligned to\n   " << prefix << "POOL<p>_ALIGNMENT. Re-entrant, one set of pools per caller. */\n"
      << "int ctnn_" << name << "_run_with_pools(void* const pools[" << prefix << "POOL_COUNT]";
  put_parameters<Net>(out, true);
  out << ");\n\n";
  out << "/* As ctnn_" << name << "_run_with_pools, with the caller's state of " << prefix << "STATE_BYTES bytes aligned to\n   "
      << prefix << "STATE_ALIGNMENT (set by ctnn_" << name << "_reset_state first): one state per stream. */\n"
      << "int ctnn_" << name << "_run_with_state(void* state, void* const pools[" << prefix << "POOL_COUNT]";
  put_parameters<Net>(out, true);
  out << ");\n\n";
  out << "/* The static pool P that ctnn_" << name << "_run uses (inputs and outputs placed in a pool live there). */\n"
      << "void* ctnn_" << name << "_static_pool(size_t pool);\n\n"
      << "/* The static state (that ctnn_" << name << "_run, _run_with_arena and _run_with_pools update) to its initial\n"
      << "   values. */\n"
      << "void ctnn_" << name << "_reset(void);\n\n"
      << "/* A caller's state (" << prefix << "STATE_BYTES bytes) to the initial values. CTNN_ERROR_NULL_ARGUMENT when\n"
      << "   it is null and the model has state. */\n"
      << "int ctnn_" << name << "_reset_state(void* state);\n\n"
      << "#ifdef __cplusplus\n}\n#endif\n\n";

  // The definitions, for the one C++ translation unit that defines the API (ctnn_add_model generates it).
  const std::size_t external_count = Net::external_inputs + Net::external_outputs;
  out << "#if defined(__cplusplus) && defined(" << guard << "_C_API_IMPLEMENTATION)\n"
      << "extern \"C\" int ctnn_" << name << "_run(";
  put_parameters<Net>(out, false);
  out << ") {\n  return ::ctnn::c_api::run<" << guard << "_C_API_IMPLEMENTATION>(nullptr";
  put_arguments(out, external_count, Net::external);
  out << ");\n}\n";
  if constexpr (Net::pool_count == 1) {
    out << "extern \"C\" int ctnn_" << name << "_run_with_arena(void* arena";
    put_parameters<Net>(out, true);
    out << ") {\n  void* const pools[1] = {arena};\n  if (arena == nullptr) return ::ctnn::c_api::null_argument;\n"
        << "  return ::ctnn::c_api::run<" << guard << "_C_API_IMPLEMENTATION>(pools";
    put_arguments(out, external_count, Net::external);
    out << ");\n}\n";
  }
  out << "extern \"C\" int ctnn_" << name << "_run_with_pools(void* const pools[" << prefix << "POOL_COUNT]";
  put_parameters<Net>(out, true);
  out << ") {\n  if (pools == nullptr) return ::ctnn::c_api::null_argument;\n"
      << "  return ::ctnn::c_api::run<" << guard << "_C_API_IMPLEMENTATION>(pools";
  put_arguments(out, external_count, Net::external);
  out << ");\n}\n"
      << "extern \"C\" int ctnn_" << name << "_run_with_state(void* state, void* const pools[" << prefix << "POOL_COUNT]";
  put_parameters<Net>(out, true);
  out << ") {\n  if (pools == nullptr) return ::ctnn::c_api::null_argument;\n"
      << "  return ::ctnn::c_api::run_with_state<" << guard << "_C_API_IMPLEMENTATION>(state, pools";
  put_arguments(out, external_count, Net::external);
  out << ");\n}\n"
      << "extern \"C\" void* ctnn_" << name << "_static_pool(size_t pool) {\n"
      << "  return ::ctnn::c_api::static_pool<" << guard << "_C_API_IMPLEMENTATION>(pool);\n}\n"
      << "extern \"C\" void ctnn_" << name << "_reset(void) {\n"
      << "  " << guard << "_C_API_IMPLEMENTATION::reset_state();\n}\n"
      << "extern \"C\" int ctnn_" << name << "_reset_state(void* state) {\n"
      << "  return ::ctnn::c_api::reset_state<" << guard << "_C_API_IMPLEMENTATION>(state);\n}\n"
      << "#endif\n\n#endif /* " << guard << "_H */\n";
  return out;
}

}  // namespace detail

// The text of ctnn_<Name>.h for the compiled model Net (a ctnn::compile<...> type), exactly sized.
template <class Net, fixed_string Name>
constexpr auto header_text() {
  constexpr auto written = detail::write_header<Net, Name, 32768>();
  static_assert(!written.overflow, "ctnn::c_api: the C header of this model exceeds 32 KiB (more inputs and outputs "
                                   "than the C API writer holds).");
  std::array<char, written.length> text{};
  for (std::size_t i = 0; i < written.length; ++i) text[i] = written.chars[i];
  return text;
}

namespace detail {
// The caller's pools as the executor takes them, checked: a status other than ok when one is null or misaligned.
template <class Net>
int checked_pools(void* const* pools, typename Net::pool_pointers& pointers) {
  for (std::size_t p = 0; p < Net::pool_count; ++p) {
    if (pools[p] == nullptr) return null_argument;
    if (reinterpret_cast<std::uintptr_t>(pools[p]) % Net::pool_alignment_at(p) != 0) return misaligned_memory;
    pointers[p] = static_cast<std::byte*>(pools[p]);
  }
  return ok;
}
// The caller's state, checked (a model without state takes any pointer).
template <class Net>
int checked_state(void* state) {
  if (Net::state_bytes == 0) return ok;
  if (state == nullptr) return null_argument;
  return reinterpret_cast<std::uintptr_t>(state) % Net::state_alignment != 0 ? misaligned_memory : ok;
}
}  // namespace detail

// Runs Net on `pools` (nullptr: its static pools) after checking the pointers; what the C functions call.
template <class Net, class... Buffers>
int run(void* const* pools, Buffers*... buffers) {
  if (((buffers == nullptr) || ...)) return null_argument;
  if (pools == nullptr) {
    Net::run(buffers...);
    return ok;
  }
  typename Net::pool_pointers pointers{};
  if (const int status = detail::checked_pools<Net>(pools, pointers); status != ok) return status;
  Net::run_with_pools(pointers, buffers...);
  return ok;
}

// Runs Net on the caller's state and pools after checking the pointers.
template <class Net, class... Buffers>
int run_with_state(void* state, void* const* pools, Buffers*... buffers) {
  if (((buffers == nullptr) || ...)) return null_argument;
  typename Net::pool_pointers pointers{};
  if (const int status = detail::checked_state<Net>(state); status != ok) return status;
  if (const int status = detail::checked_pools<Net>(pools, pointers); status != ok) return status;
  Net::run_with_state(static_cast<std::byte*>(state), pointers, buffers...);
  return ok;
}

// A caller's state to its initial values, after checking the pointer.
template <class Net>
int reset_state(void* state) {
  if (const int status = detail::checked_state<Net>(state); status != ok) return status;
  Net::reset_state(static_cast<std::byte*>(state));
  return ok;
}

template <class Net>
void* static_pool(std::size_t pool) {
  if (pool >= Net::pool_count) return nullptr;
  return Net::static_pools()[pool];
}

}  // namespace ctnn::c_api
