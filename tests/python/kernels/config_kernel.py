# A kernel taking a frozen dataclass config object, as the nki-samples flash attention kernels
# do (FlashConfig): the shim rebuilds it by keyword in the kernel's module.
from dataclasses import dataclass

import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@dataclass(frozen=True)
class ScaleConfig:
  scale: float = 1.0
  negate: bool = False


@nki.jit(mode="simulation")
def scale_kernel(a_tensor, config=None):
  config = config or ScaleConfig()
  out = nl.ndarray(a_tensor.shape, dtype=a_tensor.dtype, buffer=nl.shared_hbm)
  a = nl.load(a_tensor)
  s = -config.scale if config.negate else config.scale
  nl.store(out, value=nl.multiply(a, s))
  return out
