# The SDK 2.24 kernel decorators of nki.compiler (general/nki/api/nki.compiler.rst, "Kernel
# Decorators") stacked with nki.jit / nki.baremetal in the orders and forms the docs and
# nki-samples use. Each kernel scales its input by a different factor.
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.compiler.skip_middle_end_transformations
@nki.jit(mode="simulation")
def above_jit(a_tensor):
  out = nl.ndarray(a_tensor.shape, dtype=a_tensor.dtype, buffer=nl.shared_hbm)
  nl.store(out, value=nl.multiply(nl.load(a_tensor), 2.0))
  return out


# The nki.compiler.enable_stack_allocator docstring's own stacking, with its log_level option.
@nki.compiler.enable_stack_allocator(log_level=10)
@nki.compiler.skip_middle_end_transformations
@nki.jit
def stack_allocator(a_tensor):
  out = nl.ndarray(a_tensor.shape, dtype=a_tensor.dtype, buffer=nl.shared_hbm)
  nl.store(out, value=nl.multiply(nl.load(a_tensor), 3.0))
  return out


@nki.jit(mode="simulation")
@nki.compiler.force_auto_alloc
def below_jit(a_tensor):
  out = nl.ndarray(a_tensor.shape, dtype=a_tensor.dtype, buffer=nl.shared_hbm)
  nl.store(out, value=nl.multiply(nl.load(a_tensor), 4.0))
  return out


# As in nki-samples contributed/pipelined_attention.py: above nki.baremetal(...) with options.
@nki.compiler.skip_middle_end_transformations()
@nki.baremetal(artifacts_dir="debug")
def above_baremetal(a_tensor):
  out = nl.ndarray(a_tensor.shape, dtype=a_tensor.dtype, buffer=nl.shared_hbm)
  nl.store(out, value=nl.multiply(nl.load(a_tensor), 5.0))
  return out
