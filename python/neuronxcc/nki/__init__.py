"""Shim of `neuronxcc.nki` (SDK 2.24 legacy dialect) backed by the NKI-Agent simulator.

Decorated kernels are not run by Python: calling them sends the kernel's source file to the
C++ front end, which traces it with its own nl/nisa bindings, and the simulator runs it.
"""
from nkisim import NkiCompileError, NkiError, NkiRuntimeError  # noqa: F401
from nkisim.kernel import Kernel

from . import compiler, isa, language, typing  # noqa: F401

tensor = typing.tensor


def _decorator(default_mode):
    def make(func=None, mode=None, **kwargs):
        mode = mode or default_mode
        if func is None:  # used as @decorator(...)
            return lambda f: Kernel(f, mode=mode, **kwargs)
        return Kernel(func, mode=mode, **kwargs)
    return make


# jit(mode="auto") with numpy arrays means baremetal (hardware numerics: precise).
jit = _decorator("auto")
baremetal = _decorator("baremetal")
trace = _decorator("trace")
# benchmark/profile outputs are undefined on hardware; here they simply run the kernel.
benchmark = _decorator("benchmark")
profile = _decorator("profile")


def simulate_kernel(kernel, *args, **kwargs):
    """Runs `kernel` with legacy simulator numerics (bf16/fp8 kept in fp32, spec §7.1).
    Arrays written by pass-by-reference kernels are filled in place."""
    k = kernel if isinstance(kernel, Kernel) else Kernel(kernel, mode="simulation")
    return k.launch(args, kwargs, "legacy")


class FrameworkKernel:
    """Placeholder for framework integration (not needed by the simulator)."""
