// transpose_net.onnx (tests/data/onnx, from scripts/gen_onnx_test_models.py): the transpose op. The NCHW
// input goes to NHWC and the conv's result back through transposes, an ONNX Transpose of the NHWC-held
// result composes the two permutations, Softmax on axis 1 (not the last) runs between two transposes, and
// the Transpose of a constant is folded at compile time (fold_constants, materialised by
// runtime/constants.hpp). Against the NumPy float64 reference; and the kernel on its own.
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include <ctnn/ctnn.hpp>
#include <ctnn/kernel/reference/transpose.hpp>
#include <ctnn/models/transpose_net.hpp>

#include "e2e/reference_check.hpp"
#include "transpose_net_expected.hpp"

namespace {

namespace data = ctnn_test_data::onnx_transpose_net;
using model = ctnn::models::transpose_net;
using net = ctnn::compile<model>;
using ctnn::op_kind;

static_assert(net::input<0>::dims == ctnn::make_shape(1, 3, 4, 5) && net::output<0>::dims == ctnn::make_shape(1, 4, 2, 5));

template <class Module>
constexpr std::int32_t count_of(const Module& m, op_kind kind) {
  std::int32_t n = 0;
  for (std::int32_t i = 0; i < m.node_count; ++i) n += m.node_at(i).kind == kind ? 1 : 0;
  return n;
}
// Imported: input to NHWC, conv, ONNX Transpose (composed, from NHWC), two around the softmax, the constant's.
static_assert(count_of(model::imported, op_kind::transpose) == 5);
// After fold_constants (stage 2 of the default pipeline): the constant's transpose is a recipe.
constexpr const auto& folded = ctnn::stage_v<model, ctnn::default_pipeline, 2>;
static_assert(count_of(folded, op_kind::transpose) == 4 && folded.recipe_count == 1 &&
              folded.recipes[0].params().kind == op_kind::transpose);

// The kernel: a [2, 3, 4] tensor, perm [2, 0, 1] -> [4, 2, 3]; out[a][b][c] = in[b][c][a].
constexpr bool transposes_rank_3() {
  ctnn::kernel_params p{};
  p.kind = op_kind::transpose;
  p.in = ctnn::make_shape(2, 3, 4);
  p.out = ctnn::make_shape(4, 2, 3);
  p.transpose.perm = {2, 0, 1, 0, 0, 0};
  std::array<float, 24> in{}, out{};
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  ctnn::kernel::reference::transpose(&p, in.data(), out.data());
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 3; ++c)
        if (out[static_cast<std::size_t>((a * 2 + b) * 3 + c)] != in[static_cast<std::size_t>((b * 3 + c) * 4 + a)]) return false;
  return true;
}
static_assert(transposes_rank_3());
// Moving only extent-1 dims keeps the element order (alias_reshapes makes such a transpose a view).
static_assert(ctnn::kernel::reference::transpose_is_a_reshape(ctnn::make_shape(1, 3, 1, 1), {0, 2, 3, 1, 0, 0}));
static_assert(ctnn::kernel::reference::transpose_is_a_reshape(ctnn::make_shape(1, 1, 4, 5), {0, 2, 3, 1, 0, 0}));
static_assert(!ctnn::kernel::reference::transpose_is_a_reshape(ctnn::make_shape(1, 2, 4, 5), {0, 2, 3, 1, 0, 0}));

}  // namespace

TEST_CASE("transpose_net.onnx matches the NumPy reference, with the full and the shared kernels") {
  using shared_net = ctnn::compile<model, ctnn::specialisation<ctnn::shared>>;
  for (std::size_t c = 0; c < data::case_count; ++c) {
    float full[data::output0_elements], shared[data::output0_elements];
    for (auto& v : full) v = std::nanf("");
    for (auto& v : shared) v = std::nanf("");
    net::run(data::input0 + c * data::input0_elements, full);
    shared_net::run(data::input0 + c * data::input0_elements, shared);
    for (std::size_t i = 0; i < data::output0_elements; ++i) {
      CAPTURE(c);
      CAPTURE(i);
      const float want = data::expected0[c * data::output0_elements + i];
      const float tolerance = ctnn_test::absolute_tolerance + ctnn_test::relative_tolerance * std::fabs(want);
      CHECK(std::fabs(full[i] - want) <= tolerance);
      CHECK(std::fabs(shared[i] - want) <= tolerance);
    }
  }
}
