# nki-case: args=256x96:float32
# Host-side Python inside the kernel: asserts on shapes, compile-time if/else on shapes,
# a Python while loop, f-strings, print, min/max and integer arithmetic.
# expect-output: in0 + 96.0
import math
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def shape_driven(x):
    rows, cols = x.shape
    assert rows % 128 == 0, f"rows must be a multiple of 128, got {rows}"
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    width = 1
    while width < cols:
        width *= 2
    tile_cols = min(width, 512)
    print(f"tracing with {rows // 128} row tiles, padded width {width}, tile width {tile_cols}")
    if cols > 256:
        bump = float(max(cols, 0))
    else:
        bump = float(cols)
    for r in nl.affine_range(rows // 128):
        t = nl.load(x[r * 128:(r + 1) * 128, :])
        nl.store(out[r * 128:(r + 1) * 128, :], value=nl.add(t, bump))
    return out
