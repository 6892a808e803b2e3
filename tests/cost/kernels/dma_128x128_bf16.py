# Calibration kernel: one [128, 128] bf16 load (32 KiB over all 16 DMA engines, 2 KiB each) and its
# store. Measured on trn2 (nki-dma-overview screenshots, trainium-perf.md §3.9-6): ~1.28 us from
# trigger to completion of the load.
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def dma_all_partitions(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.load(x)
    nl.store(out, value=t)
    return out
