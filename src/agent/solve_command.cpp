#include "agent/solve_command.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "agent/prompts.h"
#include "agent/replay_client.h"
#include "agent/task_episode.h"
#include "base/diagnostic.h"

namespace nki::agent {
namespace {

namespace fs = std::filesystem;

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out || !(out << text)) throw IoError("cannot write '" + path.string() + "'");
}

// The line of a failed check the user should read first: the first error diagnostic
// ("kernel.py:5:9: error[CODE]: ..."), else the first detail line under the verdict (for a
// wrong result, the first output's mismatch summary). Empty when there is nothing to show.
std::string first_diagnostic(const std::string& check_text) {
  std::istringstream in(check_text);
  std::string line, first_detail;
  bool verdict_seen = false;
  while (std::getline(in, line)) {
    size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    std::string trimmed = line.substr(b);
    if (trimmed.find("error[") != std::string::npos) return trimmed;
    if (!verdict_seen) {
      verdict_seen = true;  // "FAIL task: ..." itself repeats the verdict
      if (trimmed.rfind("FAIL", 0) == 0) continue;
    }
    if (first_detail.empty()) first_detail = trimmed;
  }
  return first_detail;
}

std::string summary_line(const SolveOptions& o, const std::string& model, const SolveOutcome& s) {
  const EpisodeResult& r = s.result;
  std::ostringstream line;
  line << (r.verdict == VerdictKind::Pass ? "PASS" : "FAIL") << " " << verdict_kind_name(r.verdict)
       << " task=" << o.task_id << " model=" << model << " mode=" << mode_name(o.mode)
       << " nki=" << o.nki << " turns=" << r.turns << " stop=" << stop_reason_name(r.stop_reason) << " tokens=" << r.usage.input_tokens
       << "/" << r.usage.output_tokens;
  line.setf(std::ios::fixed);
  line.precision(4);
  line << " cost=$" << r.usage.cost_usd << (r.usage.price_known ? "" : "(unpriced)");
  line << " out=" << fs::path(s.result_path).parent_path().string();
  if (r.verdict != VerdictKind::Pass) {
    std::string first = first_diagnostic(r.final_check.text);
    if (!first.empty()) line << " first: " << first;
  }
  return line.str();
}

// The replay client or the live one. A replay without --mode takes the recorded mode, and
// without --model it reports the recorded model.
std::unique_ptr<ModelClient> open_client(SolveOptions& o, const SolveDeps& deps,
                                         const std::string& prompts_dir, std::string& model_label) {
  model_label = o.model_spec;
  if (!o.replay_path.empty()) {
    auto replay = ReplayClient::from_transcript(o.replay_path);
    if (model_label.empty()) model_label = replay->recorded_model();
    if (!o.mode_given && !replay->recorded_mode().empty()) o.mode = mode_from_name(replay->recorded_mode());
    if (!o.nki_given && !replay->recorded_nki().empty()) {
      if (!is_episode_nki(replay->recorded_nki()))
        throw ModelError(ModelErrorKind::Replay, "replay: " + o.replay_path + " records NKI '" + replay->recorded_nki() +
                                                     "'; pass --nki 2.24 or --nki 0.6");
      o.nki = replay->recorded_nki();
    }
    return replay;
  }
  ClientOptions co;
  co.model_spec = o.model_spec;
  co.base_url = o.base_url;
  co.timeout_s = o.timeout_s;
  co.max_tokens = o.max_tokens;
  co.temperature = o.temperature;
  co.prompt_cache = o.prompt_cache;
  co.prices = std::make_shared<const PriceTable>(
      PriceTable::load(resolve_price_table_path(o.prices_path, prompts_dir)));
  return deps.make_client ? deps.make_client(co) : make_model_client(co);
}

