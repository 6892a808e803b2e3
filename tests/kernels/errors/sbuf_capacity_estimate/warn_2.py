# nki-case: args=64x128x1024:float32
# allow-warning: block_dimension_deprecated (the case declares a block-dimension tensor on purpose)
# The first pattern of the SDK 2.24 block-dimension migration guide with 64 blocks: every block
# of buf is loaded in the first loop and stored in the second, so all 64 physical tiles of
# 4 KiB are alive at the same time between the loops: 256 KiB per partition, more than the
# 192 KiB of trn1. An estimate (the compiler could schedule differently), so a warning.
# expect-output: in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def sb_blocks(inp):
    res = nl.ndarray(shape=(64, 128, 1024), dtype=inp.dtype, buffer=nl.shared_hbm)
    buf = nl.ndarray(shape=(64, nl.par_dim(128), 1024), dtype=inp.dtype, buffer=nl.sbuf)  # expect-warning: sbuf_capacity_estimate
    for i in range(64):
        buf[i] = nl.load(inp[i])
    for i in range(64):
        nl.store(res[i], buf[i])
    return res
