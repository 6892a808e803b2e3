# nki-case: args=4x128x512:float32
# expect-output: in0[3, :, 0:256]
# expect-note: current dialect; .ap(scalar_offset=s, indirect_dim=0): the SBUF value s selects the
# leading index of the base tensor (its stride is read from the base shape, 128 * 512;
# nki/migration/index.rst, "Scalar dynamic access")
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def pick_batch(A):
    batch_idx = nl.ndarray((1, 1), nl.int32, buffer=nl.sbuf)
    nisa.memset(batch_idx, value=3)
    result = nl.ndarray((128, 256), A.dtype, buffer=nl.sbuf)
    nisa.dma_copy(src=A.ap([[512, 128], [1, 256]], offset=0, scalar_offset=batch_idx, indirect_dim=0), dst=result)
    out = nl.ndarray((128, 256), A.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=result)
    return out
