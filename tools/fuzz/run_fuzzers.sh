#!/usr/bin/env bash
# Runs each libFuzzer target in runtime/fuzz for SECONDS seconds, seeded from
# real compiled modules and hand-made inputs, and prints per target the
# executions run and the crashes found. Exits non-zero if any target crashed
# (the reproducer is kept under FUZZ_DIR/artifacts/TARGET/).
#
# Usage: tools/fuzz/run_fuzzers.sh SECONDS [FUZZ_BUILD_DIR] [KILN_COMPILE] [TARGET...]
#   FUZZ_BUILD_DIR  build with -DKILN_BUILD_FUZZERS=ON (default build-fuzz)
#   KILN_COMPILE    compiler used to make module seeds (default build/bin/kiln-compile)
#   TARGET          the targets to run (default the runtime's: module
#                   module_run sources tensor_text npy; onnx_import is the
#                   importer's, in a build with the compiler)
# Corpora grow across runs in FUZZ_BUILD_DIR/corpus/TARGET.
set -euo pipefail

if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
seconds=$1
fuzz_dir=${2:-build-fuzz}
kiln_compile=${3:-build/bin/kiln-compile}
shift $(( $# < 3 ? $# : 3 ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(module module_run sources tensor_text npy)
here=$(cd "$(dirname "$0")" && pwd)

[ -x "$kiln_compile" ] || { echo "error: no compiler at $kiln_compile (build it first)" >&2; exit 1; }
seeds="$fuzz_dir/seeds"
rm -rf "$seeds"
python3 "$here/make_seeds.py" --kiln-compile="$kiln_compile" --out="$seeds"

# target name -> seed directory
declare -A seed_dir=(
  [module]=module [module_run]=module [sources]=module [tensor_text]=tensor_text [npy]=npy
  [onnx_import]=onnx_import
)
# Longest input per target: modules are tens of KiB, the sample model 120,
# the others short.
declare -A max_len=(
  [module]=262144 [module_run]=262144 [sources]=262144 [tensor_text]=4096 [npy]=4096
  [onnx_import]=131072
)

failed=0
printf '%-12s %12s %8s %s\n' target executions crashes corpus
for target in "${targets[@]}"; do
  binary="$fuzz_dir/bin/kiln_${target}_fuzzer"
  [ -x "$binary" ] || { echo "error: $binary not built" >&2; exit 1; }
  corpus="$fuzz_dir/corpus/$target"
  artifacts="$fuzz_dir/artifacts/$target"
  log="$fuzz_dir/logs/$target.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  status=0
  # allow_user_poisoning=0: LLVM's bump allocator, inlined into the
  # importer's instrumented code, poisons memory libMLIR then writes.
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:allow_user_poisoning=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$binary" "$corpus" "$seeds/${seed_dir[$target]}" \
      -max_total_time="$seconds" -max_len="${max_len[$target]}" \
      -rss_limit_mb=4096 -timeout=10 -print_final_stats=1 \
      -artifact_prefix="$artifacts/" >"$log" 2>&1 || status=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  crashes=0
  if [ "$status" -ne 0 ]; then
    crashes=1
    failed=1
  fi
  printf '%-12s %12s %8s %s\n' "$target" "${runs:-0}" "$crashes" "$(ls "$corpus" | wc -l) inputs"
  if [ "$status" -ne 0 ]; then
    echo "--- $target failed (exit $status); log: $log" >&2
    grep -E 'ERROR|SUMMARY|Test unit written|#[0-9]+ 0x' "$log" | head -30 >&2
  fi
done
exit $failed
