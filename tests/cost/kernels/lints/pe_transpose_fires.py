import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def pe_transpose(x):
    """perf_pe_transpose: each [128, 128] block is loaded, transposed on TensorE and copied out
    of PSUM. Whether a transposing load is cheaper depends on the dtype and the target (the DMA
    transpose path runs at a fraction of the engine rate): the lint fires only where it is."""
    out = nl.ndarray((x.shape[1], x.shape[0]), dtype=x.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(x.shape[0] // 128):
        b = nl.load(x[i * 128:(i + 1) * 128, :])
        t = nisa.nc_transpose(b)
        nl.store(out[:, i * 128:(i + 1) * 128], value=nl.copy(t))
    return out
