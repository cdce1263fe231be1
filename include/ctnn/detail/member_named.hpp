#pragma once
// Whether a class declares a member of a given name, of any kind (a function, an overload set, a member
// template, a data member), without naming its signature: the interfaces that users hand in (a pass, a
// placement algorithm, a kernel family's kernel) are member templates over types ctnn picks later (the
// module, the buffer arrays, an operand reader), so their names are what can be checked before any use.
//
// The test: in a class deriving from T and from a probe holding a member of that name, the name is
// ambiguous exactly when T has one too. It instantiates no member of T (cheap: one empty class per T). A
// final class cannot be derived from, so it counts as having every member (the use then reports what
// is missing, as without the check).
#include <type_traits>

namespace ctnn::detail::member_probe {

struct run_in_place_name { int run_in_place; };
struct run_name { int run; };
struct plan_name { int plan; };
struct pack_name { int pack; };

template <class T, class Probe>
struct with_probe : T, Probe {};

}  // namespace ctnn::detail::member_probe

namespace ctnn::detail {

template <class T>
concept has_member_named_run_in_place =
    std::is_class_v<T> && (std::is_final_v<T> || !requires { &member_probe::with_probe<T, member_probe::run_in_place_name>::run_in_place; });
template <class T>
concept has_member_named_run =
    std::is_class_v<T> && (std::is_final_v<T> || !requires { &member_probe::with_probe<T, member_probe::run_name>::run; });
template <class T>
concept has_member_named_plan =
    std::is_class_v<T> && (std::is_final_v<T> || !requires { &member_probe::with_probe<T, member_probe::plan_name>::plan; });
template <class T>
concept has_member_named_pack =
    std::is_class_v<T> && (std::is_final_v<T> || !requires { &member_probe::with_probe<T, member_probe::pack_name>::pack; });

}  // namespace ctnn::detail
