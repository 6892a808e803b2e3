# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import nki
import nki.language as nl
import nki.isa as nisa

EPS = 1e-12


@nki.jit
def embedding_pos_layernorm_kernel(ids, tok_weight, pos_weight, norm_weight, norm_bias):
    """LayerNorm(tok_weight[ids[b, s]] + pos_weight[s]) for int32 ids [B, S], S <= 128, bf16 tables.

    The S token ids of a sequence are loaded as a [S, 1] column, the vector offset of an
    indirect DMA that gathers the embedding rows straight into SBUF; the position rows are
    the first S rows of the position table, loaded once. Statistics in fp32.
    """
    B, S = ids.shape
    D = tok_weight.shape[1]
    out = nl.ndarray((B, S, D), dtype=tok_weight.dtype, buffer=nl.shared_hbm)
    ids_col = ids.reshape((B * S, 1))
    out2 = out.reshape((B * S, D))

    pos = nl.load(pos_weight[0:S, 0:D], dtype=nl.float32)
    gam = nl.broadcast_to(nl.load(norm_weight.reshape((1, D))[0:1, 0:D], dtype=nl.float32), shape=(S, D))
    bet = nl.broadcast_to(nl.load(norm_bias.reshape((1, D))[0:1, 0:D], dtype=nl.float32), shape=(S, D))
    for b in nl.affine_range(B):
        idx = nl.ndarray((S, 1), dtype=nl.int32, buffer=nl.sbuf)
        nisa.dma_copy(dst=idx, src=ids_col[b * S:(b + 1) * S, 0:1])
        rows = nl.ndarray((S, D), dtype=tok_weight.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=rows, src=tok_weight.ap([[D, S], [1, D]], offset=0, vector_offset=idx, indirect_dim=0))
        e = nl.add(rows, pos, dtype=nl.float32)
        mean = nl.multiply(nl.sum(e, axis=1, keepdims=True), 1.0 / D)
        xc = nl.ndarray((S, D), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(dst=xc, data=e, op0=nl.subtract, operand0=mean)
        var = nl.multiply(nl.sum(nl.square(xc), axis=1, keepdims=True), 1.0 / D)
        rstd = nl.rsqrt(nl.add(var, EPS))
        y = nl.ndarray((S, D), dtype=nl.float32, buffer=nl.sbuf)
        nisa.scalar_tensor_tensor(dst=y, data=xc, op0=nl.multiply, operand0=rstd, op1=nl.multiply, operand1=gam)
        nl.store(out2[b * S:(b + 1) * S, 0:D], value=nl.add(y, bet, dtype=out.dtype))
    return out
