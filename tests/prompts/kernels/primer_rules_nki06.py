# Every rule prompts/nki-0.6/system.md states as a working pattern, in one current-dialect kernel
# that tests/prompts/primer_rules_test.cpp runs on the simulator (x: 300 x 1024, so the last row
# tile is ragged) and checks against a direct computation: Python-int loop indices with a
# min()-sized last tile, destination-passing ISA calls into tiles allocated with nl.ndarray, an
# accumulator updated in place across a loop, a [P, 1] tile broadcast along the free axis, a
# store into a rank-1 output through a reshape((N, 1)) view, nisa.tensor_tensor_scan as a
# cumulative sum, column sums (a reduction over dim 0) by nc_matmul with a ones vector into one
# PSUM tile (the first write overwrites, later ones accumulate), and a loop index that picks a
# Python list element.
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def kernel(x):
    R, C = x.shape
    P = nl.tile_size.pmax
    rowsum = nl.ndarray((R,), dtype=nl.float32, buffer=nl.shared_hbm)      # rank-1 output
    scaled = nl.ndarray((R, C), dtype=nl.float32, buffer=nl.shared_hbm)
    cums = nl.ndarray((R, C), dtype=nl.float32, buffer=nl.shared_hbm)
    colsum = nl.ndarray((1, C), dtype=nl.float32, buffer=nl.shared_hbm)
    picked = nl.ndarray((R, C), dtype=nl.float32, buffer=nl.shared_hbm)
    scales = [1.0, 2.0, 3.0]
    for i in range((R + P - 1) // P):
        r0 = i * P
        p = min(P, R - r0)                       # 128, 128, then 44 rows
        acc = nl.ndarray((p, 1), dtype=nl.float32, buffer=nl.sbuf)
        nisa.memset(dst=acc, value=0.0)
        for j in range(C // 512):
            t = nl.ndarray((p, 512), dtype=nl.float32, buffer=nl.sbuf)
            nisa.dma_copy(dst=t, src=x[r0:r0 + p, j * 512:(j + 1) * 512])
            part = nl.ndarray((p, 1), dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_reduce(dst=part, op=nl.add, data=t, axis=1, keepdims=True)
            nisa.tensor_tensor(dst=acc, data1=acc, data2=part, op=nl.add)
        nisa.dma_copy(dst=rowsum.reshape((R, 1))[r0:r0 + p, :], src=acc)
        full = nl.load(x[r0:r0 + p, :])
        nl.store(scaled[r0:r0 + p, :], value=nl.multiply(full, acc))
        ones_f = nl.ones((p, C), dtype=nl.float32)
        cs = nl.ndarray((p, C), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_tensor_scan(dst=cs, data0=ones_f, data1=full, initial=0.0, op0=nl.multiply, op1=nl.add)
        nl.store(cums[r0:r0 + p, :], value=cs)
        nl.store(picked[r0:r0 + p, :], value=nl.multiply(full, scales[i]))
    ones = nl.ones((P, 1), dtype=nl.float32)
    for n in range(C // 512):
        ps = nl.ndarray((1, 512), dtype=nl.float32, buffer=nl.psum)
        for i in range((R + P - 1) // P):
            r0 = i * P
            p = min(P, R - r0)
            t = nl.load(x[r0:r0 + p, n * 512:(n + 1) * 512])
            nisa.nc_matmul(dst=ps, stationary=ones[0:p, :], moving=t)
        res = nl.ndarray((1, 512), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_copy(dst=res, src=ps)
        nisa.dma_copy(dst=colsum[0:1, n * 512:(n + 1) * 512], src=res)
    return rowsum, scaled, cums, colsum, picked
