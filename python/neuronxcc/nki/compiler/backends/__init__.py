"""Stand-ins for private neuronxcc.nki.compiler.backends modules that published kernels import
on the host for type annotations only (nki-samples reference/util: TileIndex, local_tile)."""
