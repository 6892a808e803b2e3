# nki-case: args=128x256:float32,1x32:int32 init1=randint(0,256)
# Gathers 32 columns by runtime indices with an indirect index on the free dimension.
# Fix: load the table and gather per partition on-chip with nl.gather_flattened.
# expect-output: in0[:, in1[0]]
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gather_cols(table, idx):
    res = nl.ndarray((128, 32), dtype=table.dtype, buffer=nl.shared_hbm)
    ids = nl.load(idx, dtype=nl.uint32)
    full = nl.load(table)
    cols = nl.gather_flattened(full, nl.broadcast_to(ids, shape=(128, 32)))
    nl.store(res, value=cols)
    return res
