#pragma once
// What the parametrised activations share (ops/leaky_relu.hpp, ops/elu.hpp, ops/hard_sigmoid.hpp): their
// coefficients (attrs.coefficients) copied to the kernel and printed.
#include <cstdint>

#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

// An element-wise op of one operand whose kernel reads attrs.coefficients; Beta: whether it has a beta.
template <op_kind K, bool Beta = false>
struct parametrised_activation : unary_elementwise {
  static constexpr op_kind kind = K;

  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.coefficients = n.attrs.coefficients;
  }
  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    put_coefficients(w, a.coefficients);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    put_coefficients(w, p.coefficients);
  }
  template <class Writer>
  static void put_coefficients(Writer& w, const activation_coefficients& c) {
    w.real_field("  alpha ", static_cast<double>(c.alpha()));
    if constexpr (Beta) w.real_field(" beta ", static_cast<double>(c.beta()));
  }
};

}  // namespace ctnn::ops
