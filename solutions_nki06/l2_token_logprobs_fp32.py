# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def token_logprobs_kernel(logits, ids):
    """out[n] = logits[n, ids[n]] - logsumexp(logits[n]) for float32 logits [N, V] (N a multiple of 128).

    Rows on partitions. The log-normaliser is a max-shifted sum of exponentials along the
    free axis. The chosen logit is picked on chip: a column iota compared with ids[n] (a
    per-partition scalar) is a one-hot row, and the sum of one-hot * logits is exactly
    logits[n, ids[n]]. (The legacy solution gathers it by an indirect DMA over logits viewed
    as [N * V, 1]; our simulator scales a vector_offset on that reshape by V, the row size of
    logits, instead of by the view's row size 1, so that form fails here with dynamic_oob.)
    """
    N, V = logits.shape
    P = nl.tile_size.pmax
    out = nl.ndarray((N,), dtype=logits.dtype, buffer=nl.shared_hbm)
    out_col = out.reshape((N, 1))
    ids_col = ids.reshape((N, 1))
    for i in nl.affine_range(N // P):
        x = nl.load(logits[i * P:(i + 1) * P, 0:V])
        mx = nl.ndarray((P, 1), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_reduce(dst=mx, op=nl.maximum, data=x, axis=1)
        neg_mx = nl.multiply(mx, -1.0)
        e = nl.ndarray((P, V), dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(dst=e, op=nl.exp, data=x, bias=neg_mx)
        lse = nl.add(nl.log(nl.sum(e, axis=1, keepdims=True)), mx)
        tok = nl.ndarray((P, 1), dtype=nl.int32, buffer=nl.sbuf)
        nisa.dma_copy(dst=tok, src=ids_col[i * P:(i + 1) * P, 0:1])
        cols = nl.ndarray((P, V), dtype=nl.int32, buffer=nl.sbuf)
        nisa.iota(cols, [[1, V]], offset=0, channel_multiplier=0)
        hit = nl.ndarray((P, V), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(dst=hit, data=cols, op0=nl.equal, operand0=tok)
        picked = nl.sum(nl.multiply(hit, x), axis=1, keepdims=True)
        nl.store(out_col[i * P:(i + 1) * P, 0:1], value=nl.subtract(picked, lse, dtype=out.dtype))
    return out
