// Reading the files named on the command line. The base readers open a directory without
// complaint (std::ifstream succeeds on Linux and then reads nothing), which made `verify DIR`
// a runtime error and `run --input DIR` abort; here every unusable path is an IoError (exit 2).
#pragma once

#include <string>

#include "base/host_tensor.h"
#include "base/source.h"

namespace nki::cli {

// A kernel source file (check, ir, run, verify).
SourceFilePtr read_kernel_file(const std::string& path);

// A --input PATH[:DTYPE] array: the .npy at PATH, converted to DTYPE when one is given.
HostTensor read_input_array(const std::string& spec);

}  // namespace nki::cli
