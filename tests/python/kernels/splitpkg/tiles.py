import neuronxcc.nki.language as nl

from .constants import SCALE


def scaled(tile):
  # SCALE is this module's global, not the kernel module's.
  return nl.multiply(tile, SCALE)


def bad_helper(tile):
  wide = nl.zeros((256, 4), dtype=nl.float32, buffer=nl.sbuf)  # line 12: 256 partitions
  return nl.add(tile, wide)
