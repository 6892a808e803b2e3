#include "serve/service.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <thread>

#include "agent/code_extract.h"
#include "agent/environment.h"
#include "agent/prompts.h"
#include "agent/transcript.h"
#include "serve/episode_tools.h"
#include "serve/json_guard.h"
#include "task/sha256.h"
#include "task/verify.h"
#include "toolchain/agent_glue.h"
#include "toolchain/isolated.h"

namespace nki::serve {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

// A multi-turn episode: the task's simulator tools and the agent Environment over them. One
// step at a time (`busy`); the store drops it after ServiceConfig::episode_idle_seconds.
struct Service::Episode {
  std::string id;
  std::string task_id;
  RewardKind reward = RewardKind::Binary;
  std::unique_ptr<EpisodeTools> tools;
  std::unique_ptr<agent::Environment> env;
  Clock::time_point last_used = Clock::now();
  bool busy = false;
  bool done = false;
  ojson final;  // the done response's verdict and reward, repeated to late steps
};

// Holds one of the `jobs` workers for the duration of a kernel evaluation.
class Service::WorkerSlot {
 public:
  explicit WorkerSlot(Service& s) : s_(s) {
    std::unique_lock<std::mutex> lock(s_.pool_mutex_);
    ++s_.stats_.waiting;
    bool got = s_.pool_cv_.wait_for(lock, std::chrono::duration<double>(s_.config_.queue_seconds),
                                    [&] { return s_.free_workers_ > 0 || s_.stopping_; });
    --s_.stats_.waiting;
    if (s_.stopping_) throw ApiError(503, "shutting_down", "the server is shutting down; retry on its successor");
    if (!got) throw ApiError(503, "busy", "every worker stayed busy for " + std::to_string(s_.config_.queue_seconds) + " s; retry later");
    --s_.free_workers_;
    ++s_.stats_.busy_workers;
  }
  ~WorkerSlot() {
    {
      std::lock_guard<std::mutex> lock(s_.pool_mutex_);
      ++s_.free_workers_;
      --s_.stats_.busy_workers;
    }
    s_.pool_cv_.notify_one();
  }

