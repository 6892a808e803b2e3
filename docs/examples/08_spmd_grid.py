# Example 08: SiLU over a [512, 256] tensor with a 1-D SPMD launch grid of 4 instances.
#
# Shows: kernel[4](...) style launches (`--grid 4`), nl.program_id / nl.num_programs, each
# instance writing a disjoint slice of the shared_hbm output (overlapping writes between
# instances would be err_unexpected_output_dependencies).
#
# Try:
#   nkiagent check docs/examples/08_spmd_grid.py --arg 512x256:float32 --grid 4
#   nkiagent ir docs/examples/08_spmd_grid.py --arg 512x256:float32 --grid 4
#   python3 -c "import numpy as np; np.save('/tmp/e08_x.npy', np.random.randn(512,256).astype(np.float32))"
#   nkiagent run docs/examples/08_spmd_grid.py --input /tmp/e08_x.npy --grid 4 --out-dir /tmp/e08
#
# nki-case: args=512x256:float32 grid=4
# expect-output: in0 / (1.0 + np.exp(-in0))
# expect-tol: rtol=1e-3 atol=1e-4
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def silu_spmd(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    pid = nl.program_id(0)
    share = x.shape[0] // nl.num_programs(0)      # rows per instance (128 here)
    lo = pid * share
    xt = nl.load(x[lo:lo + share, :])
    nl.store(out[lo:lo + share, :], value=nl.silu(xt))
    return out
