// `nkiagent migrate`: the source-to-source rewrite of a legacy (neuronxcc.nki, SDK 2.24) kernel
// into the current dialect (import nki, NKI 0.6), following the official migration guide
// (aws-neuron-sdk nki/migration/index.rst, "Migrating from NKI 0.1.0 to NKI 0.2.0" and the later
// sections). Only mechanical cases are rewritten; every construct the rules cannot translate is
// reported with its line and the reason, and the rest of the file is left byte for byte as it was.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "base/dtype.h"
#include "ir/ir.h"

namespace nki::migrate {

// What the legacy trace says about the tile a `nisa.*` call returned: the current dialect needs
// it allocated up front (`nl.ndarray(shape, dtype, buffer)`) and passed as `dst`.
struct TileFact {
  std::vector<int64_t> shape;
  DType dtype = DType::Float32;
  ir::Buffer buffer = ir::Buffer::Sbuf;
  bool reads_psum = false;  // some tensor operand of the instruction was in PSUM
  bool operator==(const TileFact& o) const { return shape == o.shape && dtype == o.dtype && buffer == o.buffer; }
};

// Keyed by the first line of the statement that emitted the instruction (the legacy tracer tags
// every instruction with its statement's line) and the API name ("nisa.activation"); one entry
// per traced instruction, in trace order.
using TileFacts = std::map<std::pair<int, std::string>, std::vector<TileFact>>;

struct Finding {
  int line = 0;
  int col = 0;
  std::string rule;     // "imports", "isa_dst", "arange_slices", "mask_slices", ...
  std::string message;  // applied: what was done; refused: why it could not be rewritten
};

struct RewriteResult {
  std::string text;               // the current-dialect file
  std::vector<Finding> applied;   // one per rewrite made
  std::vector<Finding> refused;   // constructs left as they were (the output will not compile)
  bool complete() const { return refused.empty(); }
};

// Rewrites `legacy_source`. `facts` come from tracing the legacy kernel (trace_facts.h); calls
// without facts that need an allocated destination are refused. `path` names the file in
// syntax errors (which are refused as a whole).
RewriteResult rewrite_to_current(const std::string& legacy_source, const TileFacts& facts,
                                 const std::string& path = "<kernel>");

}  // namespace nki::migrate
