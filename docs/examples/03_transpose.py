# Example 03: transpose a [256, 384] matrix with TensorE transposes of 128 x 128 blocks.
#
# Shows: nisa.nc_transpose (TensorE result lands in PSUM), PSUM -> SBUF evacuation with nl.copy
# (SDK 2.24 cannot store PSUM directly: err_unsupported_memory), block index swapping.
#
# Try:
#   nkiagent check docs/examples/03_transpose.py --arg 256x384:float32
#   nkiagent ir docs/examples/03_transpose.py --arg 256x384:float32
#   python3 -c "import numpy as np; np.save('/tmp/e03_x.npy', np.random.randn(256, 384).astype(np.float32))"
#   nkiagent run docs/examples/03_transpose.py --input /tmp/e03_x.npy --out-dir /tmp/e03   -> out0 = x.T
#
# nki-case: args=256x384:float32
# expect-output: in0.T
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def transpose_blocks(x):
    R, C = x.shape
    B = 128
    xt_out = nl.ndarray((C, R), dtype=x.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(R // B):
        for j in nl.affine_range(C // B):
            blk = nl.load(x[i * B:(i + 1) * B, j * B:(j + 1) * B])
            flipped = nisa.nc_transpose(blk)                 # [B, B] in PSUM
            nl.store(xt_out[j * B:(j + 1) * B, i * B:(i + 1) * B], value=nl.copy(flipped))
    return xt_out
