# Calibration kernel (upper bound): global average pooling of [1, 512, 7, 7] fp32 (channels on
# the partitions, 4 tiles of 128), the smallest adaptive avg-pool case of the nki-samples perf
# tests, nc_latency threshold 14 x 1.05 us on trn1 (trainium-perf.md §2.7, §3.9-8 [SMP-t]).
# Written for this project: load, sum over the 49 pixels, scale by 1/49, store.
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def global_avg_pool(x):
    B, C, H, W = x.shape
    out = nl.ndarray((B, C, 1, 1), dtype=x.dtype, buffer=nl.shared_hbm)
    flat = x.reshape((B * C, H * W))
    dst = out.reshape((B * C, 1))
    for t in nl.affine_range(B * C // 128):
        xt = nl.load(flat[t * 128:(t + 1) * 128, :])
        s = nl.sum(xt, axis=1, keepdims=True)
        nl.store(dst[t * 128:(t + 1) * 128, :], value=nl.multiply(s, 1.0 / (H * W)))
    return out
