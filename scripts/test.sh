#!/usr/bin/env bash
# Runs ctnn's test suite in two configurations: installs missing dependencies, then for each one configures
# build/test-<name> (Ninja, Release, CTNN_BUILD_TESTS=ON), builds with 2 jobs and runs ctest with 2 jobs
# (tests that must not overlap hold resource locks). It keeps going after a failure, prints the time of
# each phase and a summary, and ends with the line `N passed, N failed` summed over all configurations (a
# failed configure or build counts as one failure). Exits non-zero if anything failed.
#
#   gcc    g++ 12: the whole suite (SIMD kernel tests at x86-64-v2 and native, bare metal and the firmware
#          package tests, compile-fail tests)
#   clang  clang 14 with AddressSanitizer and UndefinedBehaviorSanitizer on every host target (unit, e2e,
#          frontends, tools, every model-building target; -fno-sanitize-recover=all: a report fails its
#          test), so every executor of the tests runs under the arena checker (docs/sanitizers.md): the
#          whole suite but bare metal (SIMD kernel tests at x86-64-v3, compile-fail tests), and each
#          libFuzzer target for 60 s (tests/fuzz; CTNN_FUZZ_SECONDS). clang, not g++, carries the
#          sanitizers: g++'s null/nonnull-attribute checks make `&global == nullptr` non-constant
#          (docs/design.md §6). It is optimised at -O1 (ASan's recommended level), not -O3: a third less
#          compile time for the instrumented tree, whose tests are short.
#
#   scripts/test.sh [gcc|clang ...]   default: gcc clang
#   CTNN_BUILD_TYPE=RelWithDebInfo   CTNN_JOBS=4   CTNN_SKIP_DEPS=1   (environment overrides)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_type=${CTNN_BUILD_TYPE:-Release}
jobs=${CTNN_JOBS:-2}
declare -A cxx_of=([gcc]=g++ [clang]=clang++)
declare -A cc_of=([gcc]=gcc [clang]=clang)
# The SIMD kernel tests are built per x86 level, each level by one configuration (the levels check the
# kernels, the second compiler checks the code, and the suite stays within its time): g++ SSE4.2 and
# native (AVX-512 + VNNI here), clang AVX2.
# The Arm programs (arm-none-eabi-g++, whatever the host compiler: bare metal, the firmware package tests)
# are built and run in the g++ tree only.
declare -A extra_args_of=([gcc]="-DCTNN_SIMD_TEST_LEVELS=x86-64-v2;native"
  [clang]="-DCTNN_SIMD_TEST_LEVELS=x86-64-v3 -DCTNN_BAREMETAL_TESTS=OFF")
# The sanitizer flags (CMakePresets.json's clang-sanitize preset is this clang configuration).
sanitizer_flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
declare -A sanitized_of=([gcc]=0 [clang]=1)

compilers=("$@")
((${#compilers[@]} > 0)) || compilers=(gcc clang)
for name in "${compilers[@]}"; do
  [[ -n ${cxx_of[$name]+set} ]] || { echo "test.sh: unknown configuration '$name' (use gcc or clang)" >&2; exit 2; }
done

if [[ ${CTNN_SKIP_DEPS:-0} != 1 ]]; then
  bash "$root/scripts/install_deps.sh"
fi

seconds_since() { awk -v start="$1" -v now="$EPOCHREALTIME" 'BEGIN { printf "%.1f s", now - start }'; }

total_passed=0
total_failed=0
summary=()

for name in "${compilers[@]}"; do
  cxx=${cxx_of[$name]}
  cc=${cc_of[$name]}
  build="$root/build/test-$name"
  version=$("$cxx" --version 2>/dev/null | head -n 1 || true)
  printf '\n========== %s: %s (%s) ==========\n' "$name" "$cxx" "${version:-not found}"

  configure_status=skipped build_status=skipped test_status=skipped
  configure_time=- build_time=- test_time=-
  passed=0 failed=0

  echo "---------- $name: configure ----------"
  start=$EPOCHREALTIME
  flags=()
  if ((sanitized_of[$name])); then
    flags=("-DCMAKE_CXX_FLAGS=$sanitizer_flags" "-DCMAKE_C_FLAGS=$sanitizer_flags"
           "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined")
    if [[ $build_type == Release ]]; then
      flags+=("-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG")
    fi
  fi
  if cmake -S "$root" -B "$build" -G Ninja --no-warn-unused-cli \
       -DCMAKE_BUILD_TYPE="$build_type" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc" \
       -DCTNN_BUILD_TESTS=ON ${extra_args_of[$name]} "${flags[@]}"; then
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
    # -k 0: build everything that can be built, so that one broken target does not hide the other results.
    if cmake --build "$build" --parallel "$jobs" -- -k 0; then
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
    if ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
         ctest --test-dir "$build" --output-on-failure -j "$jobs" --no-tests=error --timeout 900 \
           2>&1 |
         tee "$log"; then
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
