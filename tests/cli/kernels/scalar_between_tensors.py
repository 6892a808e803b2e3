# A kernel whose compile-time scalar `eps` sits between its two tensor parameters: positional
# --arg values cannot reach `y` without binding `eps` by name (tests/cli/named_args_test.cpp).
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def scale_add(x, eps, y, *, bias=0.0):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    a = nl.load(x)
    b = nl.load(y)
    nl.store(out, value=nl.add(nl.add(nl.multiply(a, eps), b), bias))
    return out