 private:
  Service& s_;
};

namespace {

// A string field as the client sent it; one that held ill-formed UTF-8 (json_guard.h) is refused.
std::string checked_string(const json& value, const char* key) {
  if (!value.is_string()) throw ApiError(400, "bad_request", std::string("field '") + key + "' must be a string");
  std::string s = value.get<std::string>();
  if (has_invalid_utf8(s))
    throw ApiError(400, "invalid_utf8", std::string("field '") + key + "' is not valid UTF-8 (or holds U+FDD0)");
  return s;
}

std::string required_string(const json& body, const char* key) {
  if (!body.is_object()) throw ApiError(400, "bad_request", "the request body must be a JSON object");
  auto it = body.find(key);
  if (it == body.end()) throw ApiError(400, "bad_request", std::string("missing field '") + key + "'");
  return checked_string(*it, key);
}

std::string optional_string(const json& body, const char* key, const std::string& fallback) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return fallback;
  return checked_string(*it, key);
}

// The JSON of a reply to the client or of a child's answer: never throws on text that is not
// valid UTF-8 (a diagnostic quoting part of a multi-byte character); such bytes become U+FFFD.
template <class J>
std::string dump_text(const J& j) {
  return j.dump(-1, ' ', false, J::error_handler_t::replace);
}

Mode mode_of(const std::string& name) {
  std::optional<Mode> m = parse_mode(name);
  if (!m) throw ApiError(400, "bad_request", "unknown mode '" + name + "' (agent, multi-turn or single-shot)");
  if (*m == Mode::Optimize)
    throw ApiError(400, "bad_request", "mode 'optimize' is not served (nkiagent bench and solve only); use the perf reward");
  return *m;
}

RewardKind reward_of(const std::string& name) {
  std::optional<RewardKind> k = parse_reward_kind(name);
  if (!k) throw ApiError(400, "bad_request", "unknown reward '" + name + "' (binary, graded or perf)");
  return *k;
}

// A tool schema as OpenAI's chat API takes it (TRL and verl use the same shape).
ojson tool_json(const agent::ToolSpec& t) {
  return {{"type", "function"},
          {"function", {{"name", t.name}, {"description", t.description}, {"parameters", ojson::parse(t.parameters_schema)}}}};
}

ojson messages_json(const agent::Conversation& c) {
  ojson out = ojson::array();
  out.push_back({{"role", "system"}, {"content", c.system}});
  for (const agent::Message& m : c.messages) out.push_back({{"role", "user"}, {"content", m.content}});
  return out;
}

// The model's reply in OpenAI chat format ({"role":"assistant","content":...,"tool_calls":
// [{"id","type":"function","function":{"name","arguments"}}]}) or this project's transcript
// format ({"tool_calls":[{"id","name","arguments"}]}).
agent::Message reply_from_json(const json& j, int max_json_depth) {
  if (!j.is_object()) throw ApiError(400, "bad_request", "'message' must be an object");
  agent::Message m;
  m.role = agent::Role::Assistant;
  if (j.contains("content") && j["content"].is_string()) m.content = checked_string(j["content"], "content");
  else if (j.contains("content") && !j["content"].is_null())
    throw ApiError(400, "bad_request", "'content' must be a string or null");
  if (j.contains("tool_calls") && !j["tool_calls"].is_null()) {
    if (!j["tool_calls"].is_array()) throw ApiError(400, "bad_request", "'tool_calls' must be an array");
    int n = 0;
    for (const json& c : j["tool_calls"]) {
      if (!c.is_object()) throw ApiError(400, "bad_request", "each tool call must be an object");
      const json& f = c.contains("function") ? c["function"] : c;
      agent::ToolCall call;
      call.id = optional_string(c, "id", "call_" + std::to_string(++n));
      call.name = optional_string(f, "name", "");
      auto a = f.find("arguments");
      if (a != f.end() && a->is_string()) {
        call.arguments = checked_string(*a, "arguments");
        // The tool box parses this string: its nesting is bounded first, without recursion.
        if (json_nesting_depth(call.arguments, max_json_depth) > max_json_depth)
          throw ApiError(400, "json_too_deep", "the 'arguments' of tool call " + std::to_string(n) +
                                                   " nest deeper than " + std::to_string(max_json_depth) + " levels");
      } else if (a != f.end() && a->is_object()) {
        call.arguments = dump_text(*a);  // nested no deeper than the body, already checked
      }
      m.tool_calls.push_back(std::move(call));
    }
  }
  return m;
}

// The kernel of a reward item: "code" verbatim, or extracted from a model's "completion" text
// by the agent's own extractor (the last ```python block, or plain kernel source).
std::string code_of(const json& item) {
  if (item.contains("completion") && !item.contains("code"))
    return agent::extract_code_from_text(required_string(item, "completion"));
  return required_string(item, "code");
}

std::string random_id() {
  std::ostringstream s;
  s << std::hex << fresh_secret();
  return s.str();
}

}  // namespace

Service::Service(ServiceConfig config) : config_(std::move(config)), golden_(config_.golden_bytes) {
  free_workers_ = std::max(1, config_.jobs);
  eval_.held_out_trials = config_.held_out_trials;
  eval_.held_out_secret = config_.held_out_secret;
  eval_.baselines = std::make_shared<const toolchain::BaselineLookup>(config_.tasks_root, config_.target,
                                                                      config_.nki != agent::kLegacyNki);
  eval_.target = config_.target;
  eval_.run.trace.target = config_.target;
  eval_.run.trace.dialect = config_.nki;  // a kernel of the other dialect stops at its imports
  eval_.run.isolation.wall_seconds = config_.kernel_seconds;
  eval_.run.isolation.memory_bytes = config_.kernel_memory_bytes;
  eval_.run.machine.max_seconds = config_.kernel_seconds;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(config_.tasks_root, ec)) {
    if (!std::filesystem::exists(entry.path() / "task.json")) continue;
    TaskSpec t = load_task(entry.path().string());
    tasks_.emplace(t.id, std::move(t));
  }
  if (ec) throw IoError("cannot read the tasks directory '" + config_.tasks_root + "': " + ec.message());
  if (tasks_.empty()) throw IoError("no task (DIR/<id>/task.json) under '" + config_.tasks_root + "'");
}

