# Example 09: clip a [333, 700] tensor to [-1, 1] with 128 x 512 tiles and masks.
#
# Shows: nl.mgrid index grids, affine row/column index expressions, a combined mask
# ((rows < R) & (cols < C)) on the load and on the store for the ragged last tiles. Without
# the masks the last tiles read/write past the edge: err_tensor_access_out_of_bound.
#
# Try:
#   nkiagent check docs/examples/09_masked_ragged.py --arg 333x700:float32
#   nkiagent ir docs/examples/09_masked_ragged.py --arg 333x700:float32     -> masked DMA shapes
#   python3 -c "import numpy as np; np.save('/tmp/e09_x.npy', 2 * np.random.randn(333,700).astype(np.float32))"
#   nkiagent run docs/examples/09_masked_ragged.py --input /tmp/e09_x.npy --out-dir /tmp/e09
#
# nki-case: args=333x700:float32
# expect-output: np.clip(in0, -1.0, 1.0)
import math
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def clip_ragged(x):
    R, C = x.shape
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for r in nl.affine_range(math.ceil(R / 128)):
        for c in nl.affine_range(math.ceil(C / 512)):
            i_p, i_f = nl.mgrid[0:128, 0:512]
            rows = r * 128 + i_p
            cols = c * 512 + i_f
            valid = (rows < R) & (cols < C)
            t = nl.load(x[rows, cols], mask=valid)
            y = nl.minimum(nl.maximum(t, -1.0), 1.0)
            nl.store(out[rows, cols], value=y, mask=valid)
    return out
