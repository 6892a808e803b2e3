import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

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
    iota_out = nl.ndarray((1, 4000), dtype=nl.float32, buffer=nl.sbuf)
    nisa.iota(iota_out, [[1, CHUNK]], offset=0, channel_multiplier=0)
    cls = nl.broadcast_to(iota_out, shape=(N, CHUNK))
    m = None
    s = None
    picked = None
    for c in nl.static_range(n_c):
        x = nl.load(logits[0:N, c * CHUNK:(c + 1) * CHUNK])
        cm = nl.ndarray((64, 1), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_reduce(cm, nl.maximum, data=x, axis=(1,))
        onehot = nl.ndarray(cls.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(onehot, data=cls, op0=nl.equal, operand0=nl.add(tgt, -float(c * CHUNK)))
        pk = nl.sum(nl.multiply(onehot, x), axis=[1])
        if c == 0:
            m = cm
            activation_out = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.activation(activation_out, op=nl.exp, data=x, bias=nl.multiply(m, -1.0))
            s = nl.sum(activation_out, axis=[1])
            picked = pk
        else:
            m_new = nl.maximum(m, cm)
            e = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.activation(e, op=nl.exp, data=x, bias=nl.multiply(m_new, -1.0))
            s = nl.add(nl.multiply(s, nl.exp(nl.subtract(m, m_new))), nl.sum(e, axis=[1]))
            m = m_new
            picked = nl.add(picked, pk)
    lse = nl.add(m, nl.log(s))
    nl.store(loss_col[0:N, 0:1], value=nl.subtract(lse, picked))
    neg_lse = nl.multiply(lse, -1.0)
    for c in nl.static_range(n_c):
        x = nl.load(logits[0:N, c * CHUNK:(c + 1) * CHUNK])
        p = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(p, op=nl.exp, data=x, bias=neg_lse)
        onehot = nl.ndarray(cls.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(onehot, data=cls, op0=nl.equal, operand0=nl.add(tgt, -float(c * CHUNK)))
        nl.store(grad[0:N, c * CHUNK:(c + 1) * CHUNK], value=nl.subtract(p, onehot))
    return loss, grad
