import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def fp32_matmul_fixed(lhsT, rhs):
    """fp32_matmul_fires with the hint applied: operands cast to bfloat16 on load, fp32 PSUM."""
    out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    a = nl.load(lhsT, dtype=nl.bfloat16)
    b = nl.load(rhs, dtype=nl.bfloat16)
    acc = nl.zeros((128, 512), nl.float32, buffer=nl.psum)
    for i in nl.affine_range(32):
        acc += nisa.nc_matmul(a, b)
    nl.store(out, value=nl.copy(acc))
    return out
