# Every rule prompts/system.md states as a working pattern, in one kernel that
# tests/prompts/primer_rules_test.cpp runs on the simulator and checks against a direct
# computation: an accumulator created before a loop and updated with `acc[...] =`, a [P, 1] tile
# broadcast along the free axis, a store into a rank-1 output through a reshape((N, 1)) view,
# nisa.tensor_tensor_scan as a cumulative sum, column sums (a reduction over dim 0) by a matmul
# with a ones vector accumulated in PSUM, and nl.static_range giving a Python int that indexes a
# list.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def kernel(x):
    R, C = x.shape                      # 256 x 1024
    rowsum = nl.ndarray((R,), dtype=nl.float32, buffer=nl.shared_hbm)      # rank-1 output
    scaled = nl.ndarray((R, C), dtype=nl.float32, buffer=nl.shared_hbm)
    cums = nl.ndarray((R, C), dtype=nl.float32, buffer=nl.shared_hbm)
    colsum = nl.ndarray((1, C), dtype=nl.float32, buffer=nl.shared_hbm)
    picked = nl.ndarray((R, C), dtype=nl.float32, buffer=nl.shared_hbm)
    scales = [1.0, 2.0]
    ones = nl.ones((128, 1), dtype=nl.float32)
    for i in nl.affine_range(R // 128):
        acc = nl.zeros((128, 1), dtype=nl.float32, buffer=nl.sbuf)
        for j in nl.sequential_range(C // 512):
            t = nl.load(x[i * 128:(i + 1) * 128, j * 512:(j + 1) * 512])
            acc[...] = nl.add(acc, nl.sum(t, axis=1, keepdims=True))
        nl.store(rowsum.reshape((R, 1))[i * 128:(i + 1) * 128, :], value=acc)
        full = nl.load(x[i * 128:(i + 1) * 128, :])
        nl.store(scaled[i * 128:(i + 1) * 128, :], value=nl.multiply(full, acc))
        ones_f = nl.ones((128, C), dtype=nl.float32)
        cs = nisa.tensor_tensor_scan(ones_f, full, 0.0, np.multiply, np.add)
        nl.store(cums[i * 128:(i + 1) * 128, :], value=cs)
    for n in nl.affine_range(C // 512):
        ps = nl.zeros((1, 512), dtype=nl.float32, buffer=nl.psum)
        for i in nl.affine_range(R // 128):
            t = nl.load(x[i * 128:(i + 1) * 128, n * 512:(n + 1) * 512])
            ps += nl.matmul(ones, t, transpose_x=True)
        nl.store(colsum[0:1, n * 512:(n + 1) * 512], value=nl.copy(ps))
    for i in nl.static_range(R // 128):
        t = nl.load(x[i * 128:(i + 1) * 128, :])
        nl.store(picked[i * 128:(i + 1) * 128, :], value=nl.multiply(t, scales[i]))
    return rowsum, scaled, cums, colsum, picked
