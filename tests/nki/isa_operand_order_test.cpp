// Operand-order flags of the nisa calls (general/nki/api/nki/isa/__init__.py at 86051b85) as
// lowered into the IR. The values they compute are checked end to end by the conformance
// kernels tests/kernels/valid/nisa_*reverse*.py and nisa_tensor_copy_predicated_reverse_pred.py.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "nki/tracer.h"

using namespace nki;
using namespace nki::front;

namespace {

TraceResult trace(const std::string& call) {
  const std::string src =
      "import numpy as np\n"
      "import neuronxcc.nki as nki\n"
      "import neuronxcc.nki.language as nl\n"
      "import neuronxcc.nki.isa as nisa\n"
      "@nki.jit\n"
      "def f(x):\n"
      "    out = nl.ndarray((128, 64), dtype=nl.float32, buffer=nl.shared_hbm)\n"
      "    t = nl.load(x)\n"
      "    acc = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.sbuf)\n"
      "    r = " + call + "\n"
      "    nl.store(out, value=r)\n"
      "    return out\n";
  TraceOptions opts;
  std::string err;
  opts.args.push_back(*parse_arg_spec("128x64:float32", &err));
  return trace_kernel(std::make_shared<SourceFile>("k.py", src), opts);
}

const ir::Instr* find(const ir::Kernel& k, const std::string& name) {
  for (const ir::Stmt& s : k.body)
    if (const auto* in = std::get_if<ir::Instr>(&s.node); in && in->name == name) return in;
  return nullptr;
}

}  // namespace

// tensor_scalar: reverse0 makes operand0 the lhs of op0 (srcs swapped), reverse1 makes operand1
// the lhs of op1 (int_attrs[1], read by the executor).
TEST(IsaOperandOrder, TensorScalarFlags) {
  TraceResult r = trace("nisa.tensor_scalar(t, np.subtract, 2.0, reverse0=True, op1=np.divide, operand1=3.0, reverse1=True)");
  ASSERT_TRUE(r.ok());
  const ir::Instr* in = find(*r.kernel, "nisa.tensor_scalar");
  ASSERT_NE(in, nullptr);
  ASSERT_EQ(in->srcs.size(), 3u);
  EXPECT_TRUE(in->srcs[0].is_imm);
  EXPECT_EQ(in->srcs[0].imm, 2.0);
  EXPECT_FALSE(in->srcs[1].is_imm);
  ASSERT_EQ(in->int_attrs.size(), 2u);
  EXPECT_EQ(in->int_attrs[1], 1);
  TraceResult plain = trace("nisa.tensor_scalar(t, np.subtract, 2.0, op1=np.divide, operand1=3.0)");
  ASSERT_TRUE(plain.ok());
  in = find(*plain.kernel, "nisa.tensor_scalar");
  ASSERT_NE(in, nullptr);
  EXPECT_FALSE(in->srcs[0].is_imm);
  EXPECT_EQ(in->int_attrs.size() > 1 ? in->int_attrs[1] : 0, 0);
}

// tensor_scalar_reduce: the docstring marks reverse0 "(not supported yet)".
TEST(IsaOperandOrder, TensorScalarReduceReverse0IsRejected) {
  TraceResult r = trace(
      "nisa.tensor_scalar_reduce(data=t, op0=np.subtract, operand0=1.0, reduce_op=np.add, reduce_res=acc, "
      "reverse0=True)");
  ASSERT_FALSE(r.ok());
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics.back().code, "unsupported_api");
  EXPECT_EQ(r.diagnostics.back().line, 10);
  TraceResult ok = trace(
      "nisa.tensor_scalar_reduce(data=t, op0=np.subtract, operand0=1.0, reduce_op=np.add, reduce_res=acc)");
  EXPECT_TRUE(ok.ok());
}
