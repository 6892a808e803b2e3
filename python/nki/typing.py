"""`nki.typing`: annotations matter to the front end only (it reads the kernel source)."""
from neuronxcc.nki.typing import mutable_tensor, scalar, tensor  # noqa: F401