Service::~Service() = default;

ojson Service::health() const {
  return {{"status", "ok"}, {"tasks", tasks_.size()}, {"jobs", config_.jobs},
          {"held_out_trials", config_.held_out_trials}, {"target", nki::target_name(config_.target)}, {"nki", config_.nki}};
}

ojson Service::list_tasks() const {
  ojson out = ojson::array();
  for (const auto& [id, t] : tasks_) out.push_back({{"id", id}, {"level", t.level}});
  return {{"tasks", out}};
}

const TaskSpec& Service::task_by_id(const std::string& id) const {
  auto it = tasks_.find(id);  // a map lookup only: a task id is never used as a path
  if (it == tasks_.end()) throw ApiError(404, "unknown_task", "no task '" + id + "'");
  return it->second;
}

const TaskSpec& Service::task(const json& body) const { return task_by_id(required_string(body, "task")); }

ojson Service::task_prompt(const std::string& id, const std::string& mode_name_) const {
  const TaskSpec& t = task_by_id(id);
  Mode mode = mode_of(mode_name_.empty() ? "agent" : mode_name_);
  agent::EpisodePrompts p = agent::build_episode_prompts(agent::resolve_prompts_dir(config_.prompts_dir),
                                                         toolchain::task_info(t), mode, 10, config_.nki);
  ojson tools = ojson::array();
  if (mode == Mode::Agent)
    for (const agent::ToolSpec& s : agent::kernel_tool_specs()) tools.push_back(tool_json(s));
  return {{"task", id},
          {"mode", mode_name(mode)},
          {"messages", ojson::array({{{"role", "system"}, {"content", p.system}}, {{"role", "user"}, {"content", p.task}}})},
          {"tools", tools}};
}

template <class F>
ojson Service::judge(const json& body, F&& fn) {
  const TaskSpec& t = task(body);
  std::string code = required_string(body, "code");
  WorkerSlot slot(*this);
  ++stats_.kernels_judged;
  ojson r = fn(t, code);
  if (r.value("limit_exceeded", false)) {
    ++stats_.limit_exceeded;
    throw ApiError(422, "kernel_limit_exceeded",
                   "the kernel was stopped by this server's per-kernel limits (" + std::to_string(config_.kernel_seconds) +
                       " s): " + r.value("text", std::string()).substr(0, 400));
  }
  return r;
}

