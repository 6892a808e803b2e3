# nki-case: args=256x64:float32
# Keeps the running tile of a sequential loop in a dict of kernel state and stores it after the loop.
# The tile is created in the loop body, so the dict entry does not outlive the loop.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def last_tile(x):
    out = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    state = {"rows": 128}
    for i in nl.sequential_range(2):
        state["tile"] = nl.exp(nl.load(x[i * 128:(i + 1) * 128, :]))
    nl.store(out, value=state["tile"])  # expect-error: err_local_variable_used_out_of_scope  # expect-col: 25
    return out
