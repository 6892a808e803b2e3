# nki-case: args=128x128:float32,128x128:float32
# Imports of framework modules the toolchain does not model (torch, torch_xla, jax) that the
# kernel never uses must not break checking; `math` is used at trace time.
# expect-output: np.maximum(in0, in1)
import math
import numpy as np
import torch
import torch_xla.core.xla_model as xm
import jax.numpy as jnp
from torch_neuronx import nki_jit
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def elementwise_max(a, b):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    n_tiles = math.ceil(a.shape[0] / 128)
    for i in nl.affine_range(n_tiles):
        m = nl.maximum(nl.load(a[i * 128:(i + 1) * 128, :]), nl.load(b[i * 128:(i + 1) * 128, :]))
        nl.store(out[i * 128:(i + 1) * 128, :], value=m)
    return out
