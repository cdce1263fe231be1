#pragma once
// Readable text of a module at any stage of the pipeline, like TVM's printed Relay/TIR, from the same
// constexpr value table the passes produce (docs/design.md §2: the same code runs at run time).
//
//   print_module(m, sink)       everything the stage has: header (name, facts, counts, diagnostic), the
//                               tensors that matter (inputs, outputs, constants and where their values
//                               come from, views), the graph ops; once lowered the kernel calls and the
//                               distinct kernels; once planned the memory plan; once main is lowered
//                               each call's operand locations; then function and executor metadata.
//   print_summary(m, sink)      one line per op (index, kind, name, fused activation, shapes).
//   print_memory_plan(m, sink)  arena size, liveness lower bound, one line per pool (several pools), one
//                               row per placed tensor (its pool's name after it with several) and per
//                               call's scratch ("scratch of call C").
//
// The sink is any callable taking std::string_view (a lambda appending to a string, fwrite to stdout,
// a UART writer). No iostream, no heap, no floating-point formatting from the C library: the header
// compiles for bare-metal targets (arm-none-eabi) and costs little flash there. The work is done by
// inline functions on a capacity-free view of the module (detail::module_view, printer_view.hpp) through a
// type-erased sink, so a translation unit compiles the printers once, however many models it prints. The
// pieces: ir/printer_text.hpp, ir/printer_params.hpp, ir/printer_plan.hpp (no op kind in them), and here
// op_fields.hpp (an op's attributes, a call's parameters: the op descriptors print their own),
// requantization_text.hpp, sections.hpp.
//
// print_module's layout (columns count from 0; a field that reaches past its column is separated from
// the one before by one space; numbers are right-aligned in their width):
//   module "<name>" / facts: <names in bit order, or none> / counts: ... / status: ok | error: <code> ...
//   inputs (n), outputs (n): "  input K" (or "  output K"), %id at 12, name at 17, type ("f32[1,8,8,1]",
//                        "?" before infer_types) at 36, bytes (6 wide) + " B" at 56
//   constants (n), views (n): %id at 2, name at 7, type at 26, then at 46 the bytes (6 wide) + " B" +
//                        "  " + origin (constants), or "alias_of %id (name)" (views)
//   ops (n):             index (4 wide), two spaces, kind, "label", +activation, attributes; next line,
//                        8 spaces: "(operand: type, ...) -> result: type" (an absent operand: none)
//   calls (n):           "  call " + index (2 wide) + "  op N (label)", at 36 "kernel K" [(shared by n calls)];
//                        once kernels are selected, "  runs <impl>[ <isa>]" and the layout of each constant
//                        operand, "  constants: 1 packed, 2 stored"; a quantized call's requantization on
//                        the next line (print/requantization_text.hpp)
//   kernels (k distinct for n calls): "  kernel " + id (2 wide) + two spaces + the kernel's parameters
//                        [+ "  runs <impl>[ <isa>]"]
//   memory plan:         as print_memory_plan, indented by two spaces
//   main (n calls):      "  call " + index (2 wide) + "  kernel " + id (2 wide) + "  label(locations) -> location"
//                        (locations: arena+offset, input K, output K, constant <name>)
//   function metadata:   kernel (8 wide), op kind at 10, calls (5 wide) at 28, workspace, io, constants (11 wide)
//   executor metadata:   model line; "  input K"/"  output K"/"  pool K", name at 12, type at 34 and bytes
//                        (6 wide) at 54 (pools: bytes 8 wide at 34, alignment, read-only or read-write)
#include <string_view>

#include <ctnn/ir/printer_plan.hpp>
#include <ctnn/ir/printer_text.hpp>
#include <ctnn/ir/printer_view.hpp>
#include <ctnn/print/sections.hpp>

namespace ctnn {

// Everything the module holds at its stage, section by section (see the top of this header).
template <class Module, class Sink>
void print_module(const Module& m, Sink&& out) {
  auto call = [&out](std::string_view text) { out(text); };  // also a plain function or a function pointer
  detail::text_writer w{detail::sink_ref{call}};
  detail::write_module(w, detail::view_of(m));
}

// One line per op: index (4 columns), kind (18), name (14), "+activation" (9), first input's shape ->
// output shape ("?" before infer_types); then the number of parameters (elements of the constants the
// ops read).
template <class Module, class Sink>
void print_summary(const Module& m, Sink&& out) {
  auto call = [&out](std::string_view text) { out(text); };  // also a plain function or a function pointer
  detail::text_writer w{detail::sink_ref{call}};
  detail::write_summary(w, detail::view_of(m));
}

// The arena: size, alignment, liveness lower bound and the op at the peak, then one row per arena
// tensor: offset (8 columns), bytes (10), first and last op that use it (7 each), name.
template <class Module, class Sink>
void print_memory_plan(const Module& m, Sink&& out) {
  auto call = [&out](std::string_view text) { out(text); };  // also a plain function or a function pointer
  detail::text_writer w{detail::sink_ref{call}};
  detail::write_memory_plan(w, detail::view_of(m), 0);
}

}  // namespace ctnn
