# nki-case: args=128x256:float32
# Allocates the kernel output inside a small helper function.
# shared_hbm tensors may only be created at the top level of the kernel body.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


def alloc_like(t):
    return nl.ndarray(t.shape, dtype=t.dtype, buffer=nl.shared_hbm)  # expect-error: err_shared_hbm_must_in_kernel_level  # expect-col: 12


@nki.jit
def tanh_kernel(x):
    res = alloc_like(x)
    nl.store(res, value=nl.tanh(nl.load(x)))
    return res
