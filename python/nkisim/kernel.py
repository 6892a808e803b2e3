"""The host-side kernel object behind nki.jit / nki.trace / nki.baremetal / simulate_kernel.

Calling a Kernel with numpy arrays hands the kernel's source file and name to the C++ front
end (which traces the file itself; Python never runs the kernel body) and returns the
simulator's outputs as numpy arrays.
"""
import inspect
import os

import numpy as np

import _nkisim

from . import literals

ENTRY_NAME = "__nkisim_entry"


def _grid_extent(g):
    """An int grid extent; the shim's nl.nc(2) / nl.spmd_dim(...) objects convert with int()."""
    try:
        return int(g)
    except TypeError:
        raise TypeError(f"SPMD grid extents must be integers, got {g!r}") from None


class Kernel:
    def __init__(self, func, mode="auto", platform_target=None, grid=(), **options):
        while isinstance(func, Kernel):  # stacked decorators
            func = func.func
        self.func = func
        self.mode = mode
        self.platform_target = platform_target
        self.grid = tuple(grid)
        self.options = options
        self.__name__ = getattr(func, "__name__", "kernel")
        self.__doc__ = getattr(func, "__doc__", None)
        self.__wrapped__ = func

    def __repr__(self):
        return f"<nkisim kernel {self.__name__} mode={self.mode!r}>"

    def __getitem__(self, grid):
        grid = grid if isinstance(grid, tuple) else (grid,)
        return Kernel(self.func, self.mode, self.platform_target, tuple(_grid_extent(g) for g in grid),
                      **self.options)

    def __call__(self, *args, **kwargs):
        # mode="simulation" reproduces nki.simulate_kernel (bf16/fp8 held in fp32, spec §7.1);
        # baremetal/auto stand for hardware, whose stores round (precise numerics).
        return self.launch(args, kwargs, "legacy" if self.mode == "simulation" else "precise")

    def _target(self):
        t = self.platform_target or os.environ.get("NEURON_PLATFORM_TARGET_OVERRIDE") or "trn1"
        return {"gen2": "trn1", "gen3": "trn2"}.get(t, t)

    def launch(self, args, kwargs, numerics):
        numerics = os.environ.get("NKISIM_NUMERICS", numerics)
        func = self.func
        source = inspect.getsourcefile(func)
        if source is None:
            raise TypeError(f"kernel {self.__name__}: its source file is unknown")
        arrays, consts, entry = self._marshal(args, kwargs)
        kernel_name = ENTRY_NAME if entry else func.__name__
        outputs, _ = _nkisim.run(os.path.abspath(source), kernel_name, arrays, consts, list(self.grid),
                                 self._target(), numerics, entry)
        if not outputs:
            return None
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def _marshal(self, args, kwargs):
        """Splits the call into (arrays, consts, entry_code).

        The front end binds arrays to the leading positional parameters and literal consts by
        name. Anything else (an array after a non-array parameter, a value with no literal form)
        goes through a generated entry function appended to the kernel's file.
        """
        sig = inspect.signature(self.func)
        bound = sig.bind(*args, **kwargs)
        arrays, consts, call_args = [], {}, []
        leading, needs_entry = True, False
        for p in sig.parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                if bound.arguments.get(p.name):
                    raise TypeError(f"kernel {self.__name__}: *args/**kwargs parameters are not supported")
                continue
            if p.name not in bound.arguments:
                leading = False
                continue
            value = bound.arguments[p.name]
            if isinstance(value, np.ndarray):
                call_args.append(f"{p.name}=__nkisim_a{len(arrays)}")
                arrays.append(value)
                needs_entry |= not leading
                continue
            leading = False
            try:
                text = literals.literal(value)
                consts[p.name] = text
            except literals.NotLiteral:
                text = literals.expression(value, self.func.__globals__)
                needs_entry = True
            call_args.append(f"{p.name}={text}")
        if not needs_entry:
            return arrays, consts, ""
        params = ", ".join(f"__nkisim_a{i}" for i in range(len(arrays)))
        entry = (literals.ENTRY_IMPORTS +
                 f"def {ENTRY_NAME}({params}):\n"
                 f"    return {self.func.__name__}({', '.join(call_args)})\n")
        return arrays, {}, entry
