import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def token_logprobs_kernel(logits, ids):
    """out[n] = logits[n, ids[n]] - logsumexp(logits[n]) for float32 logits [N, V] (N a multiple of 128).

    Rows on partitions.  The log-normaliser is a max-shifted sum of exponentials along the
    free axis.  The chosen logit is fetched by an indirect DMA: viewing logits as [N * V, 1],
    row n's element sits at flat index n * V + ids[n], computed on the Vector engine in int32.
    """
    N, V = logits.shape
    P = nl.tile_size.pmax
    out = nl.ndarray((N,), dtype=logits.dtype, buffer=nl.shared_hbm)
    out_col = out.reshape((N, 1))
    ids_col = ids.reshape((N, 1))
    flat = logits.reshape((N * V, 1))
    i_p = nl.arange(P)[:, None]
    i_0 = nl.arange(1)[None, :]
    for i in nl.affine_range(N // P):
        x = nl.load(logits[i * P:(i + 1) * P, 0:V])
        mx = nisa.tensor_reduce(np.max, data=x, axis=(1,), dtype=nl.float32)
        e = nisa.activation(op=nl.exp, data=x, bias=nl.multiply(mx, -1.0), dtype=nl.float32)
        lse = nl.add(nl.log(nl.sum(e, axis=[1])), mx)
        tok = nl.load(ids_col[i * P:(i + 1) * P, 0:1])
        row = nisa.iota(i * P + nl.arange(P)[:, None], dtype=nl.int32)       # [P, 1]: global row index
        pos = nl.add(nl.multiply(row, V, dtype=nl.int32), tok, dtype=nl.int32)
        picked = nl.load(flat[pos[i_p, 0], i_0])
        nl.store(out_col[i * P:(i + 1) * P, 0:1], value=nl.subtract(picked, lse, dtype=out.dtype))
    return out
