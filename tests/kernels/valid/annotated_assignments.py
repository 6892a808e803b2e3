# nki-case: args=128x512:float32
# expect-output: in0 * 2 + 1
# Annotated assignments (PEP 526) in a kernel and in a helper: `x: T = value` binds value,
# `x: T` alone binds nothing. 2.24 evaluates a local annotation to check nt.tensor shapes
# (nki.errors.rst, err_annotation_shape_mismatch); plain Python types pass that check.
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt


def double_plus_one(t):
    two: float = 2.0
    done: nt.tensor[128, 512] = nl.add(nl.multiply(t, two), 1.0)
    return done


@nki.jit
def annotated(x):
    out: nt.tensor = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    rows: int
    rows = x.shape[0]
    tile: nt.tensor[128, 512] = nl.load(x[0:rows, :])
    res: nt.tensor[128, 512] = double_plus_one(tile)
    nl.store(out, value=res)
    return out
