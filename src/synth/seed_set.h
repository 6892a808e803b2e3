// Seeds, fusion patterns and dimension roles of the training-corpus synthesiser (issue 13,
// docs/synthesis.md). All of it is data under synth/seeds/: one JSON file per seed family, plus
// _dims.json (the value pools of each shape role), _layouts.json (shared shape forms) and
// _patterns.json (prologue/epilogue fusion patterns). This file only reads and validates it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nki::synth {

// A tensor of a seed or pattern. Its shape comes from the seed's form (seeds) or from `shape`
// (patterns, in terms of "@last" = the output's last extent, "@out" = the whole output shape,
// "@inlast" = the first input's last extent).
struct TensorTemplate {
  std::string name;
  std::string dist = "normal";  // "normal", "normal:M:S", "uniform:A:B", "randint:A:B", "fanin:DIM"
  bool integer = false;         // int32 index tensor (needs a randint dist)
  std::vector<std::string> shape;
};

// One way to lay out a seed's tensors: shapes of every tensor by name (entries are role
// symbols such as "R", "F2", integers or small expressions "(H-3)/2+1"), extra template
// variables ("dim": "1") and tags ("non-last-axis").
struct Form {
  std::map<std::string, std::vector<std::string>> shapes;
  std::map<std::string, std::string> vars;
  std::vector<std::string> tags;
};

struct Seed {
  std::string file;        // seed file it came from (family file, e.g. "activations.json")
  std::string name;        // unique over the seed set; part of every candidate id
  int level = 1;           // 1 single op, 2 native chain, 3 block
  std::string category;
  std::string provenance;  // "torch.nn.ReLU (torch 1.13)", "KernelBench level 1 #19 ReLU", ...
  std::string description; // one sentence; {symbols} are substituted
  std::vector<std::string> aliases;  // benchmark family names meaning the same op
  std::vector<TensorTemplate> inputs, params, buffers;
  std::vector<std::string> outputs = {"out"};  // names of the output shapes in each form
  std::string output_dtype;                    // "" = the task dtype; "int32" for index outputs
  std::vector<std::string> init;               // __init__ lines after super().__init__()
  std::vector<std::string> body;               // forward lines; the result ends up in `y`
  std::vector<Form> forms;
  std::map<std::string, std::vector<std::string>> hyper;  // {name} -> allowed values
  std::string macs;         // multiply-add count expression; empty = output elements
  bool contract = false;    // has a contraction (matmul/conv): level rule L2 <= 1
  bool reduce = false;      // has a reduction: level rule L2 <= 1
  bool fusable = true;      // may take prologue/epilogue patterns
  std::vector<std::string> dtypes = {"float32", "bfloat16", "float16"};
  std::vector<std::string> tags;
};

struct Pattern {
  std::string name;
  std::string at = "epilogue";  // "epilogue" (on y) or "prologue" (on the first input)
  std::string kind;             // activation, bias, residual, scale_shift, norm, softmax, mask, cast
  std::vector<std::string> init, lines;
  std::vector<TensorTemplate> params, inputs;
  bool reduce = false, contract = false;
  bool idempotent = false;      // p(p(y)) == p(y): a repeat collapses in the canonical graph
  int min_rank = 1;             // of the tensor it applies to
  int64_t min_last = 1;         // smallest last extent it makes sense on
};

struct DimRole {
  std::vector<int64_t> nice, awkward;
};

struct SeedSet {
  std::vector<Seed> seeds;
  std::vector<Pattern> patterns;
  std::map<std::string, DimRole> dims;
  std::vector<std::string> files;  // seed family files read, sorted
};

// Reads every *.json in `dir` (files starting with '_' are the shared tables). Throws
// nki::IoError naming the file and the field for every problem (unknown fields included).
SeedSet load_seed_set(const std::string& dir);

// The role of a shape symbol: trailing digits dropped ("R2" -> "R").
std::string role_of(const std::string& symbol);

}  // namespace nki::synth
