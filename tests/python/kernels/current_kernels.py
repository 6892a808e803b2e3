"""Current-dialect (`import nki`) kernels for test_current_dialect.py."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def scaled_sum(a, b, scale):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    rows, cols = a.shape
    for i in nl.affine_range(rows // 128):
        x = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
        y = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=x, src=a[i * 128:(i + 1) * 128, :])
        nisa.dma_copy(dst=y, src=b[i * 128:(i + 1) * 128, :])
        nisa.tensor_tensor(dst=x, data1=x, data2=y, op=nl.add)
        nisa.tensor_scalar(dst=x, data=x, op0=nl.multiply, operand0=scale)
        nisa.dma_copy(dst=out[i * 128:(i + 1) * 128, :], src=x)
    return out


@nki.jit
def core_ids(a):
    # kernel[2]: two logical cores, each writes its half with its program id added.
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    half = a.shape[0] // 2
    pid = nl.program_id(0)
    t = nl.ndarray((half, a.shape[1]), dtype=a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a[pid * half:(pid + 1) * half, :])
    nisa.tensor_scalar(dst=t, data=t, op0=nl.add, operand0=1.0)
    nisa.dma_copy(dst=out[pid * half:(pid + 1) * half, :], src=t)
    return out


@nki.jit
def functional_style(a):
    t = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
    e = nisa.activation(op=nl.exp, data=t)
    return e
