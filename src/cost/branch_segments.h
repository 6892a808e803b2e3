// Where a loop's iterations stop issuing the same instructions: the scheduler extrapolates a
// loop from a few scheduled iterations (scheduler.cpp, `iterate`), which is only sound while
// every iteration takes the same arms of the `if`s in its body. A body that branches on the
// loop's own index (`if i >= K:`) would otherwise be charged for the arms its first iterations
// take, however much work the later ones do — the hole an RL trainer finds first.
//
// The iteration space is cut into segments. In a regular segment every `if` in the body (at any
// depth) whose condition depends on the iterated variable has the same outcome for all of the
// segment's iterations and for all values of the loops nested in the body, so the segment may be
// extrapolated. In an irregular segment some condition changes from one iteration to the next
// (or with an inner loop's index), so it is scheduled iteration by iteration.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "ir/atom_env.h"
#include "ir/ir.h"

namespace nki::cost {

struct IterationSegment {
  int64_t begin = 0, end = 0;  // iterations [begin, end)
  bool regular = true;         // every iteration in it issues the same instructions
};

// Finds the segments; remembers per loop which conditions to look at (a loop is entered once per
// iteration of the loops around it).
class BranchSegmenter {
 public:
  explicit BranchSegmenter(const ir::Kernel& k) : k_(k) {}

  // The segments of `trips` iterations of `loop` (iteration i binds the loop variable to
  // start + i * step), or of the SPMD grid's instances when `loop` is null (instance i binds the
  // program ids, last axis fastest). `env` holds the values of every enclosing loop variable.
  // Segments are in order, cover [0, trips) and are never empty.
  std::vector<IterationSegment> segments(const ir::AtomEnv& env, const ir::Loop* loop, int64_t trips);

  // The conditions under a loop (or the whole kernel) that depend on its variable (the program
  // ids), and the loops nested in it whose variables range while one iteration runs.
  struct Scope {
    std::vector<const ir::Predicate*> dependent;
    bool linear = true;  // each dependent condition is affine in the iterated value (no // or %)
    std::vector<const ir::Loop*> inner;
  };

 private:
  const Scope& scope(const ir::Loop* loop);
  const ir::Kernel& k_;
  std::unordered_map<const ir::Loop*, Scope> scopes_;  // null: the grid
};

}  // namespace nki::cost
