# Calibration kernel: the instruction structure of the NKIBench AdamW baseline (fp32 [10944, 2048];
# four [128, 1024] loads per step, per [128, 512] half eight tensor_scalar, six tensor_tensor, one
# sqrt on ScalarE, one reciprocal; one store). Measured 2.000 ms on trn1 (trainium-perf.md §5.1,
# AccelOpt profile_results). The last row block is masked (10944 = 85.5 x 128).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def adamw_tiles(theta, g, m, v):
    M, N = theta.shape
    out = nl.ndarray((M, N), dtype=theta.dtype, buffer=nl.shared_hbm)
    zero = nisa.memset(shape=(128, 1), value=0.0, dtype=np.float32)
    ip = nl.arange(128)[:, None]
    iw = nl.arange(1024)[None, :]
    ih = nl.arange(512)[None, :]
    for r in nl.affine_range((M + 127) // 128):
        for c in nl.affine_range(N // 1024):
            rows = r * 128 + ip
            th = nl.load(theta[rows, c * 1024 + iw], mask=(rows < M))
            mt = nl.load(m[rows, c * 1024 + iw], mask=(rows < M))
            vt = nl.load(v[rows, c * 1024 + iw], mask=(rows < M))
            gt = nl.load(g[rows, c * 1024 + iw], mask=(rows < M))
            res = nl.ndarray((nl.par_dim(128), 1024), dtype=theta.dtype, buffer=nl.sbuf)
            for h in nl.affine_range(2):
                o = h * 512 + ih
                decay = nisa.tensor_scalar(th[ip, o], np.multiply, 1e-5)
                th2 = nl.subtract(th[ip, o], decay)
                m1 = nisa.tensor_scalar(mt[ip, o], np.multiply, 0.9)
                g1 = nisa.tensor_scalar(gt[ip, o], np.multiply, 0.1)
                m2 = nl.add(m1, g1)
                step = nisa.tensor_scalar(m2, np.multiply, 0.01)
                v1 = nisa.tensor_scalar(vt[ip, o], np.multiply, 0.999)
                g2 = nisa.tensor_scalar(gt[ip, o], np.multiply, 0.001)
                g3 = nl.multiply(g2, gt[ip, o])
                v2 = nl.add(v1, g3)
                root = nisa.activation(op=nl.sqrt, data=v2, bias=zero, scale=1000.0)
                den = nisa.tensor_scalar(root, np.add, 1e-8)
                inv = nisa.reciprocal(den)
                upd = nl.multiply(step, inv)
                res[ip, o] = nl.subtract(th2, upd)
            nl.store(out[rows, c * 1024 + iw], value=res, mask=(rows < M))
    return out
