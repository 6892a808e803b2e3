# nki-case: args=128x12800:float32,128x12800:float32,128x12800:float32
# Three [128, 12800] fp32 tiles (50 KiB per partition each) are live when
# e = nisa.activation(exp, z) runs, and that activation is z's last use: its result may take z's
# SBUF, so 150 KiB are needed, not 200 KiB (trn1 has 192 KiB per partition). The capacity check
# must not add a result to the operands it can replace.
# expect-output: np.exp(in2) * in0 + in1
# expect-tol: rtol=1e-4 atol=1e-3
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def exp_fma(x, y, w):
    out = nl.ndarray((128, 12800), dtype=nl.float32, buffer=nl.shared_hbm)
    a = nl.load(x)
    b = nl.load(y)
    z = nl.load(w)
    e = nisa.activation(op=nl.exp, data=z)
    r = nl.add(nl.multiply(e, a), b)
    nl.store(out, value=r)
    return out
