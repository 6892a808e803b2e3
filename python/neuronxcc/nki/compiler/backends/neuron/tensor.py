"""Stand-in for a private neuronxcc module: the name exists for host-side annotations."""


class local_tile:
    """Type stand-in (annotations only); kernel bodies are traced by the C++ front end."""
