// Values the CLI option fuzzer puts into options: malformed numbers at and beyond the table's
// range, bad paths, broken specs for the options whose text has a grammar (--arg, --grid,
// --shard, --const, --input, --model), and plain junk. Also the fixed list used by --sweep.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "cli/option_table.h"

namespace nki::cli::fuzz {

// Paths inside the fuzzer's scratch directory that values may point at.
struct ScratchPaths {
  std::string dir;          // the scratch directory itself (a directory, not a file)
  std::string kernel;       // a valid two-input kernel
  std::string npy;          // a valid 4x4 float32 .npy
  std::string corrupt_npy;  // ".npy" with a broken header
  std::string empty_file;
  std::string text_file;    // not a kernel, not an array, not JSON
  std::string overwritable;  // an existing file output options may point at; no input reads it
};

// A few hand-picked bad values for `option`, the same on every call (for --sweep).
std::vector<std::string> fixed_bad_values(const OptionSpec& option, const ScratchPaths& paths);

// One random value for `option`: mostly malformed, sometimes valid so that later options get
// exercised too.
std::string random_value(const OptionSpec& option, const ScratchPaths& paths, std::mt19937_64& rng);

}  // namespace nki::cli::fuzz
