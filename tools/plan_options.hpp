#pragma once
// The memory-plan options of ctnn-memory-report and ctnn-metadata, as on the command line, turned into
// the ctnn::memory::plan_config that ctnn::compile's option types make (memory/options.hpp):
//
//   --pool name:bytes   a writable pool with that limit (ctnn::pool<"name", bytes>); repeat for several,
//                       in fallback order; none: the default pool "arena" without a limit
//   --pin tensor:pool   the tensor's buffer only in that pool (ctnn::pin<"tensor", "pool">); the name
//                       is split at its last ':' (TFLite tensor names may contain ':')
//   --in-place          in-place convolutions (ctnn::in_place_windows)
//   --reuse             in-place element-wise ops, concat and slices in place, memory-aware order (ctnn::memory_reuse)
//   --io-in-arena       the model's inputs and outputs in the pools (ctnn::io_in_arena)
//
// describe_plan_error words a planning diagnostic with the pool and pin names given here.
#include <array>
#include <charconv>
#include <span>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <ctnn/ir/diagnostic.hpp>
#include <ctnn/ir/diagnostic_text.hpp>
#include <ctnn/ir/enum_names.hpp>
#include <ctnn/print/printer.hpp>
#include <ctnn/memory/options.hpp>

#include "command_line.hpp"
#include "onnx_dims.hpp"

namespace ctnn_tools {

// For screen_options and the tools' --help.
// (with the ONNX dimension bindings, onnx_dims.hpp: the plan is of the model with them).
inline constexpr std::array<option_spec, 8> plan_option_specs{{{"--pool", true},
                                                                {"--pin", true},
                                                                {"--in-place", false},
                                                                {"--reuse", false},
                                                                {"--io-in-arena", false},
                                                                {"--patches", false},
                                                                onnx_dim_option_specs[0],
                                                                onnx_dim_option_specs[1]}};
inline constexpr std::string_view plan_options_synopsis =
    "[--pool name:bytes]... [--pin tensor:pool]... [--in-place] [--reuse] [--io-in-arena] [--patches] "
    "[--dim NAME=N]... [--input-shape INPUT=D0,D1,...]...";
inline constexpr std::string_view plan_options_help =
    "memory plan options (those of ctnn::compile, docs/memory.md):\n"
    "  --pool name:bytes   a writable pool with that limit, in fallback order (repeatable); without one the\n"
    "                      plan has one pool \"arena\" without a limit\n"
    "  --pin tensor:pool   the tensor's buffer only in that pool (repeatable; split at the last ':')\n"
    "  --in-place          in-place convolutions (ctnn::in_place_windows)\n"
    "  --reuse             in-place element-wise ops, concat and slices in place, memory-aware order (ctnn::memory_reuse)\n"
    "  --io-in-arena       the model's inputs and outputs in the pools (ctnn::io_in_arena)\n"
    "  --patches           the first ops patch by patch where that lowers RAM within 10 % more MACs\n"
    "                      (ctnn::patch_execution<ctnn::max_extra_macs<10>>); the patch stage is printed\n";
// The help of plan options and dimension bindings together.
inline const std::string plan_and_dim_options_help = std::string{plan_options_help} + std::string{onnx_dim_options_help};

// The options read so far. It owns the pool names that config()'s pool_info entries point to, so it is
// neither copied nor moved.
class plan_options {
 public:
  plan_options() = default;
  plan_options(const plan_options&) = delete;
  plan_options& operator=(const plan_options&) = delete;

  // Reads argv[a] (and its value, argv[a + 1], which `a` then points at) if it is a plan option: true.
  // false with `problem` empty: not a plan option; with `problem` set: a plan option with a bad value.
  bool read(int argc, char** argv, int& a, std::string& problem) {
    if (read_onnx_dim_option(argc, argv, a, onnx_dims_, problem)) return true;
    const std::string_view arg = argv[a];
    if (arg == "--in-place") return windows_in_place_ = true;
    if (arg == "--reuse") return reuse_ = true;
    if (arg == "--io-in-arena") return io_in_arena_ = true;
    if (arg == "--patches") return patches_ = true;
    if (arg != "--pool" && arg != "--pin") return false;
    if (a + 1 >= argc) return problem = std::string{arg} + " needs a value", true;
    const std::string_view value = argv[++a];
    const std::size_t colon = value.rfind(':');
    const std::string_view first = value.substr(0, colon == std::string_view::npos ? value.size() : colon);
    const std::string_view second = colon == std::string_view::npos ? std::string_view{} : value.substr(colon + 1);
    if (arg == "--pool") {
      std::int64_t bytes = -1;
      const auto [end, error] = std::from_chars(second.data(), second.data() + second.size(), bytes);
      if (first.empty() || second.empty() || error != std::errc{} || end != second.data() + second.size() || bytes < 0)
        return problem = "--pool " + std::string{value} + ": expected name:bytes, e.g. sram:65536", true;
      if (pool_count_ == ctnn::memory::max_pools)
        return problem = "--pool: at most " + std::to_string(ctnn::memory::max_pools) + " pools", true;
      for (std::size_t p = 0; p < pool_count_; ++p)
        if (pool_names_[p] == first) return problem = "--pool " + std::string{first} + ": that pool is listed twice", true;
      pool_names_[pool_count_] = std::string{first};
      pool_limits_[pool_count_++] = bytes;
      return true;
    }
    if (first.empty() || second.empty()) return problem = "--pin " + std::string{value} + ": expected tensor:pool", true;
    if (pin_count_ == ctnn::memory::max_pins)
      return problem = "--pin: at most " + std::to_string(ctnn::memory::max_pins) + " pins", true;
    pins_[pin_count_++] = {std::string{first}, std::string{second}};
    return true;
  }

