"""The host-side kernel object behind nki.jit / nki.trace / nki.baremetal / simulate_kernel.

Calling a Kernel with numpy arrays hands the kernel's source file and name to the C++ front
end (which traces the file itself; Python never runs the kernel body) and returns the
simulator's outputs as numpy arrays.
"""
import inspect
import os

import numpy as np

import _nkisim

from . import literals, source_edit


def _grid_extent(g):
    """An int grid extent; the shim's nl.nc(2) / nl.spmd_dim(...) objects convert with int().

    The launch grid becomes nested loops of kernel instances (general/nki/programming_model.rst,
    SPMD section). An extent below 1 launches no instance: the kernel would run nothing and
    return nothing, so it is an error here rather than outputs nobody wrote.
    """
    try:
        n = int(g)
    except TypeError:
        raise TypeError(f"SPMD grid extents must be integers, got {g!r}") from None
    if n < 1:
        raise ValueError(f"SPMD grid extent {n}: a launch grid dimension must be at least 1 "
                         "(a zero-size grid runs no kernel instance, so there would be no output)")
    return n


class Kernel:
    # A kernel named test_* (as in the official test_nki_nl_broadcast.py) is not a pytest test.
    __test__ = False

    def __init__(self, func, mode="auto", platform_target=None, grid=(), **options):
        # nki.compiler kernel decorators seen so far (compiler.py): recorded, no numeric effect.
        self.compiler_decorators = ()
        while isinstance(func, Kernel):  # stacked decorators, e.g. baremetal(jit(platform_target=...)(f))
            platform_target = platform_target or func.platform_target
            self.compiler_decorators = func.compiler_decorators + self.compiler_decorators
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
        k = Kernel(self.func, self.mode, self.platform_target, tuple(_grid_extent(g) for g in grid),
                   **self.options)
        k.compiler_decorators = self.compiler_decorators
        return k

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
        arrays, consts, source_text = self._marshal(args, kwargs)
        outputs, _ = _nkisim.run(os.path.abspath(source), func.__name__, arrays, consts, list(self.grid),
                                 self._target(), numerics, source_text)
        if not outputs:
            return None
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def _marshal(self, args, kwargs):
        """Splits the call into (arrays, consts, source_text).

        The front end binds arrays to the leading positional parameters and literal consts by
        name. A value with no literal form becomes the parameter's default in an edited copy
        of the source (source_edit.py); so do the literals after it, since Python wants
        every parameter after a defaulted one to have a default too.
        """
        sig = inspect.signature(self.func)
        bound = sig.bind(*args, **kwargs)
        arrays, values = [], []  # values: (name, literal text or None, value)
        array_names = []
        for p in sig.parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                if bound.arguments.get(p.name):
                    raise TypeError(f"kernel {self.__name__}: *args/**kwargs parameters are not supported")
                continue
            if p.name not in bound.arguments:
                continue
            value = bound.arguments[p.name]
            if isinstance(value, np.ndarray):
                # The front end binds arrays to the leading parameters; when an array follows
                # another parameter, source_edit moves the array parameters to the front.
                arrays.append(value)
                array_names.append(p.name)
                continue
            try:
                text = literals.literal(value)
            except literals.NotLiteral:
                text = None
            values.append((p.name, text, value))

        consts, defaults = {}, {}
        for name, text, value in values:
            if defaults or text is None:
                defaults[name] = text if text is not None else literals.expression(value, self.func.__globals__)
            else:
                consts[name] = text
        # nki.trace kernels use the legacy pass-by-reference convention: outputs are parameters
        # the kernel stores into. The front end allows that for nt.mutable_tensor parameters.
        mutable = array_names if self.mode == "trace" else []
        leading = list(sig.parameters)[:len(array_names)] == array_names
        if not defaults and not mutable and leading:
            return arrays, consts, ""
        with open(inspect.getsourcefile(self.func), encoding="utf-8") as f:
            source = f.read()
        return arrays, consts, source_edit.with_defaults(source, self.func.__name__, defaults, mutable,
                                                         array_names)
