# nki-case: args=128x512:float32,128x512:float32
# Accumulates x into a mutable output with dma_copy(dst_rmw_op=np.add) and oob_mode=skip.
# Fix: keep the default oob_mode.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.typing as nt


@nki.jit
def accumulate(acc: nt.mutable_tensor, x):
    nisa.dma_copy(dst=acc, src=x, dst_rmw_op=np.add)
    return acc
