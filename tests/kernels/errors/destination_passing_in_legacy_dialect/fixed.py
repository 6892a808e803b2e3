# nki-case: args=128x64:float32
# expect-output: np.exp(in0)
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def exp_tile(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.load(x)
    r = nisa.activation(op=nl.exp, data=t)
    nl.store(out, value=r)
    return out