ojson Service::judge_isolated(const TaskSpec& t, const std::string& code, Work w, RewardKind kind) {
  std::vector<int> trials;
  if (w != Work::Compile) {
    for (int k = 0; k < t.trials; ++k) trials.push_back(k);
    if (w == Work::Reward)
      for (int k : held_out_trials(t, eval_.held_out_secret, eval_.held_out_trials)) trials.push_back(k);
  }
  // Loaded here, before the fork: the child reads them from its copy of this memory.
  std::vector<std::shared_ptr<const GoldenTrial>> loaded = golden_.get(t, trials);
  std::map<int, std::shared_ptr<const GoldenTrial>> by_trial;
  for (size_t i = 0; i < trials.size(); ++i) by_trial[trials[i]] = loaded[i];
  SharedGoldenProvider golden = [&by_trial](const TaskSpec& task, int k) {
    auto it = by_trial.find(k);
    if (it == by_trial.end()) throw IoError("no golden data loaded for trial " + std::to_string(k) + " of " + task.id);
    return it->second;
  };
  EvalSettings in_child = eval_;
  in_child.run.isolation.enabled = false;  // the whole judgement is already the isolated child
  in_child.golden = golden;
  auto work = [&]() -> std::string {
    switch (w) {
      case Work::Compile: return dump_text(compile_kernel_json(t, code, in_child));
      case Work::Verify: return dump_text(verify_kernel_json(t, code, in_child));
      case Work::Reward: break;
    }
    return dump_text(reward_json(t, code, kind, in_child));
  };
  // The per-kernel limits of one compile and simulation, the wall-clock one once per trial.
  sandbox::Limits lim = toolchain::isolation_limits(eval_.run.isolation, eval_.run.trace,
                                                    w == Work::Compile ? nullptr : &eval_.run.machine);
  if (lim.wall_seconds > 0) lim.wall_seconds *= static_cast<double>(std::max<size_t>(1, trials.size()));
  sandbox::Result res = toolchain::run_work_isolated(work, lim, eval_.run.isolation);
  if (res.ok()) return ojson::parse(res.payload);

  // The child did not answer (a limit, a crash): judged as a kernel that failed while running,
  // exactly as when the child of one trial fails.
  auto file = std::make_shared<SourceFile>("kernel.py", code);
  Diagnostic d = toolchain::isolation_failure(file, res, w != Work::Compile);
  if (w == Work::Compile) {
    return {{"ok", false}, {"kernel", ""}, {"diagnostics", ojson::parse(render_json({d}, false)).at("diagnostics")},
            {"text", render_text(d)}, {"limit_exceeded", is_limit_code(d.code)}};
  }
  EvalSettings failed = eval_;
  failed.golden = golden;
  failed.runner = [d](const std::vector<HostTensor>&) {
    KernelRunResult r;
    r.status = RunStatus::RuntimeError;
    r.diagnostics.push_back(d);
    return r;
  };
  return w == Work::Verify ? verify_kernel_json(t, code, failed) : reward_json(t, code, kind, failed);
}

ojson Service::compile(const json& body) {
  return judge(body, [&](const TaskSpec& t, const std::string& c) {
    return judge_isolated(t, c, Work::Compile, RewardKind::Binary);
  });
}

ojson Service::verify(const json& body) {
  return judge(body, [&](const TaskSpec& t, const std::string& c) {
    return judge_isolated(t, c, Work::Verify, RewardKind::Binary);
  });
}

// One {task, code, reward} item. Identical inputs give identical results: verification is
// seeded by the task and the server's held-out secret, and results are memoised; a kernel cut
// by a time or memory limit is the exception (its result depends on load), so it is not cached.
ojson Service::reward_one(const json& item) {
  const TaskSpec& t = task(item);
  RewardKind kind = reward_of(optional_string(item, "reward", "binary"));
  std::string code = code_of(item);
  if (code.empty()) {
    // A completion without a kernel in it: the bottom of either scale, nothing to judge.
    ++stats_.rewards;
    return {{"reward", kind == RewardKind::Binary ? -0.5 : 0.0}, {"kind", reward_kind_name(kind)},
            {"verdict", "no_code"}, {"passed", false}, {"tier", "none"}, {"fraction_correct", 0.0},
            {"trials", 0}, {"held_out_trials", 0}, {"limit_exceeded", false}, {"task", t.id}};
  }
  std::string key = std::string(reward_kind_name(kind)) + '\0' + t.id + '\0' + sha256_hex(code);
  ++stats_.rewards;
  {
    std::lock_guard<std::mutex> lock(cache_mutex_);
    auto it = reward_cache_.find(key);
    if (it != reward_cache_.end()) {
      ++stats_.reward_cache_hits;
      memo_lru_.splice(memo_lru_.begin(), memo_lru_, it->second.second);
      return it->second.first;
    }
  }
  ojson r;
  {
    WorkerSlot slot(*this);
    ++stats_.kernels_judged;
    r = judge_isolated(t, code, Work::Reward, kind);
  }
  r["task"] = t.id;
  if (r.value("limit_exceeded", false)) {
    ++stats_.limit_exceeded;
    return r;
  }
  std::lock_guard<std::mutex> lock(cache_mutex_);
  if (reward_cache_.count(key) || config_.cache_entries == 0) return r;  // judged twice at once
  memo_lru_.push_front(key);
  reward_cache_.emplace(key, std::make_pair(r, memo_lru_.begin()));
  while (reward_cache_.size() > config_.cache_entries) {
    reward_cache_.erase(memo_lru_.back());
    memo_lru_.pop_back();
  }
  return r;
}

