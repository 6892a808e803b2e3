# nki-case: args=64x96:float32,64x1:float32,64x1:float32
# nisa.tensor_scalar_cumulative (post-2.24 extra, HEAD nki/api/nki/isa): a running max of
# (x * scale[p]) along each row, then a second instruction with reduce_cmd=load_reduce that
# starts each row's running sum from init[p], then a third with reduce_cmd=reduce that keeps
# folding from where the second stopped (the VectorE accumulator persists between instructions).
# expect-output: (np.maximum.accumulate(in0 * in1, axis=1), np.cumsum(in0 - 1.0, axis=1) + in2, np.cumsum(in0 - 1.0, axis=1)[:, -1:] + in2 + np.cumsum(in0, axis=1))
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def running_stats(x, scale, init):
    run_max = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.shared_hbm)
    run_sum = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.shared_hbm)
    run_more = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.shared_hbm)
    xt = nl.load(x)
    s = nl.load(scale)
    i0 = nl.load(init)
    m = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_scalar_cumulative(dst=m, src=xt, op0=nl.multiply, op1=nl.maximum, imm0=s)
    c = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_scalar_cumulative(dst=c, src=xt, op0=nl.subtract, op1=nl.add, imm0=1.0, imm1=i0,
                                  reduce_cmd=nisa.reduce_cmd.load_reduce)
    d = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_scalar_cumulative(dst=d, src=xt, op0=nl.add, op1=nl.add, imm0=0.0,
                                  reduce_cmd=nisa.reduce_cmd.reduce)
    nl.store(run_max, value=m)
    nl.store(run_sum, value=c)
    nl.store(run_more, value=d)
    return run_max, run_sum, run_more
