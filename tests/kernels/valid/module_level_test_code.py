# nki-case: args=128x512:float32
# A kernel file as LLMs and the official docs write them: module-level NumPy code, a host-side
# reference function, a unittest class and an `if __name__ == "__main__":` block. None of it
# may break tracing of the kernel. nl.tile_size constants are allowed outside kernels.
# expect-output: np.exp(in0) * 0.5
import unittest
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

PMAX = nl.tile_size.pmax
RNG = np.random.default_rng(7)
SAMPLE = RNG.standard_normal((PMAX, 512)).astype(np.float32)


def reference(x):
    return np.exp(x) * 0.5


@nki.jit
def half_exp(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.load(x)
    nl.store(out, value=nl.multiply(nl.exp(t), 0.5))
    return out


class TestHalfExp(unittest.TestCase):
    def test_matches_reference(self):
        got = nki.simulate_kernel(half_exp, SAMPLE)
        self.assertTrue(np.allclose(got, reference(SAMPLE), atol=1e-5))


if __name__ == "__main__":
    result = half_exp(SAMPLE)
    print("max abs err", np.abs(result - reference(SAMPLE)).max())
    unittest.main()
