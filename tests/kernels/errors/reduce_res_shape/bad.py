# nki-case: args=128x512:float32
# expect-message: [128, 1]
# expect-hint: [P, 1]
# Row maxima of x * 0.5 with tensor_scalar_reduce into a full-width reduce_res.
# Error: reduce_res holds one element per partition: [P, 1].
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def half_row_max(x):
    out = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.shared_hbm)
    m = nl.ndarray((128, 512), dtype=nl.float32)
    y = nisa.tensor_scalar_reduce(data=nl.load(x), op0=nl.multiply, operand0=0.5, reduce_op=nl.max, reduce_res=m)  # expect-error: reduce_res_shape  # expect-col: 9
    nl.store(out, value=m)  # expect-also-error: err_store_dst_shape_smaller_than_other_shape
    return out
