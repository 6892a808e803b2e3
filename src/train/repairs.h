// Mutations for repair episodes: each injects one of the error classes the checker and the
// verifier report most into a verified kernel, with the sentence that explains its fix. The
// episode records what our toolchain really answers to the broken kernel; a mutation that does
// not apply, or whose kernel still passes, yields no episode.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace nki::train {

struct Mutation {
  std::string kind;  // partition_overflow, missing_store, scope_error, psum_accumulate,
                     // output_dtype, mask_off_by_one, reduce_axis0
  std::string fix;   // what the fix turn says it changes (true of every kernel the mutation hits)
};

const std::vector<Mutation>& mutations();

// The mutated kernel, or nullopt when the mutation does not apply to `code`.
std::optional<std::string> apply_mutation(const std::string& kind, const std::string& code);

}  // namespace nki::train
