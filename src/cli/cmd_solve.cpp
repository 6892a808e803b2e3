// nkiagent solve: parse the options into agent::SolveOptions, run the episode, print the verdict.
#include "cli/cmd_solve.h"

#include <iostream>

#include "cli/common.h"

namespace nki::cli {

namespace {

std::vector<OptionSpec> solve_options() {
  OptionSpec max_tokens = integer_option("max-tokens", "N", 0, 1000000, "output token limit per reply");
  max_tokens.default_help = "0, the provider's limit (Anthropic: 8192)";
  OptionSpec temperature = real_option("temperature", "T", 0, 2, "sampling temperature");
  temperature.default_help = "the provider's";
  OptionSpec max_cost = real_option("max-cost", "USD", 0, 1e6, "stop the episode once this much has been spent");
  max_cost.default_help = "no limit";
  OptionSpec max_wall = real_option("max-wall", "S", 0, 604800, "stop the episode after this many seconds");
  max_wall.default_help = "no limit";
  // curl takes whole milliseconds: below 1 ms would mean "no timeout", above a day is a typo.
  OptionSpec timeout = real_option("timeout", "S", 0.001, 86400, "per-request timeout in seconds, connect included", "300");
  OptionSpec out = text_option("out", "DIR", "where kernel.py, transcript.jsonl, result.json go");
  out.default_help = "runs/<task>";
  OptionSpec base_url = text_option("base-url", "URL",
                                    "API root (OpenAI: .../v1; Anthropic: host root); also\n"
                                    "$OPENAI_BASE_URL / $ANTHROPIC_BASE_URL");
  OptionSpec prompts = text_option("prompts", "DIR", "prompt files");
  prompts.default_help = "$NKI_PROMPTS_DIR or the source tree's prompts/";
  OptionSpec prices = text_option("prices", "FILE", "price table");
  prices.default_help = "$NKI_AGENT_PRICES or <prompts>/prices.json";
  OptionSpec mode = choice_option("mode", "agent|multi-turn|single-shot|optimize",
                                  {"agent", "multi-turn", "single-shot", "optimize"},
                                  "agent (tools) | multi-turn (self-review, no tools) | single-shot (one reply)\n"
                                  "| optimize (make the --start kernel faster, keep it correct)");
  mode.default_help = "agent; a replay: the recorded mode";
  OptionSpec start = text_option("start", "FILE", "optimize mode: the starting kernel; it must pass verify");
  start.default_help = "the reference solution, TASKS_DIR/../solutions/<task>.py\n(--nki 0.6: solutions_nki06/<task>.py)";
  OptionSpec nki = episode_nki_option();
  nki.default_help = "2.24; a replay: the recorded dialect";
  return {
      text_option("task", "ID", "task to solve (required)"),
      text_option("model", "P:NAME",
                  "openai:NAME or anthropic:NAME (keys: OPENAI_API_KEY, ANTHROPIC_API_KEY);\n"
                  "required unless --replay"),
      mode,
      nki,
      text_option("tools", "LIST",
                  "tools offered in agent and optimize mode, a subset of compile,verify,profile\n"
                  "(profile_kernel: the cost model's estimate); optimize mode needs verify",
                  "compile,verify"),
      start,
      integer_option("max-turns", "N", 1, 1000, "model calls per episode (single-shot always makes 1)", "10"),
      out,
      text_option("replay", "FILE",
                  "replay the model replies recorded in a transcript (offline); tool\n"
                  "results are recomputed live"),
      base_url,
      timeout,
      max_tokens,
      temperature,
      max_cost,
      max_wall,
      flag_option("no-prompt-cache", "do not mark Anthropic prompts as cacheable (on by default)"),
      prompts,
      prices,
      tasks_dir_option(),
  };
}

int solve(const agent::SolveOptions& options, const agent::SolveDeps& deps) {
  try {
    agent::SolveOutcome outcome = agent::run_solve(options, deps);
    std::cout << outcome.summary << "\n";
    if (!outcome.result.error.empty()) std::cerr << "nkiagent solve: " << outcome.result.error << "\n";
    return outcome.result.verdict == VerdictKind::Pass ? 0 : 1;
  } catch (const std::exception& e) {
    // Setup failures: missing key, unreadable prompts/prices/replay, unknown task, bad output dir.
    std::cerr << "nkiagent solve: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

agent::SolveOptions solve_options_from(const ParsedOptions& o) {
  if (!o.positionals().empty()) throw UsageError("unexpected argument '" + o.positionals().front() + "'");
  agent::SolveOptions s;
  s.task_id = o.text("task");
  s.model_spec = o.text("model");
  if (o.has("mode")) {
    s.mode = agent::mode_from_name(o.text("mode"));
    s.mode_given = true;
  }
  s.max_turns = static_cast<int>(*o.integer("max-turns"));
  s.out_dir = o.text("out");
  s.replay_path = o.text("replay");
  s.base_url = o.text("base-url");
  s.timeout_s = *o.real("timeout");
  s.max_tokens = static_cast<int>(o.integer("max-tokens").value_or(0));
  s.temperature = o.real("temperature");
  s.max_cost_usd = o.real("max-cost").value_or(0);
  s.max_wall_s = o.real("max-wall").value_or(0);
  s.prompt_cache = !o.flag("no-prompt-cache");
  s.prompts_dir = o.text("prompts");
  s.prices_path = o.text("prices");
  if (s.task_id.empty()) throw UsageError("--task is required");
  try {
    s.tools = agent::parse_tool_offer(o.text("tools"));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  s.tools_given = o.has("tools");
  // A replay without --mode learns its mode from the transcript; run_solve checks it then.
  if (s.tools_given && s.mode_given) {
    std::string problem = agent::validate_tool_offer(s.tools, s.mode);
    if (!problem.empty()) throw UsageError(problem);
  }
  if (o.has("start") && s.mode_given && s.mode != agent::Mode::Optimize)
    throw UsageError("--start is for --mode optimize");
  // Without --start the deps pick the task's reference solution in the episode's dialect.
  if (o.has("start")) s.start_path = o.text("start");
  s.nki = o.text("nki");
  s.nki_given = o.has("nki");
  if (s.model_spec.empty() && s.replay_path.empty()) throw UsageError("--model or --replay is required");
  return s;
}

Command make_solve_command(SolveDepsFactory deps) {
  Command c;
  c.spec.name = "solve";
  c.spec.synopsis = "nkiagent solve --task ID (--model PROVIDER:NAME | --replay FILE.jsonl) [options]";
  c.spec.description = "Runs the LLM agent on one task and judges its final kernel with the verify tool.";
  c.spec.options = solve_options();
  c.spec.epilog =
      "Retries: NKI_AGENT_MAX_ATTEMPTS (default 4), NKI_AGENT_RETRY_AFTER_CAP seconds (default 60).\n"
      "exit status: 0 pass, 1 the final kernel failed, 2 usage or setup error";
  c.run = [deps](const ParsedOptions& o) {
    agent::SolveOptions options = solve_options_from(o);  // usage errors before any setup
    return solve(options, deps(o));
  };
  return c;
}

}  // namespace nki::cli
