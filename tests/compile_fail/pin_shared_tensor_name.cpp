// Compile-fail case 17a: a pin by a tensor name that two tensors share ("a": the second node reuses the
// first one's name); which of them it places is unclear, so it is an error naming both.
// Expected: errors::pin_names_shared_tensor_name<pin_position<0>, tensor_named<'a'>, tensor_index<1>,
//           tensor_index<2>> and its sentence.
// Control: the second node named "b".
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

#ifdef CTNN_COMPILE_FAIL_CONTROL
inline constexpr ctnn::fixed_string second_name = "b";
#else
inline constexpr ctnn::fixed_string second_name = "a";
#endif

using block = dsl::graph<dsl::outputs<"out">,
                         dsl::node<"x", dsl::input<ctnn::f32, 1, 8, 8, 4>>,
                         dsl::node<"a", dsl::relu, "x">,
                         dsl::node<second_name, dsl::sigmoid, "a">,
                         dsl::node<"out", dsl::relu, second_name>>;
using net = ctnn::compile<block, ctnn::pools<ctnn::pool<"dtcm", 1024>, ctnn::pool<"sram">>, ctnn::pin<"a", "sram">>;

void infer(const float* in, float* out) { net::run(in, out); }
