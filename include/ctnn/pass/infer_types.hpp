#pragma once
// infer_types: fills every op's output shape and dtype from its inputs and attributes, resolves padding
// modes into explicit pads, gives weights their canonical shapes, and reports the first inconsistency.
// The rules themselves are the op descriptors' (ops/infer.hpp); this pass applies them to every op in order.
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/ops/infer.hpp>
#include <ctnn/pass/detail/in_place_pass.hpp>

namespace ctnn::pass {

struct infer_types : detail::in_place_pass<infer_types> {
  static constexpr fact establishes = fact::shapes_inferred;

  template <class Module>
  static constexpr void run_in_place(Module& m) {
    if (m.output_count == 0) {  // a file whose output list is empty (the DSL always names one)
      m.fail({error_code::no_model_outputs, -1, op_kind::none, {}, {}, {.count_expected = m.input_count}});
      return;
    }
    for (std::int32_t i = 0; i < m.node_count && !m.error.failed(); ++i) {
      node& n = m.node_at(i);
      const shape out = ops::infer_shape(m, i);
      tensor& result = m.tensor_at(n.output);
      result.dims = out;
      result.type = ops::result_type(m, n);
    }
    if (!m.error.failed()) m.establish(fact::shapes_inferred);
  }
};

}  // namespace ctnn::pass
