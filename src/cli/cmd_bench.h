// nkiagent bench: run (or resume) a benchmark run; the work is eval::run_bench.
#pragma once

#include <functional>
#include <string>

#include "cli/command.h"
#include "eval/episode.h"

namespace nki::cli {

// Builds the episode function from the parsed options. It runs before any episode starts, so
// a configuration error it throws (missing API key, unknown provider, missing replay
// directory) stops bench with exit code 2 instead of crashing every episode.
using EpisodeFnFactory = std::function<eval::EpisodeFn(const ParsedOptions&)>;
Command make_bench_command(EpisodeFnFactory episodes);

// The canonical --tools value ("compile,verify" or "compile,verify,profile"); UsageError for an
// unknown tool or a list without compile and verify.
std::string tools_list(const std::string& text);

// The nkiagent episodes: the agent on the simulator, with a live model or replayed transcripts.
eval::EpisodeFn simulator_episodes(const ParsedOptions& o);

}  // namespace nki::cli
