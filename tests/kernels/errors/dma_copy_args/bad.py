# nki-case: args=128x512:float32,128x512:float32
# Accumulates x into a mutable output with dma_copy(dst_rmw_op=np.add) and oob_mode=skip.
# Error: with dst_rmw_op only oob_mode=nisa.oob_mode.error is allowed.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.typing as nt


@nki.jit
def accumulate(acc: nt.mutable_tensor, x):
    nisa.dma_copy(dst=acc, src=x, dst_rmw_op=np.add, oob_mode=nisa.oob_mode.skip)  # expect-error: dma_copy_args  # expect-col: 5
    return acc
