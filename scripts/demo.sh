#!/usr/bin/env bash
# Build, then show the main job on a fresh machine (no API key, no hardware needed):
#   1. check a kernel with a bug and see the compiler-style diagnostic,
#   2. check and simulate a tutorial kernel,
#   3. verify a benchmark solution against its PyTorch reference,
#   4. replay a recorded (scripted) agent episode that goes from a compile error to a pass.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
NKI=build/nkiagent
PY=${NKI_PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== 1. nkiagent check on a kernel with a bug"
bad=tests/kernels/errors/err_num_partition_exceed_arch_limit/bad.py
args=$(grep -m1 'nki-case:' "$bad" | sed 's/.*args=\([^ ]*\).*/\1/' | tr ',' ' ')
set -- ; for a in $args; do set -- "$@" --arg "$a"; done
"$NKI" check "$bad" "$@" || true

echo "== 2. check and simulate docs/examples/04_matmul_psum.py"
"$NKI" check docs/examples/04_matmul_psum.py --arg 256x512:bfloat16 --arg 512x256:bfloat16
"$PY" -c "import numpy as np; r=np.random.default_rng(0); np.save('$tmp/a.npy', r.standard_normal((256,512)).astype(np.float32)); np.save('$tmp/b.npy', r.standard_normal((512,256)).astype(np.float32))"
"$NKI" run docs/examples/04_matmul_psum.py --input "$tmp/a.npy:bfloat16" --input "$tmp/b.npy:bfloat16" --out-dir "$tmp"
"$PY" -c "
import numpy as np
def bf16(x):
    b = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return (((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint32) << 16).view(np.float32)
a, b, o = bf16(np.load('$tmp/a.npy')), bf16(np.load('$tmp/b.npy')), np.load('$tmp/out0.npy')
print('max |simulated - numpy| =', float(np.abs(o - bf16(a @ b)).max()), ' (output is bfloat16)')"

echo "== 3. nkiagent verify solutions/l2_gemm_bias_gelu_bf16.py --task l2_gemm_bias_gelu_bf16"
"$NKI" verify solutions/l2_gemm_bias_gelu_bf16.py --task l2_gemm_bias_gelu_bf16

echo "== 4. replay of a scripted agent episode (examples/replays/)"
"$NKI" solve --task l1_add_fp32 --replay examples/replays/l1_add_fp32_compile_fix.jsonl --out "$tmp/solve"
echo "transcript: $(wc -l < "$tmp/solve/transcript.jsonl") JSONL records; final kernel:"
sed -n '1,40p' "$tmp/solve/kernel.py"
