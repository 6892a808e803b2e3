# nki-case: args=128x512:float32
# expect-output: in0[0:128:2, :]
# expect-note: current dialect; .ap(vector_offset=idx, indirect_dim=0) gathers rows idx[w] of the
# base tensor (nki/migration/index.rst, "Vector dynamic access"); iota makes idx = 0, 2, ..., 126
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def gather_even_rows(A):
    idx = nl.ndarray((64, 1), nl.int32, buffer=nl.sbuf)
    nisa.iota(idx, [[1, 1]], offset=0, channel_multiplier=2)
    result_sb = nl.ndarray((64, 512), nl.float32, buffer=nl.sbuf)
    result_hbm = nl.ndarray((64, 512), nl.float32, buffer=nl.shared_hbm)
    nisa.dma_copy(src=A.ap([[512, 64], [1, 512]], offset=0, vector_offset=idx, indirect_dim=0), dst=result_sb)
    nisa.dma_copy(result_hbm, result_sb)
    return result_hbm
