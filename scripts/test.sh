#!/usr/bin/env bash
# Runs ctnn's test suite in the configurations of CMakePresets.json, which holds every flag (this script
# only picks presets): installs missing dependencies, then for each configuration runs the preset's
# configure (build/<preset>), build (2 jobs, -k 0) and test (ctest, 2 jobs; tests that must not overlap
# hold resource locks) steps. It keeps going after a failure, prints the time of each phase and a summary,
# and ends with the line `N passed, N failed` summed over all configurations (a failed configure or build
# counts as one failure). Exits non-zero if anything failed.
#
#   gcc    g++ 12 -O2: the whole suite (SIMD kernel tests at native, bare metal and the firmware
#          package tests, compile-fail tests) and the compiler-independent checks (layering, dependencies,
#          docs), which run in this configuration only
#   clang  clang 14 with AddressSanitizer and UndefinedBehaviorSanitizer on every host target (unit, e2e,
#          frontends, tools, every model-building target; -fno-sanitize-recover=all: a report fails its
#          test), so every executor of the tests runs under the arena checker (docs/sanitizers.md): the
#          whole suite but bare metal (SIMD kernel tests at x86-64-v2 and x86-64-v3, compile-fail tests),
#          and each libFuzzer target for 60 s (tests/fuzz; CTNN_FUZZ_SECONDS). clang, not g++, carries the
#          sanitizers: g++'s null/nonnull-attribute checks make `&global == nullptr` non-constant
#          (docs/design.md §6). It is compiled at -O0 (a third of -O1's compile time; its tests are
#          short), the fuzzers at -O1 (ASan's recommended level: inputs per second find the bugs).
#          The levels keep the whole command within 45 minutes on a quiet 2-core machine (docs/sanitizers.md).
#   quick  g++ -O0, the quick tier (CTNN_TEST_TIER=quick): the unit, pass, frontend, end-to-end, tool,
#          compile-fail and layering tests, without SIMD levels, bare metal, package, docs or fuzzing: minutes after a
#          one-header change (`cmake --workflow --preset quick` is the same)
#
#   scripts/test.sh [gcc|clang|quick ...]   default: gcc clang
#   CTNN_BUILD_TYPE=RelWithDebInfo   CTNN_JOBS=4   CTNN_SKIP_DEPS=1   (environment overrides)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_type=${CTNN_BUILD_TYPE:-Release}
jobs=${CTNN_JOBS:-2}
declare -A known=([gcc]=1 [clang]=1 [quick]=1)

compilers=("$@")
((${#compilers[@]} > 0)) || compilers=(gcc clang)
for name in "${compilers[@]}"; do
  [[ -n ${known[$name]+set} ]] || { echo "test.sh: unknown configuration '$name' (use gcc, clang or quick)" >&2; exit 2; }
done

if [[ ${CTNN_SKIP_DEPS:-0} != 1 ]]; then
  bash "$root/scripts/install_deps.sh"
fi

seconds_since() { awk -v start="$1" -v now="$EPOCHREALTIME" 'BEGIN { printf "%.1f s", now - start }'; }

total_passed=0
total_failed=0
summary=()

for name in "${compilers[@]}"; do
  build="$root/build/$name"
  printf '\n========== %s: preset %s (CMakePresets.json) ==========\n' "$name" "$name"

  configure_status=skipped build_status=skipped test_status=skipped
  configure_time=- build_time=- test_time=-
  passed=0 failed=0

  echo "---------- $name: configure ----------"
  start=$EPOCHREALTIME
  if (cd "$root" && cmake --preset "$name" --no-warn-unused-cli -DCMAKE_BUILD_TYPE="$build_type"); then
    configure_status=ok
  else
    configure_status=FAILED
    failed=$((failed + 1))
  fi
  configure_time=$(seconds_since "$start")
  echo "---------- $name: configure $configure_status ($configure_time) ----------"

  if [[ $configure_status == ok ]]; then
    echo "---------- $name: build ----------"
    start=$EPOCHREALTIME
    # The preset passes -k 0: everything that can be built is, so one broken target hides no other result.
    if (cd "$root" && cmake --build --preset "$name" --parallel "$jobs"); then
      build_status=ok
    else
      build_status=FAILED
      failed=$((failed + 1))
    fi
    build_time=$(seconds_since "$start")
    echo "---------- $name: build $build_status ($build_time) ----------"

    echo "---------- $name: test ----------"
    start=$EPOCHREALTIME
    log="$build/ctest.log"
    # A sanitizer report fails the test that prints it (-fno-sanitize-recover=all aborts the program).
    if (cd "$root" && ctest --preset "$name" -j "$jobs") 2>&1 | tee "$log"; then
      test_status=ok
    else
      test_status=FAILED
    fi
    test_time=$(seconds_since "$start")
    line=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1 || true)
    if [[ $line =~ ([0-9]+)\ tests?\ failed\ out\ of\ ([0-9]+) ]]; then
      failed=$((failed + BASH_REMATCH[1]))
      passed=$((passed + BASH_REMATCH[2] - BASH_REMATCH[1]))
      ((BASH_REMATCH[1] == 0)) || test_status=FAILED
    else
      failed=$((failed + 1))   # ctest found no tests or did not finish
      test_status=FAILED
    fi
    echo "---------- $name: test $test_status ($test_time) ----------"
  fi

  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed))
  summary+=("$(printf '%-6s configure %-7s %9s | build %-7s %9s | test %-7s %9s | %d passed, %d failed' \
    "$name" "$configure_status" "$configure_time" "$build_status" "$build_time" \
    "$test_status" "$test_time" "$passed" "$failed")")
done

printf '\n========== summary (%s, %s jobs) ==========\n' "$build_type" "$jobs"
printf '%s\n' "${summary[@]}"
echo "$total_passed passed, $total_failed failed"
((total_failed == 0))
