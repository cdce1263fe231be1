#pragma once
// Pools shared by several models in one firmware (models that never run at the same time): one static
// array per pool name, as large as the largest model needs (size = max), aligned for all of them.
//
//   using a = ctnn::compile<kws, ctnn::pools<ctnn::pool<"sram", 64 * 1024>, ctnn::pool<"dtcm", 16 * 1024>>>;
//   using b = ctnn::compile<vww, ctnn::pools<ctnn::pool<"sram", 128 * 1024>>>;
//   using shared = ctnn::shared_pools<a, b>;
//   static_assert(shared::bytes<"sram"> == std::max(a::pool<0>::bytes, b::pool<0>::bytes));
//   a::run_with_pools(shared::pools_for<a>(), in_a, out_a);
//   b::run_with_pools(shared::pools_for<b>(), in_b, out_b);
#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

#include <ctnn/ir/name.hpp>

namespace ctnn {

template <class... Nets>
struct shared_pools {
  static_assert(sizeof...(Nets) > 0, "ctnn::shared_pools: give the executors (ctnn::compile<...>) that share pools.");

  // Every pool name, once, in order of first appearance.
  static constexpr std::size_t upper = (Nets::pool_count + ...);
  struct names_t {
    std::array<std::string_view, upper> names{};
    std::size_t count = 0;
  };
  static constexpr names_t all = [] {
    names_t r{};
    const auto add = [&r]<class Net>(Net*) {
      for (std::size_t p = 0; p < Net::pool_count; ++p) {
        bool seen = false;
        for (std::size_t k = 0; k < r.count; ++k) seen = seen || r.names[k] == Net::pool_name_at(p);
        if (!seen) r.names[r.count++] = Net::pool_name_at(p);
      }
    };
    (add(static_cast<Nets*>(nullptr)), ...);
    return r;
  }();
  static constexpr std::size_t pool_count = all.count;

  static constexpr std::size_t index_of(std::string_view name) {
    for (std::size_t k = 0; k < all.count; ++k)
      if (all.names[k] == name) return k;
    return all.count;
  }
  // The largest value of field(Net, p) over the models' pools p named as shared pool k, at least `least`.
  template <class Field>
  static constexpr std::size_t largest_at(std::size_t k, std::size_t least, Field field) {
    std::size_t largest = least;
    const auto visit = [&]<class Net>(Net* net) {
      for (std::size_t p = 0; p < Net::pool_count; ++p)
        if (Net::pool_name_at(p) == all.names[k] && field(net, p) > largest) largest = field(net, p);
    };
    (visit(static_cast<Nets*>(nullptr)), ...);
    return largest;
  }
  // Bytes and alignment of shared pool k: the largest over the models that have a pool of that name.
  static constexpr std::size_t bytes_at(std::size_t k) {
    return largest_at(k, 0, []<class Net>(Net*, std::size_t p) -> std::size_t { return Net::pool_bytes_at(p); });
  }
  static constexpr std::size_t alignment_at(std::size_t k) {
    return largest_at(k, 1, []<class Net>(Net*, std::size_t p) -> std::size_t { return Net::pool_alignment_at(p); });
  }

  // The index of pool `Name`; a name no model has is a compile error (a typo in a budget check must not
  // read as 0 bytes and pass).
  template <fixed_string Name>
  static consteval std::size_t named() {
    static_assert(index_of(Name.view()) < pool_count,
                  "ctnn::shared_pools: no model has a pool of this name (the default pool is \"arena\"; "
                  "name pools with ctnn::pools<ctnn::pool<\"name\", limit>...>).");
    return index_of(Name.view());
  }
  template <fixed_string Name>
  static constexpr std::size_t bytes = bytes_at(named<Name>());
  template <fixed_string Name>
  static constexpr std::size_t alignment = alignment_at(named<Name>());
  // RAM of all shared pools together.
  static constexpr std::size_t total_bytes = [] {
    std::size_t total = 0;
    for (std::size_t k = 0; k < pool_count; ++k) total += bytes_at(k);
    return total;
  }();

 private:
  template <std::size_t K>
  struct storage {
    alignas(alignment_at(K)) static inline std::byte bytes[bytes_at(K) > 0 ? bytes_at(K) : 1];
  };
  static std::array<std::byte*, (pool_count > 0 ? pool_count : 1)> all_storage() {
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return std::array<std::byte*, (pool_count > 0 ? pool_count : 1)>{storage<K>::bytes...};
    }(std::make_index_sequence<pool_count>{});
  }

 public:
  // The shared array of pool `Name`.
  template <fixed_string Name>
    requires(index_of(Name.view()) < pool_count)
  static std::byte* data() {
    return storage<index_of(Name.view())>::bytes;
  }
  // One pointer per pool of Net, for Net::run_with_pools.
  template <class Net>
  static typename Net::pool_pointers pools_for() {
    const auto shared = all_storage();
    typename Net::pool_pointers pools{};
    for (std::size_t p = 0; p < Net::pool_count; ++p) pools[p] = shared[index_of(Net::pool_name_at(p))];
    return pools;
  }
};

}  // namespace ctnn
