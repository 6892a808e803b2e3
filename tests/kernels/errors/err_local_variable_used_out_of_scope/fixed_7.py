# nki-case: args=256x64:float32
# A helper object collects per-iteration tiles in a nested list attribute; the kernel reads
# them after the loop.
# Fix: use each collected tile inside the loop body, where it exists.
# expect-output: in0[0:128] + in0[128:256]
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


class Collector:
    def __init__(self):
        self.parts = [[]]

    def add(self, t):
        self.parts[0].append(t)


@nki.jit
def collect(x):
    out = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    total = nl.zeros((128, 64), dtype=nl.float32, buffer=nl.sbuf)
    acc = Collector()
    for i in nl.affine_range(2):
        acc.add(nl.load(x[i * 128:(i + 1) * 128, :]))
        total += acc.parts[0][-1]
    nl.store(out, value=total)
    return out
