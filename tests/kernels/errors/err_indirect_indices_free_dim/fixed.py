# nki-case: args=256x128:float32,64x1:int32 init1=randint(0,256)
# Gathers 64 table rows by runtime indices, building the companion indices with nl.mgrid.
# Fix: build the indices with nl.arange (column vector / row vector).
# expect-output: in0[in1[:, 0]]
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gather_rows(table, idx):
    res = nl.ndarray((64, 128), dtype=table.dtype, buffer=nl.shared_hbm)
    ids = nl.load(idx)
    i_p = nl.arange(64)[:, None]
    i_f = nl.arange(128)[None, :]
    rows = nl.load(table[ids[i_p, 0], i_f])
    nl.store(res, value=rows)
    return res
