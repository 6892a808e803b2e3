# Example 04: C = A @ B for A [256, 512] and B [512, 256] in bfloat16, fp32 accumulation in PSUM.
#
# Shows: the TensorE contract of nisa.nc_matmul(stationary, moving) = stationary.T @ moving,
# i.e. the left operand must be supplied transposed (contraction dim on the partitions), here
# by nl.load_transpose2d; the contraction (K = 512) is split into 128-row tiles accumulated
# with `+=` into a PSUM tile inside affine_range; limits: K tile <= 128 (pmax), stationary
# free <= 128 (gemm_stationary_fmax), moving free <= 512 (gemm_moving_fmax), PSUM tile <= 512 fp32.
#
# Try:
#   nkiagent check docs/examples/04_matmul_psum.py --arg 256x512:bfloat16 --arg 512x256:bfloat16
#   nkiagent ir docs/examples/04_matmul_psum.py --arg 256x512:bfloat16 --arg 512x256:bfloat16
#       -> per output row block: zeroed PSUM tile, 4 x (transposing load, load, nc_matmul accumulate), copy, store
#   python3 -c "import numpy as np; np.save('/tmp/e04_a.npy', np.random.randn(256, 512).astype(np.float32)); np.save('/tmp/e04_b.npy', np.random.randn(512, 256).astype(np.float32))"
#   nkiagent run docs/examples/04_matmul_psum.py --input /tmp/e04_a.npy:bfloat16 --input /tmp/e04_b.npy:bfloat16 --out-dir /tmp/e04
#
# nki-case: args=256x512:bfloat16,512x256:bfloat16
# expect-output: in0 @ in1
# expect-tol: rtol=2e-2 atol=2e-1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def matmul_bf16(lhs, rhs):
    M, K = lhs.shape
    K2, N = rhs.shape
    assert K == K2 and M % 128 == 0 and K % 128 == 0 and N <= 512
    prod = nl.ndarray((M, N), dtype=lhs.dtype, buffer=nl.shared_hbm)
    for m in nl.affine_range(M // 128):
        acc = nl.zeros((128, N), dtype=nl.float32, buffer=nl.psum)
        for k in nl.affine_range(K // 128):
            lhs_t = nl.load_transpose2d(lhs[m * 128:(m + 1) * 128, k * 128:(k + 1) * 128])  # [K=128, M=128]
            rhs_t = nl.load(rhs[k * 128:(k + 1) * 128, :])                                  # [K=128, N]
            acc += nisa.nc_matmul(lhs_t, rhs_t)
        nl.store(prod[m * 128:(m + 1) * 128, :], value=nl.copy(acc, dtype=lhs.dtype))
    return prod
