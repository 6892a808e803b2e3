# nki-case: args=256x128:float32,256x512:float32,2x128x64:float32
# allow-warning: block_dimension_deprecated (the case declares a block-dimension tensor on purpose)
# Directly-allocated kernel: the PSUM accumulator cannot be created with nl.zeros
# (err_tensor_creation_on_scratchpad_with_init_value_not_supported), so it is an uninitialised
# nl.ndarray and `acc[0] += nisa.nc_matmul(...)` inside affine_range forms a matmul
# accumulation group whose first matmul overwrites the bank (arch guide, "PSUM accumulation").
# The accumulator is re-created in every iteration of the outer loop, so each group starts afresh.
# expect-output: (in0.T @ in1, np.stack([in2[i].T @ in1[:128, :] for i in range(2)]))
# expect-tol: rtol=1e-3 atol=1e-3
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


@nki.jit
def alloc_accumulate(a, b, c):
    K, M = a.shape
    _, N = b.shape
    out = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.shared_hbm)
    out2 = nl.ndarray((2, 64, N), dtype=nl.float32, buffer=nl.shared_hbm)
    a_t = nl.ndarray((K // 128, nl.par_dim(128), M), dtype=a.dtype,
                     buffer=ncc.sbuf.mod_alloc(base_addr=0, num_free_tiles=(K // 128,)))
    b_t = nl.ndarray((K // 128, nl.par_dim(128), N), dtype=b.dtype,
                     buffer=ncc.sbuf.mod_alloc(base_addr=4096, num_free_tiles=(K // 128,)))
    res = nl.ndarray((nl.par_dim(128), N), dtype=nl.float32, buffer=ncc.sbuf.mod_alloc(base_addr=16384))
    for k in nl.affine_range(K // 128):
        a_t[k] = nl.load(a[k * 128:(k + 1) * 128, :])
        b_t[k] = nl.load(b[k * 128:(k + 1) * 128, :])
    acc = nl.ndarray((1, nl.par_dim(M), N), dtype=nl.float32,
                     buffer=ncc.psum.mod_alloc(base_bank=0, num_bank_tiles=(1,)))
    for k in nl.affine_range(K // 128):
        acc[0] += nisa.nc_matmul(a_t[k], b_t[k])
    res[...] = nl.copy(acc[0], dtype=nl.float32)
    nl.store(out, value=res)

    # One accumulation group per outer iteration; a single matmul each.
    for i in nl.affine_range(2):
        c_t = nl.ndarray((nl.par_dim(128), 64), dtype=c.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=20480))
        c_t[...] = nl.load(c[i])
        acc2 = nl.ndarray((1, nl.par_dim(64), N), dtype=nl.float32,
                          buffer=ncc.psum.mod_alloc(base_bank=1, num_bank_tiles=(1,)))
        acc2[0] += nisa.nc_matmul(c_t, b_t[0])
        res2 = nl.ndarray((nl.par_dim(64), N), dtype=nl.float32, buffer=ncc.sbuf.mod_alloc(base_addr=24576))
        res2[...] = nl.copy(acc2[0], dtype=nl.float32)
        nl.store(out2[i], value=res2)
    return out, out2
