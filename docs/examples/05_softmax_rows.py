# Example 05: numerically stable softmax over each row of a [256, 512] tensor.
#
# Shows: free-axis reductions with keepdims (a [128, 1] column per tile), free-dim
# broadcasting of that column against the [128, 512] tile, ScalarE exp, VectorE reciprocal.
#
# Try:
#   nkiagent check docs/examples/05_softmax_rows.py --arg 256x512:float32
#   nkiagent ir docs/examples/05_softmax_rows.py --arg 256x512:float32
#   python3 -c "import numpy as np; np.save('/tmp/e05_x.npy', 4 * np.random.randn(256, 512).astype(np.float32))"
#   nkiagent run docs/examples/05_softmax_rows.py --input /tmp/e05_x.npy --out-dir /tmp/e05   -> rows sum to 1
#
# nki-case: args=256x512:float32
# expect-output: np.exp(in0 - in0.max(axis=1, keepdims=True)) / np.exp(in0 - in0.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)
# expect-tol: rtol=1e-3 atol=1e-6
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def softmax_rows(x):
    probs = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for r in nl.affine_range(x.shape[0] // 128):
        xt = nl.load(x[r * 128:(r + 1) * 128, :])
        row_max = nl.max(xt, axis=1, keepdims=True)            # [128, 1]
        e = nl.exp(nl.subtract(xt, row_max))                   # [128, 512]
        denom = nl.sum(e, axis=1, keepdims=True)               # [128, 1]
        nl.store(probs[r * 128:(r + 1) * 128, :], value=nl.multiply(e, nl.reciprocal(denom)))
    return probs
