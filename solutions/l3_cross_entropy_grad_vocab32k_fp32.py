import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

CHUNK = 4000


@nki.jit
def cross_entropy_grad_kernel(logits, target):
    """(lse - l[target], softmax(l) - onehot(target)) for fp32 logits [N, V], N <= 128, V % CHUNK == 0.

    A 32000-wide fp32 row (125 KiB) plus its exponentials does not fit one SBUF partition,
    so the vocabulary is walked in chunks twice.  Pass 1 keeps an online (max, sum) pair
    per row: sum <- sum * exp(m_old - m_new) + sum(exp(x - m_new)); the target logit is
    picked with an iota == target one-hot (exact in fp32 below 2^24).  Pass 2 reloads each
    chunk and writes exp(x - lse) - onehot.
    """
    N, V = logits.shape
    n_c = V // CHUNK
    loss = nl.ndarray((N,), dtype=nl.float32, buffer=nl.shared_hbm)
    grad = nl.ndarray((N, V), dtype=nl.float32, buffer=nl.shared_hbm)
    loss_col = loss.reshape((N, 1))

    tgt = nl.load(target.reshape((N, 1)), dtype=nl.float32)
    cls = nl.broadcast_to(nisa.iota(nl.arange(CHUNK)[None, :], dtype=nl.float32), shape=(N, CHUNK))
    m = None
    s = None
    picked = None
    for c in nl.static_range(n_c):
        x = nl.load(logits[0:N, c * CHUNK:(c + 1) * CHUNK])
        cm = nisa.tensor_reduce(np.max, data=x, axis=(1,), dtype=nl.float32)
        onehot = nisa.tensor_scalar(data=cls, op0=nl.equal, operand0=nl.add(tgt, -float(c * CHUNK)))
        pk = nl.sum(nl.multiply(onehot, x), axis=[1])
        if c == 0:
            m = cm
            s = nl.sum(nisa.activation(op=nl.exp, data=x, bias=nl.multiply(m, -1.0), dtype=nl.float32), axis=[1])
            picked = pk
        else:
            m_new = nl.maximum(m, cm)
            e = nisa.activation(op=nl.exp, data=x, bias=nl.multiply(m_new, -1.0), dtype=nl.float32)
            s = nl.add(nl.multiply(s, nl.exp(nl.subtract(m, m_new))), nl.sum(e, axis=[1]))
            m = m_new
            picked = nl.add(picked, pk)
    lse = nl.add(m, nl.log(s))
    nl.store(loss_col[0:N, 0:1], value=nl.subtract(lse, picked))
    neg_lse = nl.multiply(lse, -1.0)
    for c in nl.static_range(n_c):
        x = nl.load(logits[0:N, c * CHUNK:(c + 1) * CHUNK])
        p = nisa.activation(op=nl.exp, data=x, bias=neg_lse, dtype=nl.float32)
        onehot = nisa.tensor_scalar(data=cls, op0=nl.equal, operand0=nl.add(tgt, -float(c * CHUNK)))
        nl.store(grad[0:N, c * CHUNK:(c + 1) * CHUNK], value=nl.subtract(p, onehot))
    return loss, grad