void write_result_json(const SolveOptions& o, const std::string& model_label, const SolveOutcome& s) {
  nlohmann::ordered_json rj = {
      {"task_id", o.task_id}, {"model", model_label}, {"mode", mode_name(o.mode)}, {"nki", o.nki},
      {"replay", o.replay_path}, {"verdict", verdict_kind_name(s.result.verdict)},
      {"passed", s.result.verdict == VerdictKind::Pass}, {"stop_reason", stop_reason_name(s.result.stop_reason)},
      {"turns", s.result.turns}, {"tool_calls", s.result.tool_calls}, {"error", s.result.error},
      {"check", tool_result_to_json(s.result.final_check)},
      {"usage", usage_to_json(s.result.usage)}, {"kernel", s.kernel_path},
      {"transcript", s.transcript_path}};
  write_file(s.result_path, rj.dump(2) + "\n");
}

std::string read_start_kernel(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("cannot read the starting kernel '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  if (s.str().find_first_not_of(" \t\r\n") == std::string::npos) throw IoError("the starting kernel '" + path + "' is empty");
  return s.str();
}

}  // namespace

SolveOutcome run_solve(const SolveOptions& options, const SolveDeps& deps) {
  if (!deps.load_task || !deps.make_tools)
    throw std::invalid_argument("solve: task loader and tools factory are not wired");
  SolveOptions o = options;
  std::string prompts_dir = resolve_prompts_dir(o.prompts_dir);
  TaskInfo task = deps.load_task(o.task_id);

  std::string model_label;
  std::unique_ptr<ModelClient> client = open_client(o, deps, prompts_dir, model_label);
  if (o.tools_given) {
    std::string problem = validate_tool_offer(o.tools, o.mode);
    if (!problem.empty()) throw std::invalid_argument(problem);
  }
  if (o.mode == Mode::Optimize) {
    if (o.start_path.empty() && deps.default_start) o.start_path = deps.default_start(o.task_id, o.nki);
    if (o.start_path.empty()) throw std::invalid_argument("optimize mode needs a starting kernel: --start FILE");
    task.start_kernel = read_start_kernel(o.start_path);
  }
  // Render the prompts now so a broken prompt file fails before the tools are built.
  build_episode_prompts(prompts_dir, task, o.mode, o.max_turns, o.nki);
  std::unique_ptr<KernelTools> tools = deps.make_tools(o.task_id, o.nki);
  tools->set_offer(o.tools);
  if (o.mode == Mode::Optimize) {
    // The harness keeps the starting kernel as the answer until a faster verified one appears,
    // so it must be correct itself (bench starts from the reference solutions, which are).
    ToolResult start = tools->verify_kernel(task.start_kernel);
    if (!start.passed) {
      std::string first = first_diagnostic(start.text);
      throw std::invalid_argument("optimize mode needs a correct starting kernel; " + o.start_path +
                                  " fails verify" + (first.empty() ? "" : ": " + first));
    }
    std::optional<double> est = tools->estimate_latency(task.start_kernel);
    task.start_note = "It passes verification.";
    if (est) {
      char buf[160];
      std::snprintf(buf, sizeof buf, " Its estimated latency is %.2f us (cost model).", *est / 1e3);
      task.start_note += buf;
    }
  }

  fs::path out = o.out_dir.empty() ? fs::path("runs") / o.task_id : fs::path(o.out_dir);
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) throw IoError("cannot create output directory '" + out.string() + "': " + ec.message());
  SolveOutcome s;
  s.transcript_path = (out / "transcript.jsonl").string();
  s.kernel_path = (out / "kernel.py").string();
  s.result_path = (out / "result.json").string();
  if (!o.replay_path.empty() && fs::exists(s.transcript_path) &&
      fs::equivalent(o.replay_path, s.transcript_path, ec))
    throw IoError("refusing to overwrite the transcript being replayed; choose another --out");

  TaskEpisode episode;
  episode.task = task;
  episode.mode = o.mode;
  episode.max_turns = o.max_turns;
  episode.prompts_dir = prompts_dir;
  episode.transcript_path = s.transcript_path;
  episode.max_cost_usd = o.max_cost_usd;
  episode.max_wall_s = o.max_wall_s;
  episode.model_label = model_label;
  episode.nki = o.nki;
  s.result = run_task_episode(episode, *client, *tools);
  if (!s.result.final_kernel.empty()) write_file(s.kernel_path, s.result.final_kernel);
  else s.kernel_path.clear();
  s.summary = summary_line(o, model_label, s);

  write_result_json(o, model_label, s);
  return s;
}

}  // namespace nki::agent
