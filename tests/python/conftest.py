# Makes tests/python/kernels importable and checks the build tree is on PYTHONPATH.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels"))
