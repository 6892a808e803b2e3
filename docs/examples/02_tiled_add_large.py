# Example 02: element-wise add of two [2048, 1024] bfloat16 tensors, tiled 128 x 512.
#
# Shows: a 2-D tile loop with nl.affine_range (independent iterations), slices whose bounds
# are affine in the loop indices, and the partition limit nl.tile_size.pmax. Loading the whole
# tensor at once would fail with err_num_partition_exceed_arch_limit.
#
# Try:
#   nkiagent check docs/examples/02_tiled_add_large.py --arg 2048x1024:bfloat16 --arg 2048x1024:bfloat16
#   nkiagent ir docs/examples/02_tiled_add_large.py --arg 2048x1024:bfloat16 --arg 2048x1024:bfloat16
#       -> one loop nest (16 x 2 trips) around load, load, add, store
#   python3 -c "import numpy as np; [np.save(f'/tmp/e02_{n}.npy', np.random.randn(2048, 1024).astype(np.float32)) for n in 'ab']"
#   nkiagent run docs/examples/02_tiled_add_large.py --input /tmp/e02_a.npy:bfloat16 --input /tmp/e02_b.npy:bfloat16 --out-dir /tmp/e02
#
# nki-case: args=2048x1024:bfloat16,2048x1024:bfloat16
# expect-output: in0 + in1
# expect-tol: rtol=2e-2 atol=2e-2
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def add_tiled(a, b):
    rows, cols = a.shape
    TP = nl.tile_size.pmax      # 128 partitions per tile
    TF = 512                    # free elements per tile
    assert rows % TP == 0 and cols % TF == 0
    total = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for r in nl.affine_range(rows // TP):
        for c in nl.affine_range(cols // TF):
            a_tile = nl.load(a[r * TP:(r + 1) * TP, c * TF:(c + 1) * TF])
            b_tile = nl.load(b[r * TP:(r + 1) * TP, c * TF:(c + 1) * TF])
            nl.store(total[r * TP:(r + 1) * TP, c * TF:(c + 1) * TF], value=nl.add(a_tile, b_tile))
    return total
