#!/bin/sh
# Compares the structure-aware mutators with libFuzzer's byte mutations (docs/fuzzing.md): each target runs
# twice at the same time, for the same time, from the same seeds into fresh corpora, once as built and once
# with CTNN_FUZZ_MUTATOR=plain. Prints exec/s, edges (cov) and features (ft) of both runs; a crash or a
# sanitizer report is written to <out>/findings/<target>-<mode>-* and named.
#
#   tests/fuzz/compare_mutators.sh <build>/tests/fuzz <seconds> <out> [target ...]
#   e.g. tests/fuzz/compare_mutators.sh build/fuzz/tests/fuzz 120 build/fuzz/compare
set -u
dir=$1 seconds=$2 out=$3
shift 3
targets=${*:-tflite_reader onnx_reader tflite_import onnx_import run}
mkdir -p "$out/findings"
printf '| target | mutator | exec/s | cov | ft | corpus | result |\n|---|---|---|---|---|---|---|\n'
for target in $targets; do
  case $target in
    tflite_*) seeds="$dir/seeds/tflite" ;;
    onnx_*) seeds="$dir/seeds/onnx" ;;
    *) seeds="$dir/seeds/tflite $dir/seeds/onnx" ;;
  esac
  for mode in structured plain; do
    rm -rf "$out/corpus-$target-$mode"
    mkdir -p "$out/corpus-$target-$mode"
    if [ $mode = plain ]; then export CTNN_FUZZ_MUTATOR=plain; else unset CTNN_FUZZ_MUTATOR; fi
    # shellcheck disable=SC2086
    nice "$dir/fuzz_$target" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$out/findings/$target-$mode-" "$out/corpus-$target-$mode" $seeds >"$out/$target-$mode.log" 2>&1 &
  done
  unset CTNN_FUZZ_MUTATOR
  wait
  for mode in structured plain; do
    log="$out/$target-$mode.log"
    done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse|DONE|INITED)' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec:[[:space:]]*//p' "$log")
    cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
    ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
    corp=$(echo "$last" | sed -n 's/.* corp: \([^ ]*\).*/\1/p')
    if [ -n "$done_line" ]; then result=ok; else result="CRASH: $(grep -m1 -E 'ERROR:|runtime error:' "$log") ($(grep -o 'Test unit written to .*' "$log"))"; fi
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "fuzz_$target" "$mode" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$result"
  done
done
