# Benchmark kernel (perf/toolchain_bench): element-wise a + b over 2^22 fp32 elements
# ([8192, 512]), in [128, 512] tiles: load, load, nl.add, store per tile.
#
# nki-case: args=8192x512:float32,8192x512:float32
# expect-output: in0 + in1
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def add_4m(a, b):
    rows, cols = a.shape
    TP = nl.tile_size.pmax
    TF = 512
    assert rows % TP == 0 and cols % TF == 0
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for r in nl.affine_range(rows // TP):
        for c in nl.affine_range(cols // TF):
            a_tile = nl.load(a[r * TP:(r + 1) * TP, c * TF:(c + 1) * TF])
            b_tile = nl.load(b[r * TP:(r + 1) * TP, c * TF:(c + 1) * TF])
            nl.store(out[r * TP:(r + 1) * TP, c * TF:(c + 1) * TF], value=nl.add(a_tile, b_tile))
    return out
