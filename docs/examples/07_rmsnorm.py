# Example 07: RMSNorm of a [384, 1024] tensor with a [1, 1024] weight row.
#
# Shows: sum of squares over the free axis, rsqrt of the mean square, per-row scaling by a
# [128, 1] column (free-dim broadcast) and per-column scaling by the broadcast weight.
#
# Try:
#   nkiagent check docs/examples/07_rmsnorm.py --arg 384x1024:float32 --arg 1x1024:float32
#   nkiagent ir docs/examples/07_rmsnorm.py --arg 384x1024:float32 --arg 1x1024:float32
#   python3 -c "import numpy as np; np.save('/tmp/e07_x.npy', np.random.randn(384,1024).astype(np.float32)); np.save('/tmp/e07_w.npy', np.random.randn(1,1024).astype(np.float32))"
#   nkiagent run docs/examples/07_rmsnorm.py --input /tmp/e07_x.npy --input /tmp/e07_w.npy --out-dir /tmp/e07
#
# nki-case: args=384x1024:float32,1x1024:float32
# expect-output: in0 / np.sqrt((in0 * in0).mean(axis=1, keepdims=True) + 1e-6) * in1
# expect-tol: rtol=1e-3 atol=1e-3
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def rmsnorm(x, weight, eps=1e-6):
    rows, width = x.shape
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    w_all = nl.broadcast_to(nl.load(weight), shape=(128, width))
    for r in nl.affine_range(rows // 128):
        xt = nl.load(x[r * 128:(r + 1) * 128, :])
        sq_sum = nl.sum(nl.square(xt), axis=1, keepdims=True)              # [128, 1]
        inv_rms = nl.rsqrt(nl.add(nl.multiply(sq_sum, 1.0 / width), eps))  # [128, 1]
        y = nl.multiply(nl.multiply(xt, inv_rms), w_all)
        nl.store(out[r * 128:(r + 1) * 128, :], value=y)
    return out
