// Shared helpers for the agent tests: a marker-driven fake KernelTools and quick configs.
#pragma once

#include <atomic>
#include <string>

#include "agent/client_config.h"
#include "agent/tools.h"

namespace nki::agent::testing {

// Kernels are plain strings here. compile fails when the code contains "SYNTAX_ERROR";
// verify passes when it contains "PASS_MARKER", otherwise reports a mismatch.
class MarkerTools : public KernelTools {
 public:
  ToolResult compile_kernel(const std::string& code) override {
    ++compiles;
    if (code.find("SYNTAX_ERROR") != std::string::npos)
      return {false, "kernel.py:3:5: error[syntax]: invalid syntax", FailureKind::CompileError, "syntax"};
    return {true, "OK: kernel compiles"};
  }
  ToolResult verify_kernel(const std::string& code) override {
    ++verifies;
    return judge(code);
  }
  // The harness's final verdict: like verify, except that a kernel containing "MEMORISED"
  // (one that only passes the public trials) fails it.
  ToolResult final_verdict(const std::string& code) override {
    ++finals;
    if (code.find("MEMORISED") != std::string::npos)
      return {false, "FAIL: wrong result on held-out trial 1234567", FailureKind::Mismatch};
    return judge(code);
  }
  std::atomic<int> compiles{0};
  std::atomic<int> verifies{0};
  std::atomic<int> finals{0};

 private:
  ToolResult judge(const std::string& code) {
    if (code.find("SYNTAX_ERROR") != std::string::npos)
      return {false, "kernel.py:3:5: error[syntax]: invalid syntax", FailureKind::CompileError, "syntax"};
    if (code.find("PASS_MARKER") != std::string::npos) return {true, "PASS: all outputs match"};
    return {false, "MISMATCH: output 0 differs at [0, 0]: got 1.0, expected 2.0", FailureKind::Mismatch};
  }
};

// Short timeouts and tiny back-off so failure tests finish in well under a second.
inline ClientConfig fast_config(const std::string& base_url, const std::string& model = "test-model") {
  ClientConfig c;
  c.model = model;
  c.base_url = base_url;
  c.api_key = "test-key";
  c.timeout_s = 2;
  c.retry.max_attempts = 3;
  c.retry.base_delay_s = 0.01;
  c.retry.max_delay_s = 0.02;
  c.retry.retry_after_cap_s = 0.05;
  return c;
}

inline const char* kGoodKernel =
    "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n\n@nki.jit\n"
    "def kernel(a, b):\n    # PASS_MARKER\n    return a\n";
inline const char* kBadKernel =
    "import neuronxcc.nki as nki\n\n@nki.jit\ndef kernel(a, b):\n    SYNTAX_ERROR\n";
inline const char* kWrongKernel =
    "import neuronxcc.nki as nki\n\n@nki.jit\ndef kernel(a, b):\n    return b\n";

}  // namespace nki::agent::testing
