#!/bin/sh
# ctest helper (tests/tools/CMakeLists.txt, tool_default_stack_*): runs a command with the default 8 MiB stack
# of a main thread, whatever the shell that runs ctest allows, and says which limit it ran under (the
# tests match that line, so that a limit that did not apply cannot pass). The tools import and compile a
# model on the heap, in place (docs/design.md §2): they need no larger stack, also under AddressSanitizer.
ulimit -s 8192 || exit 125
echo "stack limit: $(ulimit -s) KiB" >&2
exec "$@"
