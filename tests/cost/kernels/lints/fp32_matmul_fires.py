import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def fp32_matmul_fires(lhsT, rhs):
    """perf_fp32_matmul: 32 fp32 matmuls on tiles loaded once, bound by TensorE."""
    out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    a = nl.load(lhsT)
    b = nl.load(rhs)
    acc = nl.zeros((128, 512), nl.float32, buffer=nl.psum)
    for i in nl.affine_range(32):
        acc += nisa.nc_matmul(a, b)
    nl.store(out, value=nl.copy(acc))
    return out
