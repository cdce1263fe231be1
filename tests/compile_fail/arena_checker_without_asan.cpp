// CTNN_ARENA_CHECKER in a program built without AddressSanitizer: the checker would check nothing
// (runtime/arena_checker.hpp), so the header refuses it. Registered in trees without AddressSanitizer only.
#ifndef CTNN_COMPILE_FAIL_CONTROL
#define CTNN_ARENA_CHECKER
#endif
#include <ctnn/runtime/executor.hpp>
