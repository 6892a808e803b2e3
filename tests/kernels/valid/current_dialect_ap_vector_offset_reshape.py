# nki-case: args=4x8:float32 init0=arange
# expect-output: in0[:, 1:2]
# expect-note: current dialect; a vector_offset scales by the dim-0 stride of the tensor .ap is called on
# (indirect_dim "in self.shape", nki/api/nki/language/__init__.py NkiTensor.ap; nki/deep-dives/nki-aps.rst):
# on A reshaped to [32, 1] the offsets 1, 9, 17, 25 pick elements, not rows of A
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def column_by_flat_index(A):
    flat = A.reshape((32, 1))
    idx = nl.ndarray((4, 1), nl.int32, buffer=nl.sbuf)
    nisa.iota(idx, [[0, 1]], offset=1, channel_multiplier=8)
    r = nl.ndarray((4, 1), nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=r, src=flat.ap([[1, 4], [1, 1]], offset=0, vector_offset=idx, indirect_dim=0))
    out = nl.ndarray((4, 1), nl.float32, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=r)
    return out
