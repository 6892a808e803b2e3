"""NKI-Agent's stand-in for the Neuron compiler package (opt-in; see docs/python.md).

Only `neuronxcc.nki` is provided: enough for existing NKI test suites to run their kernels on
the NKI-Agent simulator. Putting this directory on sys.path is the opt-in.
"""
