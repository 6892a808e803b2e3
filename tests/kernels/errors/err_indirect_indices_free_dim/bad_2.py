# nki-case: args=128x256:float32,1x32:int32 init1=randint(0,256)
# Gathers 32 columns by runtime indices with an indirect index on the free dimension.
# Indirect DMA indices are only allowed on the partition (or block) dimension.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gather_cols(table, idx):
    res = nl.ndarray((128, 32), dtype=table.dtype, buffer=nl.shared_hbm)
    ids = nl.load(idx)
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(32)[None, :]
    cols = nl.load(table[i_p, ids[0, i_f]])  # expect-error: err_indirect_indices_free_dim  # expect-col: 20
    nl.store(res, value=cols)
    return res
