# Legacy pass-by-reference convention: the output is a parameter the kernel writes.
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt


@nki.trace
def double_into(in_ref, out_ref: nt.mutable_tensor):
  x = nl.load(in_ref)
  nl.store(out_ref, value=nl.multiply(x, 2.0))


# The same without annotations, as the official doc tests write it: the shim marks the array
# parameters of nki.trace kernels mutable.
@nki.trace
def add_into(a_ref, b_ref, out_ref):
  nl.store(out_ref, value=nl.add(nl.load(a_ref), nl.load(b_ref)))
