#!/usr/bin/env bash
# Runs the kernel-source fuzzer (fuzz/kernel_fuzz.cpp) for a given time.
#
#   fuzz/run_kernel_fuzz.sh [SECONDS] [extra libFuzzer flags...]     (default 1800 s)
#
# Build first (clang; docs/reliability.md, "Fuzzing the front end and simulator"):
#   CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DNKI_BUILD_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
#   nice cmake --build build-fuzz --target kernel_fuzz
#
# Environment: BUILD_DIR (default build-fuzz), WORK_DIR (default $BUILD_DIR/kernel_fuzz).
# Seeds are copied from tests/kernels and docs/examples into $WORK_DIR/seeds on every run (not
# committed); the fuzzer writes new inputs to $WORK_DIR/corpus, which is kept between runs, and
# crash/timeout/oom reproducers to $WORK_DIR/artifacts/.
# Reproduce one:  $BUILD_DIR/fuzz/kernel_fuzz $WORK_DIR/artifacts/crash-...
# Minimise one:   $BUILD_DIR/fuzz/kernel_fuzz -minimize_crash=1 -runs=10000 $WORK_DIR/artifacts/crash-...
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-fuzz}
work=${WORK_DIR:-$build/kernel_fuzz}
seconds=${1:-1800}
shift || true

fuzzer=$build/fuzz/kernel_fuzz
if [[ ! -x $fuzzer ]]; then
  echo "no $fuzzer: build the kernel_fuzz target first (see the header of $0)" >&2
  exit 2
fi

rm -rf "$work/seeds"
mkdir -p "$work/seeds" "$work/corpus" "$work/artifacts"
# One file per kernel, named after its path (tests/kernels/errors/x/bad.py -> errors__x__bad.py).
while IFS= read -r f; do
  rel=${f#"$root"/}
  rel=${rel#tests/kernels/}
  cp "$f" "$work/seeds/${rel//\//__}"
done < <(find "$root/tests/kernels" "$root/docs/examples" -name '*.py' ! -name run_cases.py | sort)
echo "kernel_fuzz: $(ls "$work/seeds" | wc -l) seed kernels, $(ls "$work/corpus" | wc -l) corpus inputs" >&2

# OpenBLAS reads its thread count when it loads; the simulator runs matmuls single-threaded
# anyway, and one thread keeps the fuzzer to one core.
export OPENBLAS_NUM_THREADS=1
# Keep ASan's own memory bounded well below -rss_limit_mb; leaks are not reported per input
# (see docs/reliability.md).
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=64:malloc_context_size=20}

# -max_len: the largest seed is about 2.2 KB; 8 KB leaves room to grow.
exec nice -n 10 "$fuzzer" \
  -max_len=8192 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
  -dict="$root/fuzz/nki.dict" -max_total_time="$seconds" -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$@" "$work/corpus" "$work/seeds"
