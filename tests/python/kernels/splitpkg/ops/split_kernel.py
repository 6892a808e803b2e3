import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

from ..tiles import scaled, bad_helper
from .. import constants
from splitpkg.constants import SCALE as ABS_SCALE


@nki.jit(mode="simulation")
def relative_helpers(a_tensor):
  out = nl.ndarray(a_tensor.shape, dtype=a_tensor.dtype, buffer=nl.shared_hbm)
  t = scaled(nl.load(a_tensor))  # * 3
  nl.store(out, value=nl.add(t, constants.SCALE + ABS_SCALE))  # + 6
  return out


@nki.jit(mode="simulation")
def error_in_helper(a_tensor):
  out = nl.ndarray(a_tensor.shape, dtype=a_tensor.dtype, buffer=nl.shared_hbm)
  nl.store(out, value=bad_helper(nl.load(a_tensor)))
  return out
