# Calibration kernel: one [4, 4096] bf16 load (32 KiB on a single DMA engine) and its store.
# Measured on trn2 (nki-dma-overview screenshots, trainium-perf.md §3.9-6): the load takes ~2.46 us
# from trigger to completion, of which 1,416 ns is data movement.
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def dma_small_partitions(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.load(x)
    nl.store(out, value=t)
    return out