size_t Service::memo_entries() const {
  std::lock_guard<std::mutex> lock(cache_mutex_);
  return reward_cache_.size();
}

ojson Service::reward(const json& body, const CallContext& ctx) {
  if (!body.is_object()) throw ApiError(400, "bad_request", "the request body must be a JSON object");
  if (!body.contains("items")) return reward_one(body);
  return reward_batch(body, ctx);
}

namespace {

// The entry of a batch item that could not be judged: its error, and the bottom reward of its
// scheme so that a trainer reading only `reward` (the TRL adapter) still gets a number.
ojson item_error(const std::string& code, const std::string& message, RewardKind kind) {
  return {{"error", {{"code", code}, {"message", message}}}, {"reward", kind == RewardKind::Graded ? 0.0 : -0.5},
          {"kind", reward_kind_name(kind)}, {"verdict", "error"}, {"passed", false}};
}

}  // namespace

// A batch: each item is validated and judged on its own; an item that is malformed (unknown
// task, no code, ill-formed UTF-8, ...) or whose judging fails gets an error entry and the others
// their rewards. Only what concerns the whole request fails it: a malformed envelope, too many
// items, no worker free (503 busy) or a shutdown (503 shutting_down).
ojson Service::reward_batch(const json& body, const CallContext& ctx) {
  const json& items = body["items"];
  if (!items.is_array()) throw ApiError(400, "bad_request", "'items' must be an array");
  if (items.size() > config_.max_batch)
    throw ApiError(413, "batch_too_large", "at most " + std::to_string(config_.max_batch) + " items per batch");
  std::string default_reward = optional_string(body, "reward", "binary");
  RewardKind default_kind = reward_of(default_reward);
  std::vector<ojson> results(items.size());
  std::vector<json> work(items.size());
  std::vector<RewardKind> kinds(items.size(), default_kind);
  std::vector<size_t> todo;
  for (size_t i = 0; i < items.size(); ++i) {
    RewardKind& kind = kinds[i];
    try {
      if (!items[i].is_object()) throw ApiError(400, "bad_request", "each item must be an object");
      json w = items[i];
      if (!w.contains("reward")) w["reward"] = default_reward;
      kind = reward_of(optional_string(w, "reward", "binary"));
      task(w);
      code_of(w);
      work[i] = std::move(w);
      todo.push_back(i);
    } catch (const ApiError& e) {
      results[i] = item_error(e.code, e.what(), kind);
      ++stats_.batch_item_errors;
    }
  }
  // Items are judged on up to `jobs` threads; the worker pool bounds the kernels in flight.
  std::vector<std::exception_ptr> fatal(items.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t k; (k = next++) < todo.size();) {
      size_t i = todo[k];
      RewardKind kind = kinds[i];
      if (ctx.client_gone && ctx.client_gone()) {
        results[i] = item_error("client_gone", "not judged: the client closed the connection", kind);
        continue;
      }
      try {
        results[i] = reward_one(work[i]);
      } catch (const ApiError& e) {
        if (e.status >= 500) {
          fatal[i] = std::current_exception();
        } else {
          results[i] = item_error(e.code, e.what(), kind);
          ++stats_.batch_item_errors;
        }
      } catch (const std::exception& e) {
        results[i] = item_error("internal_error", e.what(), kind);
        ++stats_.batch_item_errors;
      } catch (...) {  // never let an exception leave a judging thread (std::terminate)
        results[i] = item_error("internal_error", "unexpected failure", kind);
        ++stats_.batch_item_errors;
      }
    }
  };
  std::vector<std::thread> threads;
  size_t n = std::min<size_t>(todo.size(), static_cast<size_t>(std::max(1, config_.jobs)));
  for (size_t i = 1; i < n; ++i) threads.emplace_back(worker);
  worker();
  for (auto& th : threads) th.join();
  for (auto& e : fatal)
    if (e) std::rethrow_exception(e);
  ojson out = ojson::array();
  for (auto& r : results) out.push_back(std::move(r));
  return {{"results", out}};
}

