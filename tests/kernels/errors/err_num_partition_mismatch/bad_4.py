# nki-case: args=128x256:float32,128x256:float32
# Computes (x + 1) * y with scalar_tensor_tensor, loading only 64 rows of y.
# Error: operand1 of scalar_tensor_tensor must have data's shape, partitions included.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def fused_add_mul(x, y):
    out = nl.ndarray((128, 256), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    yt = nl.load(y[0:64, :])
    r = nisa.scalar_tensor_tensor(data=xt, op0=nl.add, operand0=1.0, op1=nl.multiply, operand1=yt)  # expect-error: err_num_partition_mismatch  # expect-col: 9
    nl.store(out, value=r)
    return out
