// `nkiagent bench` and `solve` in both NKI dialects (issue 15, item 5), end to end on replayed
// transcripts written here: on l1_add_fp32 the model verifies the current-dialect solution
// (solutions_nki06/), on l1_div_fp32 the legacy one (solutions/). The episode's dialect decides
// which of the two passes: under --nki 0.6 the legacy kernel stops at its imports
// (legacy_namespace_in_current_dialect) and under --nki 2.24 the current one does
// (current_namespace_in_legacy_dialect). The dialect is recorded in the transcript header, the
// run's stored config, result.json and the reports, and a replay without --nki runs in the
// recorded dialect.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "child_process.h"
#include "eval/results_db.h"

namespace nki::cli {
namespace {

namespace fs = std::filesystem;
const std::string kSource = NKI_SOURCE_DIR;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// One recorded reply: a verify_kernel call with `code`.
void write_replay(const fs::path& path, const std::string& task, const std::string& code, const std::string& nki) {
  nlohmann::json header = {{"v", 1}, {"seq", 0}, {"type", "header"}, {"format", "nki-agent-transcript"},
                           {"task_id", task}, {"model", "scripted:dialects"}, {"mode", "agent"},
                           {"max_turns", 1}, {"note", "written by dialect_replay_test"}};
  if (!nki.empty()) header["nki"] = nki;
  nlohmann::json call = {{"id", "call_1"}, {"name", "verify_kernel"}, {"arguments", nlohmann::json({{"code", code}}).dump()}};
  nlohmann::json response = {{"v", 1}, {"seq", 1}, {"type", "response"}, {"turn", 1},
                             {"message", {{"role", "assistant"}, {"content", "Here it is."}, {"tool_calls", {call}}}},
                             {"stop_reason", "tool_use"}};
  std::ofstream(path) << header.dump() << "\n" << response.dump() << "\n";
}

struct Fixture {
  fs::path root, tasks, replays;
  Fixture() {
    root = fs::temp_directory_path() / ("nki_dialect_replay_" + std::to_string(::getpid()));
    fs::remove_all(root);
    tasks = root / "tasks";
    replays = root / "replays";
    fs::create_directories(tasks / "subsets");
    fs::create_directories(replays);
    for (const char* id : {"l1_add_fp32", "l1_div_fp32"}) fs::create_directory_symlink(kSource + "/tasks/" + id, tasks / id);
    fs::copy_file(kSource + "/tasks/baselines.json", tasks / "baselines.json");
    std::ofstream(tasks / "subsets" / "two.txt") << "l1_add_fp32\nl1_div_fp32\n";
    write_replay(replays / "l1_add_fp32.jsonl", "l1_add_fp32", read_file(kSource + "/solutions_nki06/l1_add_fp32.py"), "");
    write_replay(replays / "l1_div_fp32.jsonl", "l1_div_fp32", read_file(kSource + "/solutions/l1_div_fp32.py"), "");
  }
  ~Fixture() { fs::remove_all(root); }

