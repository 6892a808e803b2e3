# nki-case: args=256x128:float32,64x1:int32 init1=randint(0,256)
# Counterpart of indirect_index_out_of_bounds.py with in-range indices: runs and matches NumPy.
# expect-output: in0[in1[:, 0]]
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def gather_rows_ok(table, idx):
    res = nl.ndarray((64, 128), dtype=table.dtype, buffer=nl.shared_hbm)
    ids = nl.load(idx)
    i_p = nl.arange(64)[:, None]
    i_f = nl.arange(128)[None, :]
    rows = nl.load(table[ids[i_p, 0], i_f])
    nl.store(res, value=rows)
    return res
