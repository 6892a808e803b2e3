# nki-case: args=128x64:float32,128x64:float32
# Running product-sum scan r[i] = r[i-1] * a[i] + b[i] with b loaded for half the rows.
# Fix: load b for all 128 rows.
# expect-note: a first-order linear recurrence; no expect-output to keep the check independent of scan rounding
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def scan_rows(a, b):
    out = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    at = nl.load(a)
    bt = nl.load(b)
    r = nisa.tensor_tensor_scan(at, bt, 0.0, np.multiply, np.add)
    nl.store(out, value=r)
    return out
