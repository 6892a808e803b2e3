// Facts about a kernel module's source that the validators need without running it: the
// @nki.jit function's name and parameters, and a hash that ignores formatting and comments.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace nki::train {

struct KernelSignature {
  std::string name;
  std::vector<std::string> params;  // positional parameters, in order
};

// The signature of the module's decorated kernel (the first function whose decorator names
// `jit`); nullopt when the source does not parse or has no such function.
std::optional<KernelSignature> kernel_signature(const std::string& source);

// SHA-256 (hex) of the module's tokens with comments, docstrings and layout removed, so that two
// copies differing only in comments or whitespace are one kernel. Falls back to the raw text
// when the source does not tokenise.
std::string normalized_kernel_hash(const std::string& source);

}  // namespace nki::train
