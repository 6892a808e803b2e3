// Custom instructions, dispatched by name (operand conventions: machine/custom_ops.h).
#include "machine/ops.h"
#include "machine/ops_common.h"

namespace nki::machine {

void exec_custom(ExecContext& cx, const ir::Instr& in) {
  cx.fail("sim_unsupported", "the simulator does not implement custom instruction '" + in.name +
                                 "'");
}

}  // namespace nki::machine