  // What ctnn::compile's options would make of these (the pool entries point to this object's names).
  bool patches() const { return patches_; }
  // The ONNX import's bindings of symbolic input dimensions (onnx_dims.hpp).
  std::string_view onnx_dims() const { return onnx_dims_; }
  void set_onnx_dims(std::string bindings) { onnx_dims_ = std::move(bindings); }

  ctnn::memory::plan_config config() const {
    ctnn::memory::plan_config c{};
    for (std::size_t p = 0; p < pool_count_; ++p)
      c.pools[p] = ctnn::memory::pool_info{pool_names_[p].c_str(), pool_limits_[p], 16, false};
    c.pool_count = static_cast<std::int32_t>(pool_count_);
    for (std::size_t k = 0; k < pin_count_; ++k)
      c.pins[k] = ctnn::memory::pin_rule{ctnn::memory::pin_target::tensor, ctnn::name{pins_[k].tensor}, -1,
                                         ctnn::memory::buffer_kind::intermediate, ctnn::name{pins_[k].pool}};
    c.pin_count = static_cast<std::int32_t>(pin_count_);
    if (reuse_) ctnn::memory_reuse::apply(c);
    if (io_in_arena_) ctnn::io_in_arena::apply(c);
    if (windows_in_place_) ctnn::in_place_windows::apply(c);
    return c;
  }

  // A planning diagnostic (ctnn::memory_error) in words, with the names given on the command line and
  // the op at the pool's peak; other diagnostics in the words of ctnn::describe_module_error.
  template <class Module>
  std::string describe(const Module& m, const ctnn::diagnostic& d) const {
    using ctnn::memory_error;
    const auto code = [&](memory_error e) { return d.code == ctnn::code_of(e); };
    const auto pin_text = [&](std::int64_t position) {
      const auto k = static_cast<std::size_t>(position);
      return k < pin_count_ ? "--pin " + pins_[k].tensor + ":" + pins_[k].pool : std::string{"a pin"};
    };
    const auto op_text = [&](std::int32_t op) {
      if (op < 0 || op >= m.node_count) return std::string{"the constants (a read-only pool)"};
      return "op " + std::to_string(op) + " (" + ctnn::name_of(m.node_at(op).kind) + " \"" +
             std::string{m.node_at(op).label.view()} + "\")";
    };
    if (code(memory_error::pin_unknown_pool))
      return pin_text(d.position) +
             ": there is no writable pool of that name (the pools are those of --pool, else \"arena\")";
    if (code(memory_error::pin_unknown_tensor))
      return pin_text(d.position) + ": no tensor of that name has a buffer to place (ctnn-inspect lists the tensors)";
    if (code(memory_error::pin_ambiguous_tensor_name))
      return pin_text(d.position) + ": tensors " + std::to_string(d.tensor) + " and " + std::to_string(d.other_tensor) +
             " share that name, each with a buffer of its own (ctnn-inspect lists the tensors)";
    if (code(memory_error::pool_budget_exceeded)) {
      const std::int32_t p = d.expected.rank > 0 ? static_cast<std::int32_t>(d.expected[0]) : -1;
      const char* pool = p >= 0 && p < m.pool_count && m.pools[static_cast<std::size_t>(p)].name != nullptr
                             ? m.pools[static_cast<std::size_t>(p)].name
                             : "?";
      return "the plan needs " + std::to_string(d.bytes_needed) + " bytes in pool \"" + pool + "\", its limit is " +
             std::to_string(d.bytes_available) + " bytes (peak at " + op_text(d.node) +
             "); raise the limit, add a fallback pool, or unpin buffers from it";
    }
    // Any other pass's diagnostic: its sentence, the op and the numbers (as ctnn-inspect prints it).
    std::string text;
    ctnn::describe_module_error(m, [&](std::string_view part) { text += part; });
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
  }

 private:
  struct pin_names {
    std::string tensor, pool;
  };
  std::array<std::string, ctnn::memory::max_pools> pool_names_{};
  std::array<std::int64_t, ctnn::memory::max_pools> pool_limits_{};
  std::size_t pool_count_ = 0;
  std::array<pin_names, ctnn::memory::max_pins> pins_{};
  std::size_t pin_count_ = 0;
  bool windows_in_place_ = false, reuse_ = false, io_in_arena_ = false, patches_ = false;
  std::string onnx_dims_;
};

// The arguments of a tool that reads one model file with the plan options and options of its own, each
// with a value (screen_options first: --help, unknown options): `model` and `options` filled, own(name,
// value) called for the tool's options. Returns -1 to go on, else the exit status to end with.
template <class Own>
int read_model_arguments(int argc, char** argv, std::string_view synopsis, std::string_view details,
                         std::span<const option_spec> own_options, plan_options& options, const char*& model, Own&& own) {
  const std::string help = std::string{details} + plan_and_dim_options_help;
  if (const int status = screen_options(argc, argv, synopsis, help, own_options, plan_option_specs); status >= 0) return status;
  model = nullptr;
  for (int a = 1; a < argc; ++a) {
    std::string problem;
    if (options.read(argc, argv, a, problem)) {
      if (!problem.empty()) return usage_error(argv[0], synopsis, problem);
    } else if (argv[a][0] == '-' && argv[a][1] != '\0') {
      own(std::string_view{argv[a]}, argv[a + 1]);  // screen_options saw that it is known and has its value
      ++a;
    } else if (model == nullptr) {
      model = argv[a];
    } else {
      return usage_error(argv[0], synopsis, "one model file, please");
    }
  }
  if (model == nullptr) return usage_error(argv[0], synopsis, "which model? give a .tflite or .onnx file");
  return -1;
}

}  // namespace ctnn_tools
