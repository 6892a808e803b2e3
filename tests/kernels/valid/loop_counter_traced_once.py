# nki-case: args=128x1:float32
# Python side effects inside symbolic loops run ONCE, at trace time (nki-spec section 5.1, legacy
# front end: "a counter incremented inside `for i in range(8)` ends at 1 - not 8").
# affine_range, sequential_range and plain range bodies are traced once, so each counter ends at 1.
# static_range is unrolled, so its counter ends at 4. The counters are baked into the outputs.
# expect-note: legacy (SDK 2.24) trace semantics; a Python-semantics interpreter would give 4,4,4,4
# expect-output: (in0 + 1.0, in0 + 1.0, in0 + 1.0, in0 + 4.0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def count_trips(x):
    o_aff = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    o_seq = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    o_rng = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    o_sta = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)

    n_aff = 0
    for i in nl.affine_range(4):
        n_aff += 1
    n_seq = 0
    for i in nl.sequential_range(4):
        n_seq += 1
    n_rng = 0
    for i in range(4):
        n_rng = n_rng + 1
    n_sta = 0
    for i in nl.static_range(4):
        n_sta += 1

    nl.store(o_aff, value=nl.add(xt, float(n_aff)))
    nl.store(o_seq, value=nl.add(xt, float(n_seq)))
    nl.store(o_rng, value=nl.add(xt, float(n_rng)))
    nl.store(o_sta, value=nl.add(xt, float(n_sta)))
    return o_aff, o_seq, o_rng, o_sta
