# Example 01: element-wise add of two [128, 512] tensors (one tile, no loop).
#
# Shows: the legacy calling convention (inputs are HBM tensors, the output is created in
# shared HBM and returned), nl.load / nl.add / nl.store.
#
# Try:
#   nkiagent check docs/examples/01_elementwise_add.py --arg 128x512:float32 --arg 128x512:float32
#       -> exit 0, no diagnostics
#   nkiagent ir docs/examples/01_elementwise_add.py --arg 128x512:float32 --arg 128x512:float32
#       -> two DMA loads, one VectorE add, one DMA store
#   python3 -c "import numpy as np; [np.save(f'/tmp/e01_{n}.npy', np.random.randn(128, 512).astype(np.float32)) for n in 'ab']"
#   nkiagent run docs/examples/01_elementwise_add.py --input /tmp/e01_a.npy --input /tmp/e01_b.npy --out-dir /tmp/e01
#       -> /tmp/e01/out0.npy == a + b
#
# nki-case: args=128x512:float32,128x512:float32
# expect-output: in0 + in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def add_one_tile(a, b):
    total = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    a_tile = nl.load(a)          # HBM -> SBUF, 128 partitions x 512 elements
    b_tile = nl.load(b)
    nl.store(total, value=nl.add(a_tile, b_tile))
    return total