  testing::ChildResult bench(const std::string& nki, const fs::path& run) const {
    testing::ChildOptions co;
    co.timeout_s = 300;
    return testing::run_child({testing::nkiagent_path(), "bench", "--model", "scripted:dialects", "--mode", "agent",
                               "--max-turns", "1", "--subset", "two", "--tasks-dir", tasks.string(), "--replay-dir",
                               replays.string(), "--run-dir", run.string(), "--nki", nki},
                              co);
  }
};

std::map<std::string, eval::EpisodeOutcome> outcomes(const fs::path& run, eval::RunConfig* config) {
  eval::ResultsDb db((run / "results.sqlite").string(), eval::OpenMode::ReadOnly);
  if (config) *config = db.stored_config().value_or(eval::RunConfig{});
  std::map<std::string, eval::EpisodeOutcome> by_task;
  for (const auto& e : db.load_episodes()) by_task[e.task.id] = e.outcome;
  return by_task;
}

TEST(DialectReplay, EachDialectPassesOnlyItsOwnKernels) {
  Fixture f;
  for (const std::string nki : {"0.6", "2.24"}) {
    SCOPED_TRACE("--nki " + nki);
    fs::path run = f.root / ("run_" + nki);
    testing::ChildResult b = f.bench(nki, run);
    ASSERT_TRUE(b.exited && b.exit_code == 0) << b.describe() << "\n" << b.out << b.err;
    EXPECT_NE(b.out.find("1 passed"), std::string::npos) << b.out;

    eval::RunConfig config;
    auto by_task = outcomes(run, &config);
    EXPECT_EQ(config.nki, nki);
    ASSERT_EQ(by_task.size(), 2u);
    const bool current = nki == "0.6";
    const eval::EpisodeOutcome& own = by_task[current ? "l1_add_fp32" : "l1_div_fp32"];
    const eval::EpisodeOutcome& other = by_task[current ? "l1_div_fp32" : "l1_add_fp32"];
    EXPECT_TRUE(own.verdict.passed());
    EXPECT_EQ(other.verdict.kind, eval::VerdictKind::CompileError);
    EXPECT_EQ(other.verdict.code,
              current ? "legacy_namespace_in_current_dialect" : "current_namespace_in_legacy_dialect");

    // The transcript header names the dialect, and the model read that dialect's primer.
    fs::path transcript = fs::path(own.transcript_path).is_absolute() ? fs::path(own.transcript_path)
                                                                      : run / own.transcript_path;
    std::string first_line = read_file(transcript);
    first_line = first_line.substr(0, first_line.find('\n'));
    nlohmann::json header = nlohmann::json::parse(first_line);
    EXPECT_EQ(header.value("nki", ""), nki);
    const std::string system = header.value("system", "");
    EXPECT_NE(system.find(current ? "# NKI primer (NKI 0.6" : "# NKI primer (SDK 2.24"), std::string::npos);
    EXPECT_EQ(system.find(current ? "import neuronxcc.nki as nki" : "import nki.language as nl"), std::string::npos);
  }

  // The report shows each run's dialect, in its label and in the runs table.
  testing::ChildOptions co;
  testing::ChildResult r = testing::run_child({testing::nkiagent_path(), "report", (f.root / "run_0.6").string(),
                                               (f.root / "run_2.24").string(), "--out", (f.root / "r.html").string(),
                                               "--md", (f.root / "r.md").string()},
                                              co);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe() << r.err;
  std::string md = read_file(f.root / "r.md");
  EXPECT_NE(md.find("| agent \u00b7 scripted:dialects \u00b7 NKI 0.6 | scripted:dialects | agent | 0.6 | trn1 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| agent \u00b7 scripted:dialects | scripted:dialects | agent | 2.24 | trn1 |"), std::string::npos)
      << md;
  EXPECT_NE(read_file(f.root / "r.html").find("NKI 0.6 on trn1"), std::string::npos);

  // Resuming a run directory in the other dialect is refused: the results would mix.
  testing::ChildResult mixed = f.bench("2.24", f.root / "run_0.6");
  EXPECT_TRUE(mixed.exited && mixed.exit_code != 0) << mixed.describe();
  EXPECT_NE(mixed.err.find("nki: 0.6 vs 2.24"), std::string::npos) << mixed.err;
}

TEST(DialectReplay, SolveRunsAReplayInItsRecordedDialect) {
  Fixture f;
  fs::path replay = f.root / "add06.jsonl";
  write_replay(replay, "l1_add_fp32", read_file(kSource + "/solutions_nki06/l1_add_fp32.py"), "0.6");
  testing::ChildOptions co;
  co.timeout_s = 300;
  auto solve = [&](std::vector<std::string> extra, const fs::path& out) {
    std::vector<std::string> argv = {testing::nkiagent_path(), "solve", "--task", "l1_add_fp32", "--tasks-dir",
                                     f.tasks.string(), "--replay", replay.string(), "--out", out.string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return testing::run_child(argv, co);
  };
  testing::ChildResult s = solve({}, f.root / "solve");
  ASSERT_TRUE(s.exited && s.exit_code == 0) << s.describe() << "\n" << s.out << s.err;
  EXPECT_NE(s.out.find(" nki=0.6 "), std::string::npos) << s.out;
  nlohmann::json result = nlohmann::json::parse(read_file(f.root / "solve" / "result.json"));
  EXPECT_EQ(result.value("nki", ""), "0.6");
  EXPECT_TRUE(result.value("passed", false));

  // --nki overrides the recording: the same current-dialect kernel fails a legacy episode.
  testing::ChildResult legacy = solve({"--nki", "2.24"}, f.root / "solve_legacy");
  EXPECT_TRUE(legacy.exited && legacy.exit_code == 1) << legacy.describe() << legacy.out << legacy.err;
  EXPECT_NE(legacy.out.find("current_namespace_in_legacy_dialect"), std::string::npos) << legacy.out;

  // Only the dialects with a prompt set are accepted.
  testing::ChildResult bad = solve({"--nki", "0.5"}, f.root / "solve_bad");
  EXPECT_TRUE(bad.exited && bad.exit_code == 2) << bad.describe();
  EXPECT_NE(bad.err.find("--nki"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace nki::cli
