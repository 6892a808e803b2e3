#include "nki/nisa_rules.h"

#include "base/diag_codes.h"
#include "nki/api_common.h"

namespace nki::front::nisa {

ir::Engine engine_of(const Ref& r, ir::Engine dflt) {
  auto v = r && !py::is_none(r) ? py::as_int(r) : std::nullopt;
  if (!v) return dflt;
  switch (*v) {
    case 1: return ir::Engine::Tensor;
    case 2: return ir::Engine::Scalar;
    case 3: return ir::Engine::GpSimd;
    case 5: return ir::Engine::Vector;
    case 6: return ir::Engine::Sync;
    default: return dflt;
  }
}

ir::Alu need_alu(const Ref& r, const std::string& api, const std::string& arg) {
  if (auto a = op_alu(r)) return *a;
  nki_error(diag::Code::invalid_alu_op, "'" + arg + "' of '" + api + "' must be an ALU operator such as nl.add or np.multiply, got " +
                                  (r ? r->repr() : std::string("None")));
}

void not_both_psum(const TensorObj& a, const TensorObj& b, const std::string& api) {
  if (a.buffer() == ir::Buffer::Psum && b.buffer() == ir::Buffer::Psum)
    nki_error(diag::Code::err_unsupported_memory, "both input tiles of '" + api + "' are in PSUM; at most one may be",
              "copy one operand to SBUF first with nl.copy");
}

}  // namespace nki::front::nisa
