#include "agent/tools.h"

namespace nki::agent {

const char* failure_kind_name(FailureKind k) {
  switch (k) {
    case FailureKind::Unspecified: return "unspecified";
    case FailureKind::CompileError: return "compile_error";
    case FailureKind::RuntimeError: return "runtime_error";
    case FailureKind::Mismatch: return "mismatch";
  }
  return "unspecified";
}

std::string required_signature(const TaskInfo& task) {
  std::string sig = "def " + task.kernel_name + "(";
  bool first = true;
  for (const auto* group : {&task.inputs, &task.params, &task.buffers})
    for (const auto& t : *group) {
      if (!first) sig += ", ";
      sig += t.name;
      first = false;
    }
  return sig + "):";
}

}  // namespace nki::agent
