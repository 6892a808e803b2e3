// `nkiagent bench --mode optimize --tools compile,verify,profile` end to end on replayed
// transcripts (tests/cli/replays/optimize, scripted by make_fixture.py): the real simulator
// verifies, the real cost model profiles, and the results database and both reports carry the
// speed metrics. The fixture: on l1_add_fp32 the model verifies a kernel with half the DMAs
// (kept: speedup > 1) and ends with a text reply quoting it; on l1_div_fp32 it verifies a slower one (not kept: the starting kernel,
// the reference solution, stays, so its speedup is exactly 1 and it is not fast_1).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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

// A tasks directory with the two fixture tasks, the committed baselines and a subset naming them.
fs::path make_tasks_dir(const fs::path& root) {
  fs::path tasks = root / "tasks";
  fs::create_directories(tasks / "subsets");
  for (const char* id : {"l1_add_fp32", "l1_div_fp32"}) fs::create_directory_symlink(kSource + "/tasks/" + id, tasks / id);
  fs::copy_file(kSource + "/tasks/baselines.json", tasks / "baselines.json");
  fs::copy_file(kSource + "/tasks/baselines.trn2.json", tasks / "baselines.trn2.json");
  std::ofstream(tasks / "subsets" / "opt2.txt") << "l1_add_fp32\nl1_div_fp32\n";
  return tasks;
}

