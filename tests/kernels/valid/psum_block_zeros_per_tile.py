# nki-case: args=128x128:float32,128x512:float32 init0=rand(-1,1) init1=rand(-1,1)
# allow-warning: block_dimension_deprecated (the case declares a block-dimension tensor on purpose)
# allow-warning: psum_capacity_estimate (the estimate is a warning of ours; the kernel is valid)
# A PSUM block tensor created with nl.zeros, as compiler-generated kernels (AccelOpt NKIBench,
# run on trn1) declare their matmul accumulators: 16 x 2 blocks of [128, 512] fp32 = 64 KiB per
# partition in total, four times the 16 KiB of a PSUM partition. Block dimensions are logical
# (general/nki/nki_block_dimension_migration_guide.rst) and the zero-fill has no tensor operand,
# so it can be done one logical tile at a time; each block is then written and read inside the
# loops. The operand check must not count the whole zero-fill as needed at once.
# expect-output: 32 * (in0.T @ in1)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def blocked_psum(lhsT, rhs):
    out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    acc = nl.zeros((16, 2, nl.par_dim(128), 512), dtype=nl.float32, buffer=nl.psum)
    total = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.sbuf)
    a = nl.load(lhsT)
    b = nl.load(rhs)
    for i in nl.sequential_range(16):
        for j in nl.sequential_range(2):
            acc[i, j] = nisa.nc_matmul(a, b)
            total[...] = nl.add(total, acc[i, j])
    nl.store(out, value=total)
    return out
