#pragma once
// ctnn is C++20 (class-type template arguments, consteval, concepts). Compiled as an older C++, the headers
// would give hundreds of errors; this gives one. A missing include is a fatal error: the compiler stops here.
#if (defined(_MSVC_LANG) ? _MSVC_LANG : __cplusplus) < 202002L
#include "ctnn needs C++20: compile with -std=c++20 (CMake: link ctnn::ctnn, which requires cxx_std_20)"
#endif
