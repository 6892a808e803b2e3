# nki-case: args=128x64:float32
# A helper that builds a tile of ones is called at module level to cache the tile.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


def make_ones():
    return nl.ones((128, 64), dtype=nl.float32, buffer=nl.sbuf)  # expect-error: err_nki_api_outside_of_nki_kernel  # expect-col: 12


ONES = make_ones()


@nki.jit
def add_ones(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(res, value=nl.add(nl.load(x), ONES))
    return res
