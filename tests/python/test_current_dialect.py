"""The `nki` drop-in (current dialect, docs/nki-current.md): nki.simulate and nki.jit run
destination-passing kernels; a 2.24 habit fails with the migration diagnostic."""
import numpy as np
import pytest

import nki

import current_kernels as ck


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def test_simulate_matches_numpy():
    a, b = rand(256, 64), rand(256, 64, seed=1)
    out = nki.simulate(ck.scaled_sum)(a, b, 0.5)
    np.testing.assert_allclose(out, (a + b) * 0.5, rtol=1e-6, atol=1e-6)


def test_jit_call_with_numpy_runs_standalone():
    a, b = rand(128, 32), rand(128, 32, seed=2)
    np.testing.assert_allclose(ck.scaled_sum(a, b, 2.0), (a + b) * 2.0, rtol=1e-6, atol=1e-6)


def test_lnc2_program_ids():
    a = rand(256, 16)
    np.testing.assert_allclose(nki.simulate(ck.core_ids[2])(a), a + 1.0, rtol=1e-6)


def test_functional_isa_call_gets_migration_hint():
    with pytest.raises(nki.NkiCompileError) as e:
        nki.simulate(ck.functional_style)(rand(128, 8))
    assert "missing_argument" in str(e.value)
    assert "destination-passing" in str(e.value)


def test_torch_needs_the_simulator_switch(monkeypatch):
    torch = pytest.importorskip("torch")
    a = torch.ones((128, 4))
    monkeypatch.delenv("NKI_SIMULATOR", raising=False)
    with pytest.raises(RuntimeError):
        ck.scaled_sum(a, a, 1.0)
    monkeypatch.setenv("NKI_SIMULATOR", "1")
    out = ck.scaled_sum(a, a, 1.0)
    assert isinstance(out, torch.Tensor) and torch.allclose(out, a * 2)
