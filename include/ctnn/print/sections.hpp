#pragma once
// print_module's sections (print/printer.hpp documents their layout): header, tensors, ops, calls and
// kernels, main, function and executor metadata; and print_summary's table.
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/ir/diagnostic.hpp>
#include <ctnn/ir/dtype.hpp>
#include <ctnn/ir/enum_names.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ir/op_kind.hpp>
#include <ctnn/ir/shape.hpp>
#include <ctnn/ir/printer_params.hpp>
#include <ctnn/ir/printer_plan.hpp>
#include <ctnn/ir/printer_text.hpp>
#include <ctnn/print/op_fields.hpp>
#include <ctnn/print/requantization_text.hpp>

namespace ctnn::detail {

// print_module's sections.

// "1 op" / "3 ops", then `after`.
inline void put_count(text_writer& w, std::int64_t count, std::string_view noun, std::string_view after) {
  w.number(count);
  w.put(" ");
  w.put(noun);
  if (count != 1) w.put("s");
  w.put(after);
}

inline void write_header(text_writer& w, const module_view& m) {
  w.put("module \"");
  w.put(m.model_name.view());
  w.put("\"");
  w.line();
  w.put("  facts:  ");
  put_facts(w, m.facts);
  w.line();
  w.put("  counts: ");
  put_count(w, m.input_count, "input", ", ");
  put_count(w, m.output_count, "output", ", ");
  put_count(w, m.node_count, "op", ", ");
  put_count(w, m.tensor_count, "tensor", ", ");
  put_count(w, m.recipe_count, "recipe", ", ");
  put_count(w, m.call_count, "call", ", ");
  put_count(w, m.kernel_count, "kernel", "");
  w.line();
  w.put("  status: ");
  if (m.error.failed()) put_diagnostic(w, m, m.error);
  else w.put("ok");
  w.line();
}

// One row of the tensor tables: "%id  label   f32[shape]   bytes B" (a view has no bytes of its own).
inline void write_tensor_row(text_writer& w, const module_view& m, std::int32_t id, std::size_t at) {
  const tensor& t = m.tensor_at(id);
  w.pad_to(at);
  w.field("%", id);
  w.tab(at + 5);
  w.put(t.label.view());
  w.tab(at + 24);
  put_type(w, m, t);
  w.tab(at + 44);
  if (t.alias_of >= 0) {
    w.field("alias_of %", t.alias_of);
    if (m.valid_tensor(t.alias_of)) {
      w.put(" (");
      w.put(m.tensor_at(t.alias_of).label.view());
      w.put(")");
    }
  } else if (shape_known(m, t)) {
    w.number(t.bytes(), 6);
    w.put(" B");
  } else {
    w.put("     ? B");
  }
}

inline void write_tensors(text_writer& w, const module_view& m) {
  // "inputs (2)", then a row per input; the same for the outputs.
  const auto write_interface = [&](std::string_view title, std::string_view each, const std::int32_t* ids,
                                   std::int32_t count) {
    w.field(title, count);
    w.put(")");
    w.line();
    for (std::int32_t k = 0; k < count; ++k) {
      w.field(each, k);
      write_tensor_row(w, m, ids[k], 12);
      w.line();
    }
  };
  write_interface("inputs (", "  input ", m.inputs, m.input_count);
  write_interface("outputs (", "  output ", m.outputs, m.output_count);

  std::int32_t constants = 0, views = 0;
  for (std::int32_t t = 0; t < m.tensor_count; ++t) {
    constants += m.tensor_at(t).role == tensor_role::constant ? 1 : 0;
    views += m.tensor_at(t).alias_of >= 0 ? 1 : 0;
  }
  w.field("constants (", constants);
  w.put(")");
  w.line();
  for (std::int32_t id = 0; id < m.tensor_count; ++id) {
    const tensor& t = m.tensor_at(id);
    if (t.role != tensor_role::constant) continue;
    write_tensor_row(w, m, id, 2);
    w.put("  ");
    if (t.recipe >= 0 && t.recipe < m.recipe_count) {
      const constant_recipe& r = m.recipes[static_cast<std::size_t>(t.recipe)];
      if (r.kind == recipe_kind::evaluate_op) {
        w.put("folded ");
        w.put(name_of(r.params().kind));
      } else {
        w.put(r.kind == recipe_kind::batch_norm_weights ? "batch-norm-folded weights" : "batch-norm-folded bias");
      }
      // What it reads: the folded op's operands, or the batch norm's scale, offset, mean and variance.
      constexpr const char* batch_norm_roles[] = {"", "scale ", "offset ", "mean ", "variance "};
      const bool batch_norm = r.kind != recipe_kind::evaluate_op;
      const char* separator = batch_norm ? " (" : " of ";
      for (std::int32_t k = batch_norm ? 1 : 0; k < r.operand_count; ++k) {
        const std::int32_t operand = r.operands[static_cast<std::size_t>(k)];
        if (operand < 0) continue;
        w.put(separator);
        if (batch_norm && k < 5) w.put(batch_norm_roles[k]);
        w.put("%");
        w.number(operand);
        separator = ", ";
      }
      if (batch_norm) w.put(")");
      if (r.kind == recipe_kind::batch_norm_bias && r.own_data_is_offset) w.put(", from its offset");
      w.field(" (recipe ", t.recipe);
      w.put(")");
    } else if (t.data.f32 != nullptr || t.data.i8 != nullptr || t.data.i32 != nullptr) {
      w.put("user data");
    } else {
      if (t.data.bytes != nullptr) w.put("model file bytes");
      else w.put("no data");
    }
    if (!read_by_an_op(m, id)) w.put(", read by no op");
    w.line();
  }
  if (views > 0) {
    w.field("views (", views);
    w.put(")");
    w.line();
    for (std::int32_t id = 0; id < m.tensor_count; ++id) {
      const tensor& t = m.tensor_at(id);
      if (t.alias_of < 0) continue;
      write_tensor_row(w, m, id, 2);
      w.line();
    }
  }
}

inline void write_ops(text_writer& w, const module_view& m) {
  w.field("ops (", m.node_count);
  w.put(")");
  w.line();
  for (std::int32_t i = 0; i < m.node_count; ++i) {
    const node& n = m.node_at(i);
    w.number(i, 4);
    w.put("  ");
    w.put(name_of(n.kind));
    w.put(" \"");
    w.put(n.label.view());
    w.put("\"");
    if (n.attrs.fused != activation::none) {
      w.put(" +");
      w.put(name_of(n.attrs.fused));
    }
    put_attributes(w, m, n);
    w.line();
    w.spaces(8);
    put_operands_and_result(
        w, n.input_count, [&](std::int32_t k) { put_tensor_ref(w, m, n.inputs[static_cast<std::size_t>(k)]); },
        [&] { put_tensor_ref(w, m, n.output); });
    w.line();
  }
}

// The kernel select_kernels recorded: "runs simd_i8 avx2", then, for a call, each constant operand's
// layout: "  constants: 1 packed, 2 stored" (operand indices in the op's input order).
inline void put_kernel_choice(text_writer& w, const kernel_choice& c) {
  if (c.impl == kernel_impl::undecided) {  // select_kernels ran at run time (tools)
    w.put("runs a ");
    w.put(name_of(c.isa));
    w.put(" kernel or the reference (decided by the compiler)");
    return;
  }
  w.put("runs ");
  w.put(name_of(c.impl));
  if (c.isa != instruction_set::none) {
    w.put(" ");
    w.put(name_of(c.isa));
  }
}

inline void put_constant_layouts(text_writer& w, const module_view& m, const kernel_call& call) {
  bool first = true;
  for (std::int32_t k = 0; k < call.operand_count; ++k) {
    const std::int32_t id = call.operands[static_cast<std::size_t>(k)];
    if (!m.valid_tensor(id) || m.tensor_at(id).role != tensor_role::constant) continue;
    w.put(first ? "  constants: " : ", ");
    first = false;
    w.number(k);
    w.put(call.params.choice.packs(k) ? " packed" : " stored");
  }
}

inline void write_calls_and_kernels(text_writer& w, const module_view& m) {
  w.field("calls (", m.call_count);
  w.put(")");
  w.line();
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const kernel_call& call = m.calls[static_cast<std::size_t>(c)];
    w.field("  call ", c, 2);
    w.put("  ");
    put_node_name(w, m, call.node);
    w.tab(36);
    w.field("kernel ", call.kernel);
    const std::int32_t sharing = calls_of_kernel(m, call.kernel);
    if (sharing > 1) {
      w.field(" (shared by ", sharing);
      w.put(" calls)");
    }
    if (m.has(fact::kernels_selected)) {
      w.put("  ");
      put_kernel_choice(w, call.params.choice);
      put_constant_layouts(w, m, call);
    }
    w.line();
    write_call_requantization(w, m, call);
  }
  w.field("kernels (", m.kernel_count);
  w.put(" distinct for ");
  put_count(w, m.call_count, "call", ")");
  w.line();
  for (std::int32_t k = 0; k < m.kernel_count; ++k) {
    w.field("  kernel ", k, 2);
    w.put("  ");
    put_kernel_params(w, m.kernel(k));
    if (m.has(fact::kernels_selected)) {
      w.put("  ");
      put_kernel_choice(w, m.kernel(k).choice);
    }
    w.line();
  }
}

