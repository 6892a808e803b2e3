# Example 06: LayerNorm over the last axis of a [256, 512] tensor with [1, 512] gamma and beta.
#
# Shows: nl.mean with keepdims, nl.rsqrt, partition broadcasting of a [1, F] parameter row
# with nl.broadcast_to (done once, outside the loop), a tile reused by every iteration.
#
# Try:
#   nkiagent check docs/examples/06_layernorm.py --arg 256x512:float32 --arg 1x512:float32 --arg 1x512:float32
#   nkiagent ir docs/examples/06_layernorm.py --arg 256x512:float32 --arg 1x512:float32 --arg 1x512:float32
#   python3 -c "import numpy as np; r=np.random.randn; np.save('/tmp/e06_x.npy', r(256,512).astype(np.float32)); np.save('/tmp/e06_g.npy', r(1,512).astype(np.float32)); np.save('/tmp/e06_b.npy', r(1,512).astype(np.float32))"
#   nkiagent run docs/examples/06_layernorm.py --input /tmp/e06_x.npy --input /tmp/e06_g.npy --input /tmp/e06_b.npy --out-dir /tmp/e06
#
# nki-case: args=256x512:float32,1x512:float32,1x512:float32
# expect-output: (in0 - in0.mean(axis=1, keepdims=True)) / np.sqrt(in0.var(axis=1, keepdims=True) + 1e-5) * in1 + in2
# expect-tol: rtol=1e-3 atol=1e-3
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def layernorm(x, gamma, beta, eps=1e-5):
    rows, width = x.shape
    normed = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    g_all = nl.broadcast_to(nl.load(gamma), shape=(128, width))
    b_all = nl.broadcast_to(nl.load(beta), shape=(128, width))
    for r in nl.affine_range(rows // 128):
        xt = nl.load(x[r * 128:(r + 1) * 128, :])
        mu = nl.mean(xt, axis=1, keepdims=True)                     # [128, 1]
        centered = nl.subtract(xt, mu)
        var = nl.mean(nl.square(centered), axis=1, keepdims=True)   # [128, 1]
        inv_std = nl.rsqrt(nl.add(var, eps))
        y = nl.multiply(centered, inv_std)
        y = nl.add(nl.multiply(y, g_all), b_all)
        nl.store(normed[r * 128:(r + 1) * 128, :], value=y)
    return normed
