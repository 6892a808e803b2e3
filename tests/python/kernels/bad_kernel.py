# A kernel the front end must reject: it stores into an input parameter.
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit(mode="simulation")
def writes_input(a_tensor):
  x = nl.load(a_tensor)
  nl.store(a_tensor, value=x)
  return a_tensor
