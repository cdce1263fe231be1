// ctnn's dependencies and include path on bare metal: Boost.Hana (found after the toolchain's headers
// through -idirafter), xsimd's configuration header (no SIMD architecture on a Cortex-M4, so ctnn
// uses its scalar kernels) and ctnn's own headers. A second translation unit also checks that doctest
// test cases from several files are registered.
#include <doctest/doctest.h>

#include <boost/hana.hpp>
#include <ctnn/version.hpp>
#include <xsimd/config/xsimd_config.hpp>

#include <functional>

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE
#error "xsimd should find no SIMD architecture for a Cortex-M4"
#endif

namespace hana = boost::hana;

TEST_CASE("Boost.Hana") {
  constexpr auto shape = hana::make_tuple(hana::int_c<1>, hana::int_c<8>, hana::int_c<8>, hana::int_c<3>);
  constexpr auto elements = hana::fold_left(shape, hana::int_c<1>, hana::mult);
  static_assert(elements == hana::int_c<192>);
  static_assert(hana::length(shape) == hana::size_c<4>);

  const auto values = hana::make_tuple(1, 2.5f, 3);
  const float sum = hana::fold_left(values, 0.0f, std::plus<>{});
  CHECK(sum == 6.5f);
}

TEST_CASE("ctnn headers are on the include path") {
  static_assert(ctnn::version_major >= 0 && ctnn::version_minor >= 0 && ctnn::version_patch >= 0);
  CHECK(ctnn::version_major >= 0);
}
