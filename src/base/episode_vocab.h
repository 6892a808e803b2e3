// The episode vocabulary shared by the agent loop (src/agent) and the benchmark runner
// (src/eval): how the model is driven and how an episode's final kernel was judged. Declared
// once here, below both layers, so that neither has to translate the other's copy.
#pragma once

#include <optional>
#include <string>

namespace nki {

// How the model is driven: the paper's three evaluation modes, and optimize (issue 12): start
// from a correct kernel, make it faster with the tools, keep it correct (docs/agent.md).
enum class Mode { Agent, MultiTurn, SingleShot, Optimize };

// Modes in which the model calls tools.
inline bool uses_tools(Mode m) { return m == Mode::Agent || m == Mode::Optimize; }

const char* mode_name(Mode m);  // "agent", "multi-turn", "single-shot", "optimize"
std::optional<Mode> parse_mode(const std::string& s);  // inverse of mode_name
// parse_mode that throws std::invalid_argument naming the accepted values.
Mode mode_from_name(const std::string& s);

// Final classification of an episode: exactly one per episode, judged on the *last* kernel the
// model produced (or the reason no kernel was judged).
enum class VerdictKind {
  Pass,             // the final kernel verified within the task tolerance
  CompileError,     // the final kernel does not compile
  RuntimeError,     // it compiles but the simulator stopped with an error
  Mismatch,         // it ran to completion but its outputs differ from the reference
  NoCode,           // the model never produced a kernel
  ApiError,         // a model call failed (after retries) and no passing kernel exists
  BudgetExhausted,  // the cost or wall-time budget stopped the episode before a pass
};

const char* verdict_kind_name(VerdictKind k);  // stable snake_case names (database, transcripts)
std::optional<VerdictKind> parse_verdict_kind(const std::string& s);

}  // namespace nki
