// nkiagent bench: run (or resume) a benchmark run; the work is eval::run_bench.
#pragma once

#include <functional>
#include <string>

#include "base/episode_vocab.h"
#include "cli/command.h"
#include "eval/episode.h"

namespace nki::cli {

// Builds the episode function from the parsed options. It runs before any episode starts, so
// a configuration error it throws (missing API key, unknown provider, missing replay
// directory) stops bench with exit code 2 instead of crashing every episode.
using EpisodeFnFactory = std::function<eval::EpisodeFn(const ParsedOptions&)>;
Command make_bench_command(EpisodeFnFactory episodes);

// The canonical --tools value for `mode` (the offered subset of compile,verify,profile, in that
// order); UsageError for an unknown or repeated tool, --tools with a mode that offers none, or
// optimize mode without verify (agent::validate_tool_offer).
std::string tools_list(const ParsedOptions& o, Mode mode);

// The nkiagent episodes: the agent on the simulator, with a live model or replayed transcripts.
eval::EpisodeFn simulator_episodes(const ParsedOptions& o);

}  // namespace nki::cli
