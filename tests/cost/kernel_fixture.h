// Compiling kernel text or files for the cost-model tests (in process, real front end).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "cost/cost_model.h"
#include "toolchain/profile.h"

namespace nki::cost::testing {

inline std::string source_dir() {
  const char* d = std::getenv("NKI_SOURCE_DIR");
  return d ? d : NKI_SOURCE_DIR;
}

inline std::vector<front::ArgSpec> specs(const std::vector<std::string>& args) {
  std::vector<front::ArgSpec> out;
  for (const std::string& a : args) {
    std::string err;
    auto s = front::parse_arg_spec(a, &err);
    if (!s) throw std::runtime_error("bad arg spec " + a + ": " + err);
    out.push_back(*s);
  }
  return out;
}

// Compiles `file` (or fails the test) and returns the kernel.
inline std::shared_ptr<ir::Kernel> compile_file(const SourceFilePtr& file, const std::vector<std::string>& args,
                                                nki::Target target = nki::Target::Trn1) {
  front::TraceOptions o;
  o.args = specs(args);
  o.target = target;
  toolchain::CompileResult c = toolchain::compile(file, o);
  std::string diags;
  for (const Diagnostic& d : c.diagnostics) diags += render_text(d);
  EXPECT_TRUE(c.ok()) << file->path() << ":\n" << diags;
  return c.kernel;
}

inline std::shared_ptr<ir::Kernel> compile_text(const std::string& text, const std::vector<std::string>& args,
                                                nki::Target target = nki::Target::Trn1) {
  return compile_file(std::make_shared<SourceFile>("test_kernel.py", text), args, target);
}

}  // namespace nki::cost::testing
