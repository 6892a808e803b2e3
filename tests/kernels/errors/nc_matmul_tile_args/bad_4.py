# nki-case: args=32x32:bfloat16,32x512:bfloat16 target=trn1
# A 32x32 PE tile on NeuronCore-v2 (trn1).
# Error: on NeuronCore-v2 tile_size cannot be (32, 32).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def tiny_matmul(a, b):
    res = nl.ndarray((32, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    ps = nisa.nc_matmul(nl.load(a), nl.load(b), tile_position=(0, 0), tile_size=(32, 32))  # expect-error: nc_matmul_tile_args  # expect-col: 10
    nl.store(res, value=nl.copy(ps))
    return res