TEST(OptimizeReplay, BenchRecordsSpeedupsAndReportsShowFastP) {
  fs::path root = fs::temp_directory_path() / ("nki_optimize_replay_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::path tasks = make_tasks_dir(root);
  fs::path run = root / "run";
  testing::ChildOptions co;
  co.timeout_s = 300;
  testing::ChildResult b = testing::run_child(
      {testing::nkiagent_path(), "bench", "--model", "scripted:optimize-fixture", "--mode", "optimize", "--tools",
       "compile,verify,profile", "--subset", "opt2", "--tasks-dir", tasks.string(), "--solutions-dir",
       kSource + "/solutions", "--replay-dir", kSource + "/tests/cli/replays/optimize", "--run-dir", run.string()},
      co);
  ASSERT_TRUE(b.exited && b.exit_code == 0) << b.describe() << "\n" << b.out << b.err;
  EXPECT_NE(b.out.find("2 passed"), std::string::npos) << b.out;
  EXPECT_NE(b.out.find("speed (cost model): fast_1 50.0%"), std::string::npos) << b.out;

  // Paths in the database are relative to the run directory.
  auto in_run = [&](const std::string& p) { return fs::path(p).is_absolute() ? fs::path(p) : run / p; };
  eval::ResultsDb db((run / "results.sqlite").string(), eval::OpenMode::ReadOnly);
  std::map<std::string, eval::EpisodeOutcome> by_task;
  for (const auto& e : db.load_episodes()) by_task[e.task.id] = e.outcome;
  ASSERT_EQ(by_task.size(), 2u);
  const eval::EpisodeOutcome& add = by_task["l1_add_fp32"];
  const eval::EpisodeOutcome& div = by_task["l1_div_fp32"];
  ASSERT_TRUE(add.speedup().has_value() && div.speedup().has_value());
  EXPECT_GT(*add.speedup(), 1.0);
  EXPECT_NEAR(*div.speedup(), 1.0, 1e-5);  // the reference solution against its own estimate
  EXPECT_GT(*add.pct_of_peak, 0.0);
  // The kept kernel is the wide one, written at turn 2; the starting kernel counts as turn 0.
  EXPECT_NE(read_file(in_run(add.final_kernel_path)).find("a[i * P:(i + 1) * P, :]"), std::string::npos);
  EXPECT_EQ(read_file(in_run(div.final_kernel_path)), read_file(kSource + "/solutions/l1_div_fp32.py"));

  std::string transcript = read_file(in_run(add.transcript_path));
  ASSERT_FALSE(transcript.empty()) << add.transcript_path;
  EXPECT_NE(transcript.find("\"name\":\"profile_kernel\""), std::string::npos);
  EXPECT_NE(transcript.find("estimate by a Trainium cost model"), std::string::npos);
  EXPECT_NE(transcript.find("\"type\":\"optimize_candidate\""), std::string::npos);
  EXPECT_NE(read_file(in_run(div.transcript_path)).find("\"kept\":false"), std::string::npos);

  testing::ChildResult r = testing::run_child({testing::nkiagent_path(), "report", run.string(), "--out",
                                               (root / "r.html").string(), "--md", (root / "r.md").string()},
                                              co);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe() << r.err;
  std::string md = read_file(root / "r.md");
  EXPECT_NE(md.find("| fast_1 | fast_1.5 | fast_2 | Geomean speedup |"), std::string::npos) << md;
  EXPECT_NE(md.find("| optimize \u00b7 scripted:optimize-fixture | all | 2 | 2 | 50.0% |"), std::string::npos) << md;
  EXPECT_NE(md.find("### Estimated latency per task"), std::string::npos);
  std::string html = read_file(root / "r.html");
  EXPECT_NE(html.find("Speedup distribution"), std::string::npos);
  EXPECT_NE(html.find("fast<sub>1.5</sub>"), std::string::npos);
  fs::remove_all(root);
}


// bench --target trn2 estimates on trn2 and divides by the trn2 baselines: the kept reference
// solution of l1_div_fp32 has speedup 1 only against its own target's baseline (the trn1 and trn2
// estimates differ), and without baselines.trn2.json the run has no baselines at all.
TEST(OptimizeReplay, BenchOnTrn2UsesTheTrn2Baselines) {
  fs::path root = fs::temp_directory_path() / ("nki_optimize_trn2_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::path tasks = make_tasks_dir(root);
  testing::ChildOptions co;
  co.timeout_s = 300;
  auto bench = [&](const fs::path& run) {
    return testing::run_child(
        {testing::nkiagent_path(), "bench", "--model", "scripted:optimize-fixture", "--mode", "optimize", "--tools",
         "compile,verify,profile", "--subset", "opt2", "--tasks-dir", tasks.string(), "--solutions-dir",
         kSource + "/solutions", "--replay-dir", kSource + "/tests/cli/replays/optimize", "--run-dir", run.string(),
         "--target", "trn2"},
        co);
  };
  testing::ChildResult b = bench(root / "run");
  ASSERT_TRUE(b.exited && b.exit_code == 0) << b.describe() << "\n" << b.out << b.err;
  eval::ResultsDb db((root / "run" / "results.sqlite").string(), eval::OpenMode::ReadOnly);
  std::map<std::string, eval::EpisodeOutcome> by_task;
  for (const auto& e : db.load_episodes()) by_task[e.task.id] = e.outcome;
  ASSERT_TRUE(by_task["l1_div_fp32"].speedup().has_value());
  EXPECT_NEAR(*by_task["l1_div_fp32"].speedup(), 1.0, 1e-5);

  fs::remove(tasks / "baselines.trn2.json");
  testing::ChildResult nob = bench(root / "run2");
  ASSERT_TRUE(nob.exited && nob.exit_code == 0) << nob.describe() << "\n" << nob.out << nob.err;
  EXPECT_NE(nob.err.find("baselines.trn2.json"), std::string::npos) << nob.err;
  fs::remove_all(root);
}

// `nkiagent solve` with the tools of issue 12: agent mode (not optimize) offering
// compile,verify,profile on a replayed transcript that calls all three; the live cost model
// answers profile_kernel and the live simulator passes verify_kernel, which ends the episode.
TEST(SolveReplay, AgentModeWithCompileVerifyProfileRunsAllThreeTools) {
  fs::path root = fs::temp_directory_path() / ("nki_solve_profile_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::path tasks = make_tasks_dir(root);
  testing::ChildOptions co;
  co.timeout_s = 300;
  testing::ChildResult r = testing::run_child(
      {testing::nkiagent_path(), "solve", "--task", "l1_add_fp32", "--mode", "agent", "--tools", "compile,verify,profile",
       "--replay", kSource + "/tests/cli/replays/agent_profile/l1_add_fp32.jsonl", "--tasks-dir", tasks.string(), "--out",
       (root / "out").string()},
      co);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe() << "\n" << r.out << r.err;
  EXPECT_NE(r.out.find("PASS pass task=l1_add_fp32"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mode=agent"), std::string::npos) << r.out;
  std::string transcript = read_file(root / "out" / "transcript.jsonl");
  EXPECT_NE(transcript.find("\"name\":\"profile_kernel\""), std::string::npos);
  EXPECT_NE(transcript.find("estimate by a Trainium cost model"), std::string::npos);
  EXPECT_NE(transcript.find("compile: ok"), std::string::npos);
  EXPECT_NE(transcript.find("\"stop_reason\":\"verified\""), std::string::npos) << transcript.substr(0, 2000);
  // Agent mode's prompt describes two tools; the third is named in the task message.
  EXPECT_NE(transcript.find("Tools offered in this episode: `compile_kernel`, `verify_kernel`, `profile_kernel`"),
            std::string::npos);

  // Without profile in --tools the same replay's profile_kernel call is an unknown tool, and the
  // episode still ends verified at turn 3.
  testing::ChildResult r2 = testing::run_child(
      {testing::nkiagent_path(), "solve", "--task", "l1_add_fp32", "--tools", "verify,compile", "--replay",
       kSource + "/tests/cli/replays/agent_profile/l1_add_fp32.jsonl", "--tasks-dir", tasks.string(), "--out",
       (root / "out2").string()},
      co);
  ASSERT_TRUE(r2.exited && r2.exit_code == 0) << r2.describe() << "\n" << r2.out << r2.err;
  std::string t2 = read_file(root / "out2" / "transcript.jsonl");
  EXPECT_EQ(t2.find("estimate by a Trainium cost model"), std::string::npos);
  EXPECT_NE(t2.find("profile_kernel"), std::string::npos);  // the model's call, answered as unknown
  fs::remove_all(root);
}

// solve --mode optimize --start FILE replays the optimize fixture from an explicit start kernel.
TEST(SolveReplay, OptimizeModeStartsFromTheStartFile) {
  fs::path root = fs::temp_directory_path() / ("nki_solve_optimize_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::path tasks = make_tasks_dir(root);
  testing::ChildOptions co;
  co.timeout_s = 300;
  testing::ChildResult r = testing::run_child(
      {testing::nkiagent_path(), "solve", "--task", "l1_add_fp32", "--mode", "optimize", "--tools", "compile,verify,profile",
       "--start", kSource + "/solutions/l1_add_fp32.py", "--replay",
       kSource + "/tests/cli/replays/optimize/l1_add_fp32.jsonl", "--tasks-dir", tasks.string(), "--out",
       (root / "out").string()},
      co);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe() << "\n" << r.out << r.err;
  EXPECT_NE(r.out.find("mode=optimize"), std::string::npos) << r.out;
  // The model's last reply is text with the kernel in a code block: that ends the episode at turn
  // 3 (issue 29; it used to draw a "Fix the kernel" follow-up and run past the recording).
  EXPECT_NE(r.out.find("turns=3 stop=answered"), std::string::npos) << r.out;
  EXPECT_EQ(read_file(root / "out" / "transcript.jsonl").find("Fix the kernel"), std::string::npos);
  // The kept kernel is the fixture's faster one, not the start file.
  EXPECT_NE(read_file(root / "out" / "kernel.py").find("a[i * P:(i + 1) * P, :]"), std::string::npos);
  EXPECT_NE(read_file(root / "out" / "transcript.jsonl").find("It passes verification. Its estimated latency is"),
            std::string::npos);

  // A starting kernel that fails verify is a setup error (exit 2), before any model call.
  std::ofstream(root / "wrong.py") << read_file(kSource + "/solutions/l1_div_fp32.py");
  testing::ChildResult bad = testing::run_child(
      {testing::nkiagent_path(), "solve", "--task", "l1_add_fp32", "--mode", "optimize", "--start",
       (root / "wrong.py").string(), "--replay", kSource + "/tests/cli/replays/optimize/l1_add_fp32.jsonl",
       "--tasks-dir", tasks.string(), "--out", (root / "out3").string()},
      co);
  EXPECT_TRUE(bad.exited && bad.exit_code == 2) << bad.describe() << "\n" << bad.out << bad.err;
  EXPECT_NE(bad.err.find("fails verify"), std::string::npos) << bad.err;
  fs::remove_all(root);
}

// --tools combinations a mode cannot run are usage errors (exit 2) with one clear line.
TEST(SolveReplay, ToolCombinationsAreValidatedAgainstTheMode) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--mode", "optimize", "--tools", "compile,profile"}, "optimize mode needs verify"},
      {{"--mode", "single-shot", "--tools", "compile"}, "single-shot mode offers no tools"},
      {{"--mode", "agent", "--tools", "compile,compile"}, "listed twice"},
      {{"--mode", "agent", "--tools", "run"}, "unknown tool 'run'"},
      {{"--mode", "agent", "--start", "x.py"}, "--start is for --mode optimize"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> argv = {testing::nkiagent_path(), "solve", "--task", "l1_add_fp32", "--model", "openai:x"};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    testing::ChildResult r = testing::run_child(argv, testing::ChildOptions{});
    EXPECT_TRUE(r.exited && r.exit_code == 2) << c.message << ": " << r.describe();
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
  }
  // bench applies the same rule, before it opens any run directory.
  testing::ChildResult b = testing::run_child({testing::nkiagent_path(), "bench", "--model", "openai:x", "--mode",
                                               "optimize", "--subset", "ablation60", "--tools", "profile,compile"},
                                              testing::ChildOptions{});
  EXPECT_TRUE(b.exited && b.exit_code == 2) << b.describe();
  EXPECT_NE(b.err.find("optimize mode needs verify"), std::string::npos) << b.err;
}

}  // namespace
}  // namespace nki::cli
