# nki-case: args=64x4x96:uint16,32x1:int32 init1=randint(0,64) target=trn2
# An indirect dma_transpose needs uint32 indices (HEAD nki/api/nki/isa docs, "DMA Indirect
# Transpose Constraints"); int32 is rejected.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gather_transpose(src, ids):
    _, d1, d2 = src.shape
    idx = nl.load(ids)
    i_p = nl.arange(32)[:, None]
    iy = nl.arange(d1)[None, :, None]
    iz = nl.arange(d2)[None, None, :]
    t = nisa.dma_transpose(src[idx[i_p, 0], iy, iz], axes=(2, 1, 0))  # expect-error: unsupported_dtype  # expect-col: 9
    out = nl.ndarray((d2, d1, 32), dtype=src.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=t)
    return out
