#pragma once
// ctnn's version, checked by the package tests (find_package / add_subdirectory consumers).

namespace ctnn {
inline constexpr int version_major = 0;
inline constexpr int version_minor = 1;
inline constexpr int version_patch = 0;
}  // namespace ctnn
