// Compile-fail case: ctnn's umbrella header compiled as C++17 (-std=gnu++17, as an older project's default
// would be) gives one error that says what to do, not hundreds (include/ctnn/detail/require_cxx20.hpp).
#include <ctnn/ctnn.hpp>

int main() { return 0; }