void Service::begin_shutdown() {
  {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    stopping_ = true;
  }
  pool_cv_.notify_all();
}

size_t Service::active_episodes() const {
  std::lock_guard<std::mutex> lock(episodes_mutex_);
  return episodes_.size();
}

void Service::expire_episodes() {
  auto now = Clock::now();
  auto idle = std::chrono::duration<double>(config_.episode_idle_seconds);
  std::lock_guard<std::mutex> lock(episodes_mutex_);
  for (auto it = episodes_.begin(); it != episodes_.end();) {
    if (!it->second->busy && now - it->second->last_used > idle) {
      it = episodes_.erase(it);
      ++stats_.episodes_expired;
    } else {
      ++it;
    }
  }
}

ojson Service::start_episode(const json& body) {
  expire_episodes();
  const TaskSpec& t = task(body);
  Mode mode = mode_of(optional_string(body, "mode", "agent"));
  RewardKind kind = reward_of(optional_string(body, "reward", "binary"));
  int max_turns = 10;
  if (body.contains("max_turns")) {
    if (!body["max_turns"].is_number_integer()) throw ApiError(400, "bad_request", "'max_turns' must be an integer");
    max_turns = body["max_turns"].get<int>();
    if (max_turns < 1 || max_turns > config_.max_turns)
      throw ApiError(400, "bad_request", "'max_turns' must be in [1, " + std::to_string(config_.max_turns) + "]");
  }
  auto e = std::make_shared<Episode>();
  e->id = random_id();
  e->task_id = t.id;
  e->reward = kind;
  toolchain::RunSettings run = eval_.run;
  e->tools = std::make_unique<EpisodeTools>(t, run, toolchain::HeldOut{eval_.held_out_trials, eval_.held_out_secret});
  agent::EpisodePrompts prompts = agent::build_episode_prompts(agent::resolve_prompts_dir(config_.prompts_dir),
                                                               toolchain::task_info(t), mode, max_turns, config_.nki);
  e->env = std::make_unique<agent::Environment>(mode, max_turns, std::move(prompts), *e->tools);
  agent::Conversation c = e->env->reset();
  ojson tools = ojson::array();
  for (const agent::ToolSpec& s : c.tools) tools.push_back(tool_json(s));
  {
    std::lock_guard<std::mutex> lock(episodes_mutex_);
    if (episodes_.size() >= config_.max_episodes)
      throw ApiError(503, "too_many_episodes", "the server holds " + std::to_string(config_.max_episodes) +
                                                   " episodes; finish or delete some, or wait for idle ones to expire");
    episodes_[e->id] = e;
  }
  ++stats_.episodes_started;
  return {{"episode_id", e->id}, {"task", t.id}, {"mode", mode_name(mode)}, {"max_turns", e->env->max_turns()},
          {"reward", reward_kind_name(kind)}, {"messages", messages_json(c)}, {"tools", tools}};
}

ojson Service::episode_reward(Episode& e, agent::StopReason stop) {
  agent::Judgement j = e.env->finish(stop, e.env->turn());
  double reward;
  if (e.reward == RewardKind::Binary || j.final_kernel.empty()) {
    reward = j.verdict == VerdictKind::Pass ? 1.0 : -0.5;
    if (e.reward == RewardKind::Graded) reward = 0.0;  // no kernel: the bottom tier
  } else {
    reward = judge_isolated(task_by_id(e.task_id), j.final_kernel, Work::Reward, e.reward)["reward"];
  }
  return {{"verdict", verdict_kind_name(j.verdict)}, {"reward", reward}, {"final_kernel", j.final_kernel},
          {"kernel_turn", j.kernel_turn}, {"pass_turn", j.pass_turn}, {"tool_calls", j.tool_calls}};
}

