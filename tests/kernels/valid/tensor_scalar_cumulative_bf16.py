# nki-case: args=128x64:bfloat16 init0=rand(0,1)
# nisa.tensor_scalar_cumulative on a bfloat16 tile (an allowed input/output dtype): the running
# product of (x + 1) per row, folded in fp32 and rounded to bf16 once per stored element.
# expect-output: np.multiply.accumulate(in0 + 1.0, axis=1)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def running_product(x):
    out = nl.ndarray(x.shape, dtype=nl.bfloat16, buffer=nl.shared_hbm)
    xt = nl.load(x)
    p = nl.ndarray(x.shape, dtype=nl.bfloat16, buffer=nl.sbuf)
    nisa.tensor_scalar_cumulative(dst=p, src=xt, op0=nl.add, op1=nl.multiply, imm0=1.0)
    nl.store(out, value=p)
    return out
