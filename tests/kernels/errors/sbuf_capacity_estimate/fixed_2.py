# nki-case: args=64x128x1024:float32
# warn_2.py keeps all 64 blocks of buf alive between two loops (256 KiB per partition).
# Fix (the guide's "hoist it down" migration): store each block in the loop that loads it, with
# the tile created inside the loop: one 4 KiB tile per iteration.
# expect-output: in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def sb_blocks(inp):
    res = nl.ndarray(shape=(64, 128, 1024), dtype=inp.dtype, buffer=nl.shared_hbm)
    for i in range(64):
        buf = nl.ndarray(shape=(128, 1024), dtype=inp.dtype, buffer=nl.sbuf)
        buf[...] = nl.load(inp[i])
        nl.store(res[i], buf)
    return res
