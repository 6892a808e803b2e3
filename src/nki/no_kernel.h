// The start of the IoError the tracer throws when a module defines no kernel function at all (no
// --kernel NAME and no @nki.jit / @nki.trace function). The RL server's graded reward tells "no
// kernel" from a kernel that fails by this prefix (serve/evaluate.cpp), which survives the error
// crossing an isolation boundary as text. A header of its own so that its users need not
// include the tracer.
#pragma once

namespace nki::front {

inline constexpr const char* kNoKernelFound = "no @nki.jit kernel found";

}  // namespace nki::front
