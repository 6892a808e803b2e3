# nki-case: args=256x64:float32
# Python containers and loop scopes: tiles created BEFORE a loop may be put in a list inside it
# and used after it (they are in scope), and a list of tiles built and used inside one loop body
# is fine too. Only tiles created inside the body may not leave it.
# expect-output: np.concatenate([in0[0:128] * 2.0 + in0[128:256] * 2.0, in0[128:256] * 3.0])
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def containers(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    a = nl.load(x[0:128, :])
    b = nl.load(x[128:256, :])
    picked = []
    for i in nl.sequential_range(1):
        picked.append(a)
        picked.append(b)
    total = nl.zeros((128, 64), dtype=nl.float32, buffer=nl.sbuf)
    for i in nl.affine_range(2):
        local = {"t": nl.load(x[i * 128:(i + 1) * 128, :])}
        total += nl.multiply(local["t"], 2.0)
    nl.store(out[0:128, :], value=total)
    nl.store(out[128:256, :], value=nl.multiply(picked[1], 3.0))
    return out