ojson Service::step_episode(const std::string& id, const json& body, const CallContext& ctx) {
  expire_episodes();
  std::shared_ptr<Episode> e;
  {
    std::lock_guard<std::mutex> lock(episodes_mutex_);
    auto it = episodes_.find(id);
    if (it == episodes_.end()) throw ApiError(404, "unknown_episode", "no episode '" + id + "' (finished long ago, expired, never started, or the server restarted since: "
                                                               "episodes live in the server's memory only; start a new one)");
    e = it->second;
    if (e->busy) throw ApiError(409, "episode_busy", "a step of this episode is still running");
    if (e->done) throw ApiError(409, "episode_done", "the episode is over; start a new one");
    e->busy = true;
  }
  struct Release {
    Service& s;
    Episode& e;
    ~Release() {
      std::lock_guard<std::mutex> lock(s.episodes_mutex_);
      e.busy = false;
      e.last_used = Clock::now();
    }
  } release{*this, *e};
  if (!body.is_object() || !body.contains("message"))
    throw ApiError(400, "bad_request", "the body must be {\"message\": <the model's assistant message>}");
  agent::Message reply = reply_from_json(body["message"], config_.max_json_depth);
  // Calls past max_tool_calls are not run; each still gets a tool message (after the others).
  std::vector<agent::ToolCall> dropped;
  if (reply.tool_calls.size() > config_.max_tool_calls) {
    dropped.assign(reply.tool_calls.begin() + static_cast<std::ptrdiff_t>(config_.max_tool_calls), reply.tool_calls.end());
    reply.tool_calls.resize(config_.max_tool_calls);
  }
  ++stats_.episode_steps;
  ojson out;
  {
    WorkerSlot slot(*this);
    auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(config_.step_seconds));
    e->tools->set_deadline(deadline);
    e->tools->set_gate([this, deadline, gone = ctx.client_gone]() -> std::string {
      std::string why;
      if (stopping_) why = "the server is shutting down";
      else if (gone && gone()) why = "the client closed the connection";
      else if (Clock::now() >= deadline)
        why = "this step's time budget (" + std::to_string(static_cast<int>(config_.step_seconds)) + " s) is spent";
      if (!why.empty()) ++stats_.tool_calls_refused;
      return why;
    });
    struct Ungate {  // the gate asks this request's connection: gone with the request
      EpisodeTools& t;
      ~Ungate() { t.set_gate(nullptr); }
    } ungate{*e->tools};
    agent::StepResult step = e->env->step(reply);
    ojson msgs = ojson::array();
    for (const agent::Message& m : step.messages) {
      if (m.role == agent::Role::Tool)
        msgs.push_back({{"role", "tool"}, {"tool_call_id", m.tool_call_id}, {"name", m.tool_name}, {"content", m.content}});
      else
        msgs.push_back({{"role", "user"}, {"content", m.content}});
    }
    if (!step.done) {
      // Right after the tool messages of the calls that ran: OpenAI's format wants every tool
      // message of a reply before any user message.
      size_t at = 0;
      for (size_t i = 0; i < msgs.size(); ++i)
        if (msgs[i]["role"] == "tool") at = i + 1;
      for (const agent::ToolCall& c : dropped) {
        ++stats_.tool_calls_refused;
        ojson m = {{"role", "tool"}, {"tool_call_id", c.id}, {"name", c.name},
                   {"content", "not run: at most " + std::to_string(config_.max_tool_calls) +
                                   " tool calls are run per message; send the others in the next one\n"}};
        msgs.insert(msgs.begin() + static_cast<std::ptrdiff_t>(at++), std::move(m));
      }
    }
    out = {{"episode_id", id}, {"turn", step.turn}, {"messages", msgs}, {"done", step.done},
           {"action", step.action}, {"result", step.result}};
    if (step.done) {
      out["stop_reason"] = agent::stop_reason_name(step.stop);
      ojson fin = episode_reward(*e, step.stop);
      for (auto& [k, v] : fin.items()) out[k] = v;
      e->done = true;
    } else {
      out["reward"] = 0.0;
    }
  }
  return out;
}

ojson Service::delete_episode(const std::string& id) {
  std::lock_guard<std::mutex> lock(episodes_mutex_);
  if (episodes_.erase(id) == 0) throw ApiError(404, "unknown_episode", "no episode '" + id + "'");
  return {{"deleted", id}};
}

}  // namespace nki::serve
