"""Importing torch after the shim must not break later compiles (conformance sweep finding: every
compile then failed with evaluation_memory at line 1, docs/conformance.md). Runs in a fresh
interpreter, because the order of imports in this pytest process is not ours to choose."""
import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import numpy as np
    import neuronxcc.nki as nki
    import neuronxcc.nki.language as nl
    import torch  # after the shim: the order that used to break every compile

    @nki.jit
    def add(a, b):
        out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
        nl.store(out, value=nl.add(nl.load(a), nl.load(b)))
        return out

    a = np.random.default_rng(0).random((128, 512), dtype=np.float32)
    for _ in range(3):
        t = torch.ones(256, 256) @ torch.ones(256, 256)  # torch allocating between compiles
        r = nki.simulate_kernel(add, a, a)
        assert np.array_equal(r, a + a), "wrong result"
    print("OK")
""")


def test_compiles_after_torch_is_imported(tmp_path):
    try:
        import torch  # noqa: F401
    except ImportError:
        pytest.skip("torch is not installed")
    path = tmp_path / "torch_after_shim.py"
    path.write_text(SCRIPT)
    r = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=600,
                       env=dict(os.environ))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().endswith("OK")
