"""Issue 10 item 4: the drop-in accepts the nki.compiler kernel decorators, rejects an empty
SPMD launch grid, and lets kernels import helpers from their own package (and nothing else)."""
import os

import numpy as np
import pytest

import _nkisim
import neuronxcc.nki as nki

import decorated_kernel
import grid_kernel
import script_kernel
from splitpkg.ops import split_kernel


def rand(*shape):
    return np.random.default_rng(1).random(shape, dtype=np.float32)


@pytest.mark.parametrize("kernel, factor", [
    (decorated_kernel.above_jit, 2.0),
    (decorated_kernel.stack_allocator, 3.0),
    (decorated_kernel.below_jit, 4.0),
    (decorated_kernel.above_baremetal, 5.0),
])
def test_compiler_decorators_stack_with_jit(kernel, factor):
    a = rand(4, 8)
    np.testing.assert_allclose(kernel(a), a * factor, rtol=1e-6)


def test_compiler_decorators_are_recorded_and_keep_the_grid():
    k = decorated_kernel.stack_allocator
    names = [d[0] for d in k.compiler_decorators]
    assert names == ["skip_middle_end_transformations", "enable_stack_allocator"]
    assert k[2].compiler_decorators == k.compiler_decorators


def test_compiler_decorator_on_a_non_function_is_a_type_error():
    with pytest.raises(TypeError, match="decorates a kernel function"):
        nki.compiler.force_auto_alloc(42)


@pytest.mark.parametrize("grid", [0, (2, 0), -1])
def test_empty_launch_grid_is_an_error(grid):
    with pytest.raises(ValueError, match="at least 1"):
        grid_kernel.double_rows[grid]


def test_empty_launch_grid_is_an_error_in_the_module_api():
    path = os.path.join(os.path.dirname(grid_kernel.__file__), "grid_kernel.py")
    with pytest.raises(ValueError, match="at least 1"):
        _nkisim.run(path, "double_rows", [rand(4, 8)], grid=[0])


def test_relative_and_absolute_imports_within_the_package():
    a = rand(4, 8)
    np.testing.assert_allclose(split_kernel.relative_helpers(a), a * 3 + 6, rtol=1e-6)


def test_sibling_module_next_to_a_script_kernel():
    a = rand(4, 8)
    np.testing.assert_allclose(script_kernel.uses_sibling(a), (a + 1.5) * 1.5, rtol=1e-6)


def test_diagnostic_inside_an_imported_module_names_that_file():
    with pytest.raises(nki.NkiCompileError) as info:
        split_kernel.error_in_helper(rand(128, 4))
    text = str(info.value)
    assert "tiles.py:12:" in text, text
    assert "err_num_partition_exceed_arch_limit" in text
    assert "# line 12" in text  # the source line shown is tiles.py's own line 12


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


KERNEL_HEAD = "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n"
KERNEL_BODY = """
@nki.jit
def k(a_tensor):
  out = nl.ndarray(a_tensor.shape, dtype=a_tensor.dtype, buffer=nl.shared_hbm)
  nl.store(out, value=nl.multiply(nl.load(a_tensor), VALUE))
  return out
"""


def run_kernel(path):
    return _nkisim.run(str(path), "k", [np.ones((2, 4), np.float32)])[0][0]


def test_package_import_reads_the_helper(tmp_path):
    write(tmp_path / "root" / "pkg" / "__init__.py", "")
    write(tmp_path / "root" / "pkg" / "vals.py", "VALUE = 7.0\n")
    write(tmp_path / "root" / "pkg" / "kern.py", KERNEL_HEAD + "from .vals import VALUE\n" + KERNEL_BODY)
    np.testing.assert_array_equal(run_kernel(tmp_path / "root" / "pkg" / "kern.py"), 7.0)


def test_relative_import_beyond_the_top_package_is_refused(tmp_path):
    write(tmp_path / "root" / "pkg" / "__init__.py", "")
    write(tmp_path / "root" / "vals.py", "VALUE = 7.0\n")
    write(tmp_path / "root" / "pkg" / "kern.py", KERNEL_HEAD + "from ..vals import VALUE\n" + KERNEL_BODY)
    with pytest.raises(nki.NkiCompileError, match="beyond top-level package"):
        run_kernel(tmp_path / "root" / "pkg" / "kern.py")


def test_symlink_out_of_the_package_root_is_not_followed(tmp_path):
    write(tmp_path / "outside" / "secret.py", "VALUE = 9.0\n")
    write(tmp_path / "root" / "pkg" / "__init__.py", "")
    os.symlink(tmp_path / "outside" / "secret.py", tmp_path / "root" / "pkg" / "vals.py")
    write(tmp_path / "root" / "pkg" / "kern.py", KERNEL_HEAD + "from .vals import VALUE\n" + KERNEL_BODY)
    with pytest.raises(nki.NkiCompileError, match="No module named 'pkg.vals'"):
        run_kernel(tmp_path / "root" / "pkg" / "kern.py")


def test_module_outside_the_package_root_stays_unavailable(tmp_path):
    # The kernel's directory is no package, so the root is that directory: a module one level
    # up is not read, and using it fails as any unavailable module does.
    write(tmp_path / "vals.py", "VALUE = 9.0\n")
    write(tmp_path / "root" / "kern.py", KERNEL_HEAD + "import vals\nVALUE = vals.value()\n" + KERNEL_BODY)
    with pytest.raises(nki.NkiCompileError, match="unavailable_module"):
        run_kernel(tmp_path / "root" / "kern.py")


def test_only_py_files_are_modules(tmp_path):
    write(tmp_path / "root" / "vals.txt", "VALUE = 9.0\n")
    write(tmp_path / "root" / "kern.py", KERNEL_HEAD + "import vals\nVALUE = vals.value()\n" + KERNEL_BODY)
    with pytest.raises(nki.NkiCompileError, match="unavailable_module"):
        run_kernel(tmp_path / "root" / "kern.py")
