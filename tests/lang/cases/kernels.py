"""NKI-style kernel code: the subset the tracer cares about most."""
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
from neuronxcc.nki.typing import tensor
from . import sibling
from .. import parent as p
from ...pkg.mod import (a, b as c,)


@nki.jit(mode="simulation", debug=False)
def tensor_add_kernel(a_input, b_input, *, scale: float = 1.0) -> "nl.ndarray":
    c_output = nl.ndarray(a_input.shape, dtype=a_input.dtype, buffer=nl.shared_hbm)
    ix, iy = nl.mgrid[0:128, 0:512]
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(512)[None, :]
    for i in nl.affine_range(a_input.shape[0] // 128):
        a_tile = nl.load(a_input[i * 128 + ix, iy])
        b_tile = nl.load(b_input[i * 128 + i_p, i_f], mask=(i_p < 100))
        c_tile = a_tile + b_tile * scale
        nl.store(c_output[i * 128 + ix, iy], value=c_tile)
    for k in nl.sequential_range(4):
        acc = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.psum)
        acc += nisa.nc_matmul(a_tile[...], b_tile[:, 0:128:2])
    return c_output


@nki.jit
def matmul(lhsT, rhs, result):
    K, M = lhsT.shape
    K_, N = rhs.shape
    assert K == K_, f"contraction dims differ: {K} != {K_}"
    TILE_M = nl.tile_size.gemm_stationary_fmax
    res_psum = nl.zeros((TILE_M, N), nl.float32, buffer=nl.psum)
    for m in nl.affine_range(M // TILE_M):
        res_psum[...] = nisa.nc_matmul(lhsT[:, m * TILE_M:(m + 1) * TILE_M], rhs)
    nl.store(result[0:TILE_M, 0:N], value=res_psum)


class TestKernel(unittest.TestCase):
    def test_simulated(self):
        a = np.random.random_sample([256, 512]).astype(np.float32)
        b = np.random.random_sample([256, 512]).astype(np.float32)
        out = nki.simulate_kernel(tensor_add_kernel, a, b)
        self.assertTrue(np.allclose(out, a + b, atol=1e-5, rtol=1e-3))


if __name__ == "__main__":
    unittest.main()
