"""Drop-in `nki` package (the current NKI dialect, NKI 0.2-0.6) backed by the NKI-Agent simulator.

Kernel bodies are not run by Python: calling a kernel sends its source file to the C++ front
end, which reads the file as the current dialect (detected from `import nki`), traces it and
simulates it. Entry points (nki/api/nki/__init__.py at aws-neuron-sdk HEAD):

* `nki.jit(fn=None, **kwargs)`: called with NumPy arrays the kernel compiles and runs
  (standalone mode); with `NKI_SIMULATOR=1` (the documented simulator switch) torch tensors
  are simulated too.
* `nki.simulate(kernel)(*args)`: runs on the simulator; NumPy in, NumPy out (torch in, torch out).
* `kernel[lnc]`: the logical-NeuronCore degree (1 or 2); nl.program_id(0) tells the cores apart.
"""
import os

import numpy as np

from nkisim import NkiCompileError, NkiError, NkiRuntimeError  # noqa: F401
from nkisim.kernel import Kernel as _Kernel

from . import isa, language, typing  # noqa: F401


def _to_numpy(args):
    """NumPy views of torch tensors (and a flag saying the caller passed torch)."""
    out, torch_in = [], False
    for a in args:
        if type(a).__module__.startswith("torch"):
            torch_in = True
            a = a.detach().cpu().numpy()
        out.append(a)
    return out, torch_in


def _from_numpy(result, torch_in):
    if not torch_in or result is None:
        return result
    import torch
    if isinstance(result, tuple):
        return tuple(torch.from_numpy(np.ascontiguousarray(r)) for r in result)
    return torch.from_numpy(np.ascontiguousarray(result))


class Kernel(_Kernel):
    """A current-dialect kernel: precise numerics (NKI_PRECISE_FP=1 is the simulator default
    from NKI 0.4), torch tensors accepted and returned."""

    def __getitem__(self, lnc):
        if isinstance(lnc, tuple):
            raise TypeError("kernel[lnc] takes one logical-NeuronCore degree in the current NKI dialect")
        k = Kernel(self.func, self.mode, self.platform_target, (int(lnc),), **self.options)
        return k

    def __call__(self, *args, **kwargs):
        arrays, torch_in = _to_numpy(args)
        kw = {k: _to_numpy([v])[0][0] for k, v in kwargs.items()}
        if torch_in and os.environ.get("NKI_SIMULATOR") != "1":
            raise RuntimeError("torch tensors need a Neuron device; set NKI_SIMULATOR=1 (or use nki.simulate) "
                               "to run on the NKI-Agent simulator")
        return _from_numpy(self.launch(arrays, kw, "precise"), torch_in)


def jit(fn=None, **kwargs):
    """`@nki.jit` / `@nki.jit(...)`. mode= is ignored as in NKI 0.3+; platform_target= is an error
    there (use NEURON_PLATFORM_TARGET_OVERRIDE)."""
    if "platform_target" in kwargs:
        raise TypeError("nki.jit(platform_target=...) was removed in NKI 0.3; set NEURON_PLATFORM_TARGET_OVERRIDE")
    kwargs.pop("mode", None)
    if fn is None:
        return lambda f: Kernel(f, mode="auto", **kwargs)
    return Kernel(fn, mode="auto", **kwargs)


def simulate(kernel):
    """`nki.simulate(kernel)(*args)`: the kernel on the CPU simulator."""
    k = kernel if isinstance(kernel, Kernel) else Kernel(getattr(kernel, "func", kernel))

    def run(*args, **kwargs):
        arrays, torch_in = _to_numpy(args)
        kw = {n: _to_numpy([v])[0][0] for n, v in kwargs.items()}
        return _from_numpy(k.launch(arrays, kw, "precise"), torch_in)
    return run
