# nki-case: args=256x128:float32,64x1:int32 init1=randint(0,256)
# Gathers 64 table rows by runtime indices, building the companion indices with nl.mgrid.
# With nl.mgrid the indirect index is not confined to the partition dim.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gather_rows(table, idx):
    res = nl.ndarray((64, 128), dtype=table.dtype, buffer=nl.shared_hbm)
    ids = nl.load(idx)
    i_p, i_f = nl.mgrid[0:64, 0:128]
    rows = nl.load(table[ids[i_p, 0], i_f])  # expect-error: err_indirect_indices_free_dim  # expect-col: 20
    nl.store(res, value=rows)
    return res
