# Indirect load whose index runs past the end of the tensor: a runtime IndexError.
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit(mode="simulation")
def gather_rows(data, idx):
  out = nl.ndarray((idx.shape[0], data.shape[1]), dtype=data.dtype, buffer=nl.shared_hbm)
  i = nl.load(idx)
  iy = nl.arange(data.shape[1])[None, :]
  rows = nl.load(data[i, iy])
  nl.store(out, value=rows)
  return out
