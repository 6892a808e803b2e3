# nki-case: args=128x64:float32
# expect-output: in0
# expect-note: SDK 2.24 nisa.activation takes **kwargs and ignores dst=; its new tile is discarded,
# so the kernel stores the unchanged input. The warning names the 2.24 spelling.
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def exp_tile(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.load(x)
    r = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    nisa.activation(dst=r, op=nl.exp, data=t)  # expect-warning: destination_passing_in_legacy_dialect
    nl.store(out, value=t)
    return out