inline void write_main(text_writer& w, const module_view& m) {
  w.put("main (");
  put_count(w, m.call_count, "call", ")");
  w.line();
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const kernel_call& call = m.calls[static_cast<std::size_t>(c)];
    w.field("  call ", c, 2);
    w.field("  kernel ", call.kernel, 2);
    w.put("  ");
    if (m.valid_node(call.node)) w.put(m.node_at(call.node).label.view());
    put_operands_and_result(
        w, call.operand_count,
        [&](std::int32_t k) { put_location(w, m, call.operand_at[static_cast<std::size_t>(k)]); },
        [&] { put_location(w, m, call.result_at); });
    w.line();
  }
}

inline void write_function_metadata(text_writer& w, const module_view& m) {
  w.put("function metadata (bytes per call)");
  w.line();
  w.put("  kernel  op kind            calls  workspace         io  constants");
  w.line();
  for (std::int32_t k = 0; k < m.kernel_count; ++k) {
    const function_info& f = m.functions[static_cast<std::size_t>(k)];
    w.number(k, 8);
    w.put("  ");
    w.put(name_of(m.kernel(k).kind));
    w.tab(28);
    w.number(f.calls, 5);
    w.number(f.workspace_bytes, 11);
    w.number(f.io_bytes, 11);
    w.number(f.constant_bytes, 11);
    w.line();
  }
}

