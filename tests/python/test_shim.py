"""The neuronxcc shim end to end: kernels written in the legacy dialect, traced by the C++
front end and run on the simulator, called the way existing NKI test suites call them."""
import numpy as np
import pytest

import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

import add_kernel
import bad_kernel
import grid_kernel
import oob_kernel
import pass_by_ref


def rand(*shape):
    return np.random.default_rng(0).random(shape, dtype=np.float32)


def test_jit_simulation_returns_numpy_result():
    a, b = rand(4, 8), rand(4, 8) + 1
    c = add_kernel.add_kernel(a, b)
    assert isinstance(c, np.ndarray) and c.dtype == np.float32 and c.shape == (4, 8)
    np.testing.assert_allclose(c, a + b, rtol=1e-6)


@pytest.mark.parametrize("op, ref", [(np.subtract, np.subtract), (nl.multiply, np.multiply)])
def test_non_literal_arguments_reach_the_kernel(op, ref):
    a, b = rand(4, 8), rand(4, 8) + 1
    np.testing.assert_allclose(add_kernel.binary_kernel(a, b, op, 3.0), ref(a, b) * 3, rtol=1e-6)
    np.testing.assert_allclose(add_kernel.binary_kernel(a, b, op=op, scale=2), ref(a, b) * 2, rtol=1e-6)


def test_trace_and_simulate_kernel_fill_the_output_argument():
    a = rand(4, 8)
    out = np.zeros_like(a)
    assert nki.simulate_kernel(pass_by_ref.double_into, a, out) is None
    np.testing.assert_array_equal(out, 2 * a)


def test_trace_kernels_are_pass_by_reference_without_annotations():
    a, b = rand(4, 8), rand(4, 8)
    out = np.full_like(a, np.nan)
    nki.simulate_kernel(pass_by_ref.add_into, a, b, out)
    np.testing.assert_array_equal(out, a + b)


@pytest.mark.parametrize("instances", [1, 2, 4])
def test_grid_launch_runs_every_instance(instances):
    a = rand(4, 8)
    np.testing.assert_array_equal(grid_kernel.double_rows[instances](a), 2 * a)


def test_grid_accepts_nc_annotations():
    a = rand(4, 8)
    np.testing.assert_array_equal(grid_kernel.double_rows[nl.spmd_dim(nl.nc(2), 2)](a), 2 * a)


def test_compile_error_raises_with_diagnostic_text():
    with pytest.raises(nki.NkiCompileError) as info:
        bad_kernel.writes_input(rand(4, 8))
    text = str(info.value)
    assert "error[err_cannot_update_immutable_parameter]" in text
    assert "bad_kernel.py:9:3:" in text
    assert isinstance(info.value, nki.NkiError)


def test_dynamic_out_of_bounds_is_an_index_error():
    data = rand(16, 4)
    idx = np.array([[1], [20]], dtype=np.int32)
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 64"):
        oob_kernel.gather_rows(data, idx)


def test_bf16_intermediate_legacy_sim_vs_precise():
    # 1 + 2^-10 is not a bf16 value: precise numerics round the bf16 tile to 1.0, legacy-sim
    # (mode="simulation", spec §7.1) keeps the fp32 value.
    a = np.ones((2, 4), np.float32)
    b = np.full((2, 4), 2.0 ** -10, np.float32)
    legacy = add_kernel.bf16_add_kernel(a, b)
    precise = nki.baremetal(add_kernel.bf16_add_kernel.func)(a, b)
    np.testing.assert_array_equal(legacy, 1 + 2.0 ** -10)
    np.testing.assert_array_equal(precise, 1.0)


def test_bf16_stand_in_arrays_round_trip():
    x = np.array([[1.0, 3.0, 1.0 + 2.0 ** -10]], dtype=np.float32).astype(nl.bfloat16)
    assert x.dtype.metadata == {"nki_dtype": "bfloat16"}
    y = add_kernel.add_kernel(x, x)
    assert y.dtype.metadata == {"nki_dtype": "bfloat16"}
    # the input is rounded to bf16 once when it enters the simulator: 1 + 2^-10 -> 1
    np.testing.assert_array_equal(y, [[2.0, 6.0, 2.0]])


def test_arrays_may_follow_scalar_and_non_literal_parameters():
    a, b, c = rand(4, 8), rand(4, 8) + 1, rand(4, 8) + 2
    got = add_kernel.scaled_affine(a, 0.5, np.multiply, b, c)
    np.testing.assert_allclose(got, a * b * 0.5 + c, rtol=1e-6)
    got = add_kernel.scaled_affine(a, 2, nl.add, c_tensor=c, b_tensor=b)
    np.testing.assert_allclose(got, (a + b) * 2 + c, rtol=1e-6)


def test_dataclass_config_argument_reaches_the_kernel():
    import config_kernel
    a = rand(4, 8)
    np.testing.assert_allclose(config_kernel.scale_kernel(a), a, rtol=1e-6)
    cfg = config_kernel.ScaleConfig(scale=3.0, negate=True)
    np.testing.assert_allclose(config_kernel.scale_kernel(a, config=cfg), -3 * a, rtol=1e-6)
