# Helpers for script_kernel.py: a plain sibling module (no package), imported absolutely.
import neuronxcc.nki.language as nl

OFFSET = 1.5


def shifted(tile):
  return nl.add(tile, OFFSET)
