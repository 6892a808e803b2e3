# Kernels for tests/python: element-wise add in the SDK 2.24 legacy dialect.
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import numpy as np


@nki.jit(mode="simulation")
def add_kernel(a_tensor, b_tensor):
  c_tensor = nl.ndarray(a_tensor.shape, dtype=a_tensor.dtype, buffer=nl.shared_hbm)
  a = nl.load(a_tensor)
  b = nl.load(b_tensor)
  nl.store(c_tensor, value=nl.add(a, b))
  return c_tensor


# `op` (np.subtract, nl.subtract, ...) has no literal form: it reaches the tracer as an
# expression (nkisim/source_edit.py); `scale` is a literal.
@nki.jit(mode="simulation")
def binary_kernel(a_tensor, b_tensor, op, scale):
  c_tensor = nl.ndarray(a_tensor.shape, dtype=a_tensor.dtype, buffer=nl.shared_hbm)
  a = nl.load(a_tensor)
  b = nl.load(b_tensor)
  c = nisa.tensor_tensor(a, b, op=op)
  nl.store(c_tensor, value=nl.multiply(c, scale))
  return c_tensor


# bf16 intermediate: legacy-sim keeps it in fp32, precise rounds it (spec §7.1).
@nki.jit(mode="simulation")
def bf16_add_kernel(a_tensor, b_tensor):
  c_tensor = nl.ndarray(a_tensor.shape, dtype=nl.float32, buffer=nl.shared_hbm)
  a = nl.load(a_tensor)
  b = nl.load(b_tensor)
  nl.store(c_tensor, value=nl.add(a, b, dtype=nl.bfloat16))
  return c_tensor


# Arrays after a scalar and after a non-literal parameter, as in the SDK 2.24 layernorm
# tutorial (nki_layernorm_kernel_v1(input_tensor, epsilon, gamma_vector, beta_vector)).
@nki.jit(mode="simulation")
def scaled_affine(a_tensor, scale, op, b_tensor, c_tensor):
  out = nl.ndarray(a_tensor.shape, dtype=a_tensor.dtype, buffer=nl.shared_hbm)
  a = nl.load(a_tensor)
  b = nl.load(b_tensor)
  c = nl.load(c_tensor)
  ab = nisa.tensor_tensor(a, b, op=op)
  nl.store(out, value=nl.add(nl.multiply(ab, scale), c))
  return out