inline void write_io_info(text_writer& w, std::string_view what, std::int32_t index, const io_info& io) {
  w.put("  ");
  w.put(what);
  w.field(" ", index);
  w.tab(12);
  w.put(io.label.view());
  w.tab(34);
  w.put(name_of(io.type));
  put_shape(w, io.dims);
  w.tab(54);
  w.number(io.bytes, 6);
  w.put(" B");
  if (io.scale != 0.0f) {
    w.real_field("  scale ", static_cast<double>(io.scale));
    w.field(" zero_point ", io.zero_point);
  }
  w.line();
}

inline void write_executor_metadata(text_writer& w, const module_view& m) {
  const executor_info& e = m.metadata;
  w.put("executor metadata");
  w.line();
  w.put("  model \"");
  w.put(e.model.view());
  w.put("\": ");
  put_count(w, e.kernel_count, "kernel", ", ");
  put_count(w, e.call_count, "call", ", ");
  w.number(e.constant_bytes);
  w.field(" constant bytes, alignment ", e.alignment);
  w.line();
  for (std::int32_t i = 0; i < e.input_count; ++i) write_io_info(w, "input", i, e.inputs[static_cast<std::size_t>(i)]);
  for (std::int32_t o = 0; o < e.output_count; ++o) write_io_info(w, "output", o, e.outputs[static_cast<std::size_t>(o)]);
  for (std::int32_t p = 0; p < e.pool_count; ++p) {
    const pool_metadata& pool = e.pools[static_cast<std::size_t>(p)];
    w.field("  pool ", p);
    w.tab(12);
    w.put(pool.name != nullptr ? std::string_view{pool.name} : std::string_view{"?"});
    w.tab(34);
    w.number(pool.bytes, 8);
    w.field(" B  alignment ", pool.alignment);
    w.put(pool.read_only ? "  read-only" : "  read-write");
    w.line();
  }
}

inline void write_module(text_writer& w, const module_view& m) {
  write_header(w, m);
  write_tensors(w, m);
  write_ops(w, m);
  if (m.has(fact::kernels_lowered)) write_calls_and_kernels(w, m);
  if (m.has(fact::memory_planned)) {
    w.put("memory plan");
    w.line();
    write_memory_plan(w, m, 2);
  }
  if (m.has(fact::main_lowered)) write_main(w, m);
  if (m.has(fact::function_metadata)) write_function_metadata(w, m);
  if (m.has(fact::executor_metadata)) write_executor_metadata(w, m);
}

inline void write_summary(text_writer& w, const module_view& m) {
  w.put("model ");
  w.put(m.model_name.view());
  w.field(": ", m.node_count);
  w.field(" ops, ", m.tensor_count);
  w.put(" tensors");
  w.line();
  std::int64_t parameters = 0;
  for (std::int32_t i = 0; i < m.node_count; ++i) {
    const node& n = m.node_at(i);
    w.number(i, 4);
    w.put("  ");
    w.put(name_of(n.kind));
    w.tab(24);
    w.put(n.label.view());
    w.tab(38);
    if (n.attrs.fused != activation::none) {
      w.put("+");
      w.put(name_of(n.attrs.fused));
    }
    w.tab(47);
    if (m.valid_tensor(n.inputs[0]) && shape_known(m, m.tensor_at(n.inputs[0]))) put_shape(w, m.tensor_at(n.inputs[0]).dims);
    else w.put("?");
    w.put(" -> ");
    if (m.valid_tensor(n.output) && shape_known(m, m.tensor_at(n.output))) put_shape(w, m.tensor_at(n.output).dims);
    else w.put("?");
    for (std::int32_t k = 0; k < n.input_count; ++k) {
      const std::int32_t t = n.inputs[static_cast<std::size_t>(k)];
      if (m.valid_tensor(t) && m.tensor_at(t).role == tensor_role::constant) parameters += m.tensor_at(t).dims.elements();
    }
    w.line();
  }
  w.field("parameters: ", parameters);
  w.line();
}

}  // namespace ctnn::detail
