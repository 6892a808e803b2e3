# nki-case: args=128x512:float32
# Trace-time Python from the nki-samples attention kernels: a frozen @dataclass config built
# with keyword arguments, and functools.reduce(operator.mul, shape) for an element count.
# expect-output: in0 * 3.0 + 65536.0
from dataclasses import dataclass
from functools import reduce
from operator import mul
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@dataclass(frozen=True)
class Config:
    scale: float = 1.0
    add_size: bool = False


def n_elts(shape):
    return reduce(mul, shape, 1)


@nki.jit
def configured_scale(x):
    cfg = Config(scale=3.0, add_size=True)
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.multiply(nl.load(x), cfg.scale)
    if cfg.add_size:
        t = nl.add(t, float(n_elts(x.shape)))
    nl.store(out, value=t)
    return out
