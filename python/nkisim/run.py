"""python3 -m nkisim.run FILE_OR_DIR... [-- runner args]

Runs existing NKI test files against the NKI-Agent simulator: the `neuronxcc` shim that sits
next to this package is put first on sys.path (that is the opt-in), then the files' tests run
under pytest when it is installed, else under unittest. Extra arguments go to the runner.
"""
import importlib.util
import os
import sys
import unittest

SHIM_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def activate_shim():
    """Makes `import neuronxcc` resolve to the shim, even if a real Neuron SDK is installed."""
    if sys.path[:1] != [SHIM_DIR]:
        sys.path.insert(0, SHIM_DIR)
    for name in [m for m in sys.modules if m == "neuronxcc" or m.startswith("neuronxcc.")]:
        del sys.modules[name]
    os.environ["PYTHONPATH"] = SHIM_DIR + os.pathsep + os.environ.get("PYTHONPATH", "")


def run_unittest(paths, extra):
    suite = unittest.TestSuite()
    for path in paths:
        name = os.path.splitext(os.path.basename(path))[0]
        sys.path.insert(1, os.path.dirname(os.path.abspath(path)))
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        suite.addTests(unittest.defaultTestLoader.loadTestsFromModule(module))
    verbosity = 2 if "-v" in extra else 1
    result = unittest.TextTestRunner(verbosity=verbosity).run(suite)
    return 0 if result.wasSuccessful() else 1


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    use_unittest = "--unittest" in argv
    if use_unittest:
        argv.remove("--unittest")
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    paths = [a for a in argv if not a.startswith("-") and os.path.exists(a)]
    extra = [a for a in argv if a not in paths]
    activate_shim()
    if not use_unittest:
        try:
            import pytest
        except ImportError:
            use_unittest = True
    if use_unittest:
        files = []
        for p in paths:
            if os.path.isdir(p):
                files += sorted(os.path.join(p, f) for f in os.listdir(p)
                                if f.startswith("test") and f.endswith(".py"))
            else:
                files.append(p)
        return run_unittest(files, extra)
    return pytest.main(paths + extra + ["-p", "no:cacheprovider"])


if __name__ == "__main__":
    sys.exit(main())
