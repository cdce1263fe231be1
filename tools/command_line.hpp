#pragma once
// The command-line conventions every ctnn tool follows:
//   --help (or -h)       the usage text on stdout, exit status 0
//   an unknown option    the usage text on stderr, exit status 2 (usage_status)
// screen_options applies both before a tool reads its arguments its own way, so that a tool only lists
// the options it knows (and which of them take a value).
#include <cstdio>
#include <span>
#include <string>
#include <string_view>

namespace ctnn_tools {

inline constexpr int usage_status = 2;

// One option a tool understands: its spelling and whether the next argument is its value.
struct option_spec {
  std::string_view name;
  bool takes_value = false;
};

// "usage: <program> <synopsis>" and the text that explains it (may be empty), to `stream`.
inline void print_usage(std::FILE* stream, const char* program, std::string_view synopsis, std::string_view details) {
  std::fprintf(stream, "usage: %s %.*s\n", program, static_cast<int>(synopsis.size()), synopsis.data());
  if (!details.empty()) std::fprintf(stream, "%.*s", static_cast<int>(details.size()), details.data());
}

// Usage on stderr after a problem with the arguments (said first, when there is one); returns usage_status.
inline int usage_error(const char* program, std::string_view synopsis, std::string_view problem = {}) {
  if (!problem.empty()) std::fprintf(stderr, "%s: %.*s\n", program, static_cast<int>(problem.size()), problem.data());
  print_usage(stderr, program, synopsis, {});
  std::fprintf(stderr, "(%s --help explains the options)\n", program);
  return usage_status;
}

// --help anywhere: usage on stdout, 0. An argument that starts with '-' and is not among `known` (or a
// known option that takes a value and has none): usage on stderr, usage_status. Otherwise -1: go on.
// A value is never taken for an option ("--pin -x:sram" reads "-x:sram" as the value).
// `known` and `more`: the tool's own options and a shared group (e.g. plan_options.hpp's).
inline int screen_options(int argc, char** argv, std::string_view synopsis, std::string_view details,
                          std::span<const option_spec> known, std::span<const option_spec> more = {}) {
  for (int a = 1; a < argc; ++a) {
    const std::string_view arg = argv[a];
    if (arg == "--help" || arg == "-h") {
      print_usage(stdout, argv[0], synopsis, details);
      return 0;
    }
  }
  for (int a = 1; a < argc; ++a) {
    const std::string_view arg = argv[a];
    if (arg.size() < 2 || arg[0] != '-') continue;
    const option_spec* spec = nullptr;
    for (const std::span<const option_spec> group : {known, more})
      for (const option_spec& k : group)
        if (k.name == arg) spec = &k;
    if (spec == nullptr) return usage_error(argv[0], synopsis, "unknown option " + std::string{arg});
    if (spec->takes_value && ++a >= argc) return usage_error(argv[0], synopsis, std::string{arg} + " needs a value");
  }
  return -1;
}

}  // namespace ctnn_tools
