// The IR checks that run after tracing, as one pipeline of named passes:
//
//   bounds -> outputs -> capacity | direct-alloc
//
// Each pass reads the kernel IR (and the few facts only the front end knows, in CheckInputs) and
// reports; none changes the IR. The allocation passes are alternatives: `capacity` for kernels
// whose tiles the compiler places, `direct-alloc` for kernels that place them themselves
// (nki.compiler). Both run only when `bounds` found nothing: the live tiles of an access outside
// its tensor mean nothing. Each reports its first error only (docs/error-codes.md, "Several
// errors in one compile"); `bounds` and `outputs` report all of theirs.
//
// This layer depends on `ir` and `base` only; the front end (src/nki) calls run_checks when a
// kernel has been traced, and `nkiagent ir --after PASS` stops the pipeline after PASS.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "check/direct_alloc.h"
#include "check/outputs.h"
#include "ir/ir.h"
#include "target/target.h"

namespace nki::check {

enum class Pass { Bounds, Outputs, Capacity, DirectAlloc };

struct PassInfo {
  Pass pass;
  const char* name;     // as `nkiagent ir --after` spells it
  const char* summary;  // one line for --help
};
// Every pass, in pipeline order.
const std::vector<PassInfo>& passes();
const char* pass_name(Pass p);
std::optional<Pass> pass_named(std::string_view name);

// What the front end knows and the IR does not say.
struct CheckInputs {
  // bounds: at most this many errors (the front end's error limit).
  size_t max_errors = 20;
  // outputs: what the kernel wrote while it was traced.
  WriteFacts writes;
  // capacity: the NeuronCore whose partition sizes bound the kernel (target/target.h).
  Target target = Target::Trn1;
  // direct-alloc: whether the kernel uses direct allocation, where the front end placed each
  // directly allocated tensor (in creation order), and the instruction results an assignment
  // copied into a tile right after they were produced.
  bool direct_allocation = false;
  std::vector<DirectTensor> direct_tensors;
  std::set<int> folded_results;
};

// One pass's findings.
struct PassReport {
  Pass pass = Pass::Bounds;
  std::string skipped;  // why the pass did not run on this kernel; empty when it ran
  std::vector<Diagnostic> errors;
  std::vector<Diagnostic> warnings;
};

struct Findings {
  std::vector<PassReport> passes;  // every pass up to the last one asked for, in pipeline order
  // All passes' errors (warnings), in pipeline order.
  std::vector<Diagnostic> errors() const;
  std::vector<Diagnostic> warnings() const;
  // The report of `p`, or null when the pipeline stopped before it.
  const PassReport* report(Pass p) const;
};

// Runs the passes in order, up to and including `last`.
Findings run_checks(const ir::Kernel& k, const CheckInputs& in, Pass last = Pass::DirectAlloc);

}  // namespace nki::check
