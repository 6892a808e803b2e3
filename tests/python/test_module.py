"""The _nkisim extension used directly (no shim decorators)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import _nkisim

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")


def test_run_returns_outputs_and_no_args_after():
    a = np.arange(8, dtype=np.float32).reshape(2, 4)
    outputs, after = _nkisim.run(os.path.join(KERNELS, "add_kernel.py"), "add_kernel", [a, a])
    assert after == []
    np.testing.assert_array_equal(outputs[0], 2 * a)


def test_run_writes_back_mutated_arguments():
    a = np.arange(8, dtype=np.float32).reshape(2, 4)
    out = np.zeros_like(a)
    outputs, after = _nkisim.run(os.path.join(KERNELS, "pass_by_ref.py"), "double_into", [a, out],
                                 numerics="legacy")
    assert outputs == []
    np.testing.assert_array_equal(out, 2 * a)
    np.testing.assert_array_equal(after[1], 2 * a)


def test_integer_and_float64_inputs_are_narrowed():
    a = np.arange(8, dtype=np.float64).reshape(2, 4)
    outputs, _ = _nkisim.run(os.path.join(KERNELS, "add_kernel.py"), "add_kernel", [a, a])
    assert outputs[0].dtype == np.float32
    with pytest.raises(TypeError, match="no NKI equivalent"):
        _nkisim.run(os.path.join(KERNELS, "add_kernel.py"), "add_kernel", [a.astype(np.complex64)] * 2)


def test_check_compiles_without_running():
    assert isinstance(_nkisim.check(os.path.join(KERNELS, "add_kernel.py"), "add_kernel",
                                    [((128, 512), "float32"), ((128, 512), "float32")]), list)
    with pytest.raises(_nkisim.NkiCompileError, match="err_cannot_update_immutable_parameter"):
        _nkisim.check(os.path.join(KERNELS, "bad_kernel.py"), "writes_input", [((4, 8), "bfloat16")])


def test_unknown_kernel_and_bad_options():
    a = np.zeros((2, 4), np.float32)
    with pytest.raises(_nkisim.NkiCompileError, match="no function named 'nope'"):
        _nkisim.run(os.path.join(KERNELS, "add_kernel.py"), "nope", [a, a])
    with pytest.raises(ValueError, match="numerics"):
        _nkisim.run(os.path.join(KERNELS, "add_kernel.py"), "add_kernel", [a, a], numerics="fast")


def test_nkisim_run_cli_runs_a_unittest_file(tmp_path):
    test_file = tmp_path / "test_via_cli.py"
    test_file.write_text(
        "import sys, unittest\n"
        f"sys.path.insert(0, {KERNELS!r})\n"
        "import numpy as np\n"
        "import add_kernel\n"
        "class T(unittest.TestCase):\n"
        "  def test_add(self):\n"
        "    a = np.ones((2, 4), np.float32)\n"
        "    self.assertTrue(np.allclose(add_kernel.add_kernel(a, a), 2))\n")
    for extra in (["--unittest"], ["-q"]):
        p = subprocess.run([sys.executable, "-m", "nkisim.run", *extra, str(test_file)],
                           capture_output=True, text=True, cwd=tmp_path, timeout=120)
        assert p.returncode == 0, p.stdout + p.stderr
