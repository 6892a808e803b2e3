"""Shim of `neuronxcc.nki.compiler`.

The kernel decorators of SDK 2.24 (general/nki/api/nki.compiler.rst, "Kernel Decorators":
skip_middle_end_transformations, enable_stack_allocator, force_auto_alloc) are real host-side
decorators here: they stack with @nki.jit in either order, with or without parentheses, and
hand back a callable kernel. They change how neuronx-cc compiles the kernel, not what it
computes, and the C++ front end reads them from the source itself, so the shim only records
them. Everything else in the namespace (sbuf.alloc, psum.mod_alloc, multi_buffer, ...) is
kernel-side and resolves to a Deferred, as in nl.
"""
from .._deferred import module_getattr


def _kernel_decorator(name):
    def decorator(func=None, *args, **options):
        def apply(f):
            # Imported here: nkisim.kernel imports the shim's modules.
            from nkisim.kernel import Kernel
            if isinstance(f, Kernel):  # above @nki.jit: keep the kernel, note the decorator
                f.compiler_decorators = f.compiler_decorators + ((name, args, options),)
                return f
            if not callable(f):
                raise TypeError(f"nki.compiler.{name} decorates a kernel function, got {f!r}")
            # Below @nki.jit: nki.jit wraps the function that comes back; keep it unchanged.
            return f
        return apply if func is None else apply(func)
    decorator.__name__ = decorator.__qualname__ = name
    decorator.__doc__ = f"SDK 2.24 kernel decorator nki.compiler.{name} (recorded; no numeric effect)."
    return decorator


skip_middle_end_transformations = _kernel_decorator("skip_middle_end_transformations")
# enable_stack_allocator(func=None, log_level=50) in the 2.24 API reference.
enable_stack_allocator = _kernel_decorator("enable_stack_allocator")
force_auto_alloc = _kernel_decorator("force_auto_alloc")

__getattr__ = module_getattr("__nkisim_ncc")
