# nki-case: args=16x8x128x2x512:float32
# allow-warning: block_dimension_deprecated (the case declares a block-dimension tensor on purpose)
# The exp example of the SDK 2.24 block-dimension migration guide
# (general/nki/nki_block_dimension_migration_guide.rst) with block dims (16, 8): the tensor is
# 16 x 8 x 4 KiB = 512 KiB per partition in total, but block dimensions are logical. Every access
# selects block [i, j] inside the loops over i and j, so one physical tile per iteration is
# enough (the guide: "at the very minimum, only 1 physical tile of a needs to be alive"). The
# capacity check must not count the whole tensor. (SDK 2.24 warns that block dims are
# deprecated: block_dimension_deprecated.)
# expect-output: np.exp(in0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def exp_func(inp):
    output = nl.ndarray((16, 8, 128, 2, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    a = nl.ndarray((16, 8, nl.par_dim(128), 2, 512), dtype=nl.float32, buffer=nl.sbuf)
    for i in range(16):
        for j in range(8):
            a[i, j] = nl.load(inp[i, j])
            a[i, j] = nl.exp(a[i, j])
            nl.store(output[i, j], value=a[i, j])
    return output
