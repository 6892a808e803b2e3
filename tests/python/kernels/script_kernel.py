# A kernel next to its helper module, importing it the way a script does (`import helpers`).
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

import sibling_helpers
from sibling_helpers import shifted


@nki.jit(mode="simulation")
def uses_sibling(a_tensor):
  out = nl.ndarray(a_tensor.shape, dtype=a_tensor.dtype, buffer=nl.shared_hbm)
  nl.store(out, value=nl.multiply(shifted(nl.load(a_tensor)), sibling_helpers.OFFSET))
  return out
