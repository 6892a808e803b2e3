# nki-case: args=128x64:float32,128x64:float32
# Running product-sum scan r[i] = r[i-1] * a[i] + b[i] with b loaded for half the rows.
# Error: tensor_tensor_scan's data0 and data1 need the same partitions.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def scan_rows(a, b):
    out = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    at = nl.load(a)
    bt = nl.load(b[0:64, :])
    r = nisa.tensor_tensor_scan(at, bt, 0.0, np.multiply, np.add)  # expect-error: err_num_partition_mismatch  # expect-col: 9
    nl.store(out, value=r)
    return out
