"""`nki.isa.constants` (used as `from nki.isa.constants import oob_mode, dge_mode, ...`)."""
from . import dge_mode, engine, matmul_perf_mode, oob_mode, reduce_cmd  # noqa: F401
