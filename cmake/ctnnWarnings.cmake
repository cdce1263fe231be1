# Warnings as errors on ctnn's own code (tests, examples, tools): -Wall -Wextra -Wpedantic -Werror.
add_library(ctnn_project_warnings INTERFACE)
target_compile_options(ctnn_project_warnings INTERFACE -Wall -Wextra -Wpedantic -Werror)
set(CMAKE_CXX_EXTENSIONS OFF)
