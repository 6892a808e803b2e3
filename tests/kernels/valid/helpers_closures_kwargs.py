# nki-case: args=128x256:float32
# Plain Python helpers are traced inline: a factory returning a closure, default arguments,
# keyword-only arguments, **kwargs forwarding and a helper nested inside the kernel that
# captures a tile from the enclosing scope.
# expect-output: -(2.0 * in0 + 1.5) + in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


def make_affine(scale, shift=0.0):
    def apply(t, *, extra=0.0):
        return nl.add(nl.multiply(t, scale), shift + extra)
    return apply


def cast_copy(t, **opts):
    return nl.copy(t, **opts)


@nki.jit
def composed_affine(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)

    def add_input(t):
        # closes over the loaded tile `xt`
        return nl.add(t, xt)

    f = make_affine(2.0, shift=1.0)
    g = make_affine(scale=-1.0)
    y = f(xt, extra=0.5)
    z = g(y)
    w = add_input(z)
    nl.store(out, value=cast_copy(w, dtype=nl.float32))
    return out
