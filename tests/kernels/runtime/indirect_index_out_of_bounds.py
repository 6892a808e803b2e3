# nki-case: args=256x128:float32,64x1:int32 init1=const(300)
# Gathers table rows with runtime indices; every index is 300 but the table has only 256 rows.
# The kernel compiles (the indices are only known at run time), so `nkiagent check` exits 0.
# `nkiagent run` must fail with exit 3 and a runtime diagnostic at the load (dynamic out-of-bounds,
# default oob_mode.error behaviour).
# expect-runtime-error: dynamic_oob
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def gather_rows_oob(table, idx):
    res = nl.ndarray((64, 128), dtype=table.dtype, buffer=nl.shared_hbm)
    ids = nl.load(idx)
    i_p = nl.arange(64)[:, None]
    i_f = nl.arange(128)[None, :]
    rows = nl.load(table[ids[i_p, 0], i_f])  # expect-runtime-error: dynamic_oob
    nl.store(res, value=rows)
    return res
