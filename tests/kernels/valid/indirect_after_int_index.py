# nki-case: args=2x50x64:float32,128x1:int32 init1=randint(0,50)
# Row gather through an index tile placed after a leading integer (loop) index: the integer
# drops dim 0, so dim 1 is the access's partition dim and may be indirect. The nki-samples
# resize_nearest kernel gathers pixels this way (data[b, idx_tile, i_f]).
# expect-output: np.stack([in0[b][in1[:, 0].astype(np.int64)] for b in range(2)])
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def gather_rows_per_batch(data, idx):
    out = nl.ndarray((2, 128, 64), dtype=data.dtype, buffer=nl.shared_hbm)
    i_f = nl.arange(64)[None, :]
    ids = nl.load(idx)
    for b in nl.affine_range(2):
        rows = nl.load(data[b, ids, i_f])
        nl.store(out[b], value=rows)
    return out
