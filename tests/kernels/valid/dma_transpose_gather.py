# nki-case: args=64x4x96:uint16,32x1:uint32 init0=randint(0,1000) init1=randint(0,64) target=trn2
# nisa.dma_transpose of an indirectly indexed HBM source (HEAD nki/api/nki/isa docs, "DMA Indirect
# Transpose"): rows gathered by a [32, 1] uint32 index tile, then transposed with axes (2, 1, 0).
# The index tile's values run along the partition dim while the companion aranges are 3-D.
# expect-output: np.transpose(in0[in1.reshape(-1)], (2, 1, 0))
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
    t = nisa.dma_transpose(src[idx[i_p, 0], iy, iz], axes=(2, 1, 0))
    out = nl.ndarray((d2, d1, 32), dtype=src.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=t)
    return out
