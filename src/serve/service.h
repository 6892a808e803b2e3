// The RL environment service behind `nkiagent serve`: tasks, single-shot judging (compile,
// verify, reward) and multi-turn episodes, as JSON in and JSON out. HTTP lives in http_server.h;
// this class knows nothing about sockets, so every endpoint is testable as a function call.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "agent/environment.h"
#include "serve/evaluate.h"
#include "serve/golden_store.h"
#include "task/task_spec.h"

namespace nki::serve {

// A request the service refuses: HTTP status, stable machine-readable code, and a message.
struct ApiError : std::runtime_error {
  ApiError(int status_, std::string code_, const std::string& message)
      : std::runtime_error(message), status(status_), code(std::move(code_)) {}
  int status;
  std::string code;
};

struct ServiceConfig {
  std::string tasks_root;
  std::string prompts_dir;           // empty: agent::resolve_prompts_dir("")
  int jobs = 2;                      // kernels judged at once (each in an isolated child)
  double kernel_seconds = 60;        // wall limit per compile or simulation of one kernel
  int64_t kernel_memory_bytes = 0;   // address-space limit per child; 0: the toolchain default
  int held_out_trials = 2;
  uint64_t held_out_secret = 0;      // per server; seeds the held-out trials of every reward
  double episode_idle_seconds = 600; // an episode without a step for this long is dropped
  size_t max_episodes = 256;
  size_t max_batch = 64;             // items per batch request
  int max_turns = 50;                // upper bound a client may ask for
  // Tool calls run per step message; the calls after the first max_tool_calls are answered with
  // a tool result saying they were not run (the model sees why; the episode goes on).
  size_t max_tool_calls = 8;
  // Wall-clock budget of one episode step: tool calls that would start after it are not run
  // (the final verdict still gets the toolchain's minimum). Bounds the work of one request.
  double step_seconds = 300;
  // Deepest nesting accepted in a tool call's `arguments` JSON string (the HTTP layer applies
  // the same bound to request bodies, HttpOptions::max_json_depth), checked before parsing.
  int max_json_depth = 64;
  double queue_seconds = 120;        // longest wait for a worker before 503
  size_t cache_entries = 4096;       // memoised rewards (identical inputs, identical result), LRU
  int64_t golden_bytes = int64_t{512} << 20;  // golden data kept in memory (GoldenStore), LRU
  // NeuronCore the kernels are compiled for and the perf reward estimates on (its baselines:
  // TASKS_ROOT/baselines.json for trn1, baselines.trn2.json for trn2; baselines.nki06[.trn2].json
  // under nki 0.6).
  nki::Target target = nki::Target::Trn1;
  // NKI dialect of every prompt and every kernel check ("2.24" or "0.6"; agent/prompts.h).
  std::string nki = "2.24";
};

// What the HTTP layer tells the service about the request being served.
struct CallContext {
  // True once the client has closed its connection: work not yet started is then skipped.
  std::function<bool()> client_gone;
};

class Service {
 public:
  explicit Service(ServiceConfig config);  // loads every task under tasks_root
  ~Service();

  nlohmann::ordered_json health() const;
  nlohmann::ordered_json list_tasks() const;
  nlohmann::ordered_json task_prompt(const std::string& id, const std::string& mode) const;
  nlohmann::ordered_json compile(const nlohmann::json& body);
  nlohmann::ordered_json verify(const nlohmann::json& body);
  nlohmann::ordered_json reward(const nlohmann::json& body, const CallContext& ctx = {});
  nlohmann::ordered_json start_episode(const nlohmann::json& body);
  nlohmann::ordered_json step_episode(const std::string& id, const nlohmann::json& body, const CallContext& ctx = {});
  nlohmann::ordered_json delete_episode(const std::string& id);

  // SIGTERM: from now on no new kernel work starts (requests waiting for a worker and batch
  // items not yet started get 503 `shutting_down`, episode tool calls a "not run" result);
  // work in flight finishes under its per-kernel limits.
  void begin_shutdown();
  bool shutting_down() const { return stopping_; }

  // Counters for /metrics (Prometheus text is written by the HTTP layer).
  struct Stats {
    std::atomic<long long> kernels_judged{0};
    std::atomic<long long> rewards{0};
    std::atomic<long long> reward_cache_hits{0};
    std::atomic<long long> limit_exceeded{0};
    std::atomic<long long> episodes_started{0};
    std::atomic<long long> episodes_expired{0};
    std::atomic<long long> episode_steps{0};
    std::atomic<long long> tool_calls_refused{0};    // over max_tool_calls, or gated (budget, client, shutdown)
    std::atomic<long long> batch_item_errors{0};     // batch items answered with an error entry
    std::atomic<int> busy_workers{0};
    std::atomic<int> waiting{0};
  };
  const Stats& stats() const { return stats_; }
  size_t active_episodes() const;
  size_t memo_entries() const;
  const GoldenStore& golden() const { return golden_; }
  const ServiceConfig& config() const { return config_; }
  size_t task_count() const { return tasks_.size(); }

 private:
  struct Episode;
  class WorkerSlot;

  const TaskSpec& task(const nlohmann::json& body) const;
  const TaskSpec& task_by_id(const std::string& id) const;
  template <class F> nlohmann::ordered_json judge(const nlohmann::json& body, F&& fn);
  nlohmann::ordered_json reward_one(const nlohmann::json& item);
  nlohmann::ordered_json reward_batch(const nlohmann::json& body, const CallContext& ctx);
  enum class Work { Compile, Verify, Reward };
  // Compiles, verifies or rewards `code` in ONE isolated child (every trial in it, against
  // golden data from golden_), instead of a child per trial plus a second trace here.
  nlohmann::ordered_json judge_isolated(const TaskSpec& t, const std::string& code, Work w, RewardKind kind);
  nlohmann::ordered_json episode_reward(Episode& e, agent::StopReason stop);
  void expire_episodes();

  ServiceConfig config_;
  EvalSettings eval_;
  std::map<std::string, TaskSpec> tasks_;
  mutable Stats stats_;

  std::atomic<bool> stopping_{false};
  std::mutex pool_mutex_;
  std::condition_variable pool_cv_;
  int free_workers_ = 0;

  mutable std::mutex cache_mutex_;
  // Key: reward kind, task id and the SHA-256 of the kernel (not the kernel: a bound on
  // entries is then a bound on bytes). Front of the list: most recently used.
  std::list<std::string> memo_lru_;
  std::unordered_map<std::string, std::pair<nlohmann::ordered_json, std::list<std::string>::iterator>> reward_cache_;

  GoldenStore golden_;

  mutable std::mutex episodes_mutex_;
  std::map<std::string, std::shared_ptr<Episode>> episodes_;
  uint64_t next_episode_ = 1;
};

}  // namespace nki::serve
