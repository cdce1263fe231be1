#pragma once
// The base of ctnn's passes: each has an in-place core, `static constexpr void run_in_place(Module&)` (a
// module can be megabytes: the tools run every pass on one module on the heap, docs/design.md §2), and
// gets from here the by-value form `run(Module) -> Module` that a pass of one's own may have alone.
namespace ctnn::pass::detail {

template <class Pass>
struct in_place_pass {
  template <class Module>
  static constexpr Module run(Module m) {
    Pass::run_in_place(m);
    return m;
  }
};

}  // namespace ctnn::pass::detail
