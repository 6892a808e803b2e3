# nki-case: args=200x64:float32
# expect-hint: clip ragged tiles in the slice (e.g. x[i * 128 : min((i + 1) * 128, n)]); NKI 0.2+ has no masks
# expect-note: current dialect: the shared bounds check's hint is given in 0.2+ terms (slices, not masks)
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def copy_rows(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for i in range(2):
        t = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=t, src=x[i * 128:(i + 1) * 128, :])  # expect-error: err_tensor_access_out_of_bound  # expect-col: 34
        nisa.dma_copy(dst=out[i * 128:(i + 1) * 128, :], src=t)  # expect-also-error: err_tensor_access_out_of_bound
    return out
