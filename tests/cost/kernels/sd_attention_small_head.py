# Calibration kernel (upper bound): a fused softmax(Q K^T) V for one head of size 128 over 4096
# positions, the problem of the nki-samples "SD attention, small head" perf test, whose
# nc_latency thresholds are 675 us (fp32) and 536 us (bf16) on trn1 (trainium-perf.md §3.9-8,
# [SMP-t]). Written for this project: Q and K arrive transposed ([d, seq]) so the head dim is the
# contraction (partition) dim; per 128-query tile: 8 score matmuls into PSUM, row max, exp with
# the max as bias and a row sum, 32 PE transposes of the probabilities, 32 P@V matmuls
# accumulated in PSUM, deferred normalisation.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def sd_attention_small_head(q_t, k_t, v):
    d, seq = q_t.shape
    out = nl.ndarray((seq, d), dtype=q_t.dtype, buffer=nl.shared_hbm)
    k_sb = nl.load(k_t)                                     # [d, seq]
    v_sb = nl.ndarray((nl.par_dim(128), seq // 128, d), dtype=v.dtype, buffer=nl.sbuf)
    for j in nl.affine_range(seq // 128):
        v_sb[:, j, :] = nl.load(v[j * 128:(j + 1) * 128, :])
    for i in nl.affine_range(seq // 128):
        q_sb = nl.load(q_t[:, i * 128:(i + 1) * 128])       # [d, 128 queries]
        scores = nl.ndarray((nl.par_dim(128), seq), dtype=nl.float32, buffer=nl.sbuf)
        for j in nl.affine_range(seq // 512):
            s = nisa.nc_matmul(q_sb, k_sb[:, j * 512:(j + 1) * 512])
            scores[:, j * 512:(j + 1) * 512] = nisa.tensor_copy(s)
        neg_max = nl.multiply(nl.max(scores, axis=1, keepdims=True), -1.0)
        probs = nisa.activation(op=nl.exp, data=scores, bias=neg_max, scale=1.0)
        row_sum = nl.sum(probs, axis=1, keepdims=True)
        acc = nl.zeros((128, d), nl.float32, buffer=nl.psum)
        for j in nl.affine_range(seq // 128):
            p_t = nisa.tensor_copy(nisa.nc_transpose(probs[:, j * 128:(j + 1) * 128]), dtype=v.dtype)
            acc += nisa.nc_matmul(p_t, v_sb[:, j, :])
        nl.store(out[i * 128:(i + 1) * 128, :], value=nl.multiply(acc, nl.reciprocal(row_sum), dtype=out.dtype))
    return out
