# Example 10: one single-head attention block, softmax(Q K^T / sqrt(d)) V, for 128 queries,
# 128 keys and head size 64 (all float32).
#
# Shows: transposing loads to put the contraction dim (d) on the partitions, two TensorE
# matmuls, reading PSUM directly with VectorE ops (scale, max, subtract), a TensorE
# transpose of the probability tile so the key axis becomes the contraction dim, and deferred
# normalisation by the row sums.
#
# Try:
#   nkiagent check docs/examples/10_attention_block.py --arg 128x64:float32 --arg 128x64:float32 --arg 128x64:float32
#   nkiagent ir docs/examples/10_attention_block.py --arg 128x64:float32 --arg 128x64:float32 --arg 128x64:float32
#   python3 -c "import numpy as np; [np.save(f'/tmp/e10_{n}.npy', np.random.randn(128,64).astype(np.float32)) for n in 'qkv']"
#   nkiagent run docs/examples/10_attention_block.py --input /tmp/e10_q.npy --input /tmp/e10_k.npy --input /tmp/e10_v.npy --out-dir /tmp/e10
#
# nki-case: args=128x64:float32,128x64:float32,128x64:float32
# expect-output: (lambda s: (np.exp(s - s.max(axis=1, keepdims=True)) / np.exp(s - s.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)) @ in2)(in0 @ in1.T / 8.0)
# expect-tol: rtol=1e-3 atol=1e-4
import math
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def attention_block(q, k, v):
    seq, d = q.shape
    out = nl.ndarray((seq, d), dtype=q.dtype, buffer=nl.shared_hbm)
    q_t = nl.load_transpose2d(q)                 # [d, seq_q]
    k_t = nl.load_transpose2d(k)                 # [d, seq_k]
    v_sb = nl.load(v)                            # [seq_k, d]

    scores = nisa.nc_matmul(q_t, k_t)            # [seq_q, seq_k] in PSUM = Q @ K^T
    scaled = nl.multiply(scores, 1.0 / math.sqrt(d))
    row_max = nl.max(scaled, axis=1, keepdims=True)
    p = nl.exp(nl.subtract(scaled, row_max))     # un-normalised probabilities
    row_sum = nl.sum(p, axis=1, keepdims=True)

    p_t = nl.copy(nisa.nc_transpose(p))          # [seq_k, seq_q] back in SBUF
    ctx = nisa.nc_matmul(p_t, v_sb)              # [seq_q, d] in PSUM = P @ V
    nl.store(out, value=nl.multiply(ctx, nl.reciprocal(row_sum)))
    return out
