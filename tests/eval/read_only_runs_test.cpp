// report and merge on run directories they may not write to: nothing in the run directory is
// created, modified or touched (checked with inotify, which also sees writes by root, for whom
// permission bits change nothing), and the database is really opened read-only.
#include <gtest/gtest.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <map>

#include "cli/command.h"
#include "cli/commands.h"
#include "eval/merge.h"
#include "eval/metrics.h"
#include "eval/results_db.h"
#include "eval/runner.h"
#include "eval/sqlite.h"
#include "eval_test_support.h"

namespace nki::eval {
namespace {

// The commands through the CLI's one parser, as nkiagent runs them.
int cmd_report(int argc, char** argv) { return cli::run_command(cli::make_report_command(), argc, argv); }
int cmd_merge(int argc, char** argv) { return cli::run_command(cli::make_merge_command(), argc, argv); }

namespace fs = std::filesystem;

struct Argv {
  std::vector<std::string> args;
  std::vector<char*> ptrs;
  explicit Argv(std::vector<std::string> a) : args(std::move(a)) {
    for (auto& s : args) ptrs.push_back(s.data());
  }
  int argc() { return static_cast<int>(ptrs.size()); }
  char** argv() { return ptrs.data(); }
};

// Everything observable about a tree: names, types, modes, sizes, mtimes (ns) and contents.
std::map<std::string, std::string> snapshot(const fs::path& root) {
  std::map<std::string, std::string> out;
  auto describe = [](const fs::path& p) {
    struct stat st {};
    ::lstat(p.c_str(), &st);
    std::string d = std::to_string(st.st_mode) + "/" + std::to_string(st.st_size) + "/" +
                    std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
    if (S_ISREG(st.st_mode)) d += "/" + testing::read_file(p.string());
    return d;
  };
  out["."] = describe(root);
  for (const auto& e : fs::recursive_directory_iterator(root))
    out[fs::relative(e.path(), root).string()] = describe(e.path());
  return out;
}

void set_tree_writable(const fs::path& root, bool writable) {
  auto perms = [&](const fs::path& p) {
    bool dir = fs::is_directory(p);
    fs::permissions(p, writable ? (dir ? fs::perms(0755) : fs::perms(0644)) : (dir ? fs::perms(0555) : fs::perms(0444)));
  };
  perms(root);
  for (const auto& e : fs::recursive_directory_iterator(root)) perms(e.path());
}

// Collects every modifying event (create, write, attribute change, delete, rename) in the given
// directories and the files directly inside them.
class WriteWatch {
 public:
  explicit WriteWatch(const std::vector<fs::path>& dirs) : fd_(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
    for (const auto& d : dirs) {
      add(d);
      for (const auto& e : fs::recursive_directory_iterator(d))
        if (e.is_directory()) add(e.path());
    }
  }
  ~WriteWatch() { ::close(fd_); }
  bool ok() const { return fd_ >= 0 && !failed_; }

  // Names of the entries that saw a modifying event since construction.
  std::vector<std::string> events() {
    std::vector<std::string> names;
    alignas(inotify_event) char buf[8192];
    ssize_t n;
    while ((n = ::read(fd_, buf, sizeof buf)) > 0) {
      for (char* p = buf; p < buf + n;) {
        auto* ev = reinterpret_cast<inotify_event*>(p);
        names.push_back(watched_[ev->wd] + "/" + (ev->len ? ev->name : "") + " mask=" + std::to_string(ev->mask));
        p += sizeof(inotify_event) + ev->len;
      }
    }
    return names;
  }

 private:
  void add(const fs::path& dir) {
    int wd = inotify_add_watch(fd_, dir.c_str(),
                               IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM |
                                   IN_MOVED_TO | IN_DELETE_SELF);
    if (wd < 0) failed_ = true;
    watched_[wd] = dir.string();
  }
  int fd_;
  bool failed_ = false;
  std::map<int, std::string> watched_;
};

// Two finished shard runs in ROOT/shard0 and ROOT/shard1.
struct ShardRuns {
  std::string root = testing::make_temp_dir("readonly");
  std::string tasks = root + "/tasks";
  fs::path shard[2] = {root + "/shard0", root + "/shard1"};
  ShardRuns() {
    testing::write_fake_tasks(tasks, 2);
    for (int i = 0; i < 2; ++i) {
      auto o = testing::quiet_options(tasks, shard[i].string());
      o.config.samples = 2;
      o.config.shard = ShardSpec{i, 2};
      run_bench(o, [](const EpisodeRequest& r) { return testing::fake_outcome(r); });
    }
  }
  ~ShardRuns() {
    for (const auto& s : shard) set_tree_writable(s, true);
    fs::remove_all(root);
  }
};

TEST(ReadOnlyRuns, ReportAndMergeLeaveAReadOnlyRunDirectoryUntouched) {
  ShardRuns runs;
  for (const auto& s : runs.shard) {
    ASSERT_TRUE(fs::exists(s / "results.sqlite"));
    ASSERT_FALSE(fs::exists(s / "results.sqlite-wal"));  // bench checkpointed on close
    set_tree_writable(s, false);
  }
  auto before0 = snapshot(runs.shard[0]), before1 = snapshot(runs.shard[1]);
  WriteWatch watch({runs.shard[0], runs.shard[1]});
  ASSERT_TRUE(watch.ok());

  fs::create_directories(runs.root + "/out");
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  Argv report({"report", runs.shard[0].string(), runs.shard[1].string(), "--out", runs.root + "/out/r.html",
               "--md", runs.root + "/out/r.md", "--json", runs.root + "/out/r.json"});
  int report_rc = cmd_report(report.argc(), report.argv());
  Argv merge({"merge", runs.root + "/merged", runs.shard[0].string(), runs.shard[1].string()});
  int merge_rc = cmd_merge(merge.argc(), merge.argv());
  std::string out = ::testing::internal::GetCapturedStdout();
  std::string err = ::testing::internal::GetCapturedStderr();

  EXPECT_EQ(report_rc, 0) << err;
  EXPECT_EQ(merge_rc, 0) << err;
  EXPECT_NE(out.find("merged 12 episodes"), std::string::npos) << out;
  EXPECT_GT(fs::file_size(runs.root + "/out/r.html"), 0u);
  EXPECT_GT(fs::file_size(runs.root + "/out/r.md"), 0u);
  EXPECT_EQ(watch.events(), std::vector<std::string>{});
  EXPECT_EQ(snapshot(runs.shard[0]), before0);
  EXPECT_EQ(snapshot(runs.shard[1]), before1);
  EXPECT_EQ(load_run_metrics(runs.root + "/merged").finished, 12);
}

TEST(ReadOnlyRuns, ReadOnlyHandleRefusesToWrite) {
  ShardRuns runs;
  std::string path = results_db_path(runs.shard[0].string());
  ResultsDb db(path, OpenMode::ReadOnly);
  EXPECT_EQ(db.load_episodes().size(), 6u);
  // The handle itself is read-only, whatever the file permissions (they are writable here).
  EXPECT_THROW(db.mark_started({"l1_t0", 0}, 0), SqliteError);
  Database raw(path, OpenMode::ReadOnly);
  EXPECT_THROW(raw.exec("CREATE TABLE extra (x)"), SqliteError);
  EXPECT_FALSE(fs::exists(path + "-wal"));
  EXPECT_FALSE(fs::exists(path + "-shm"));
}

TEST(ReadOnlyRuns, ALiveWriteAheadLogIsReadNotIgnored) {
  // While a bench runs (or after it was killed) the newest episodes are only in the -wal file;
  // opening the database immutable then would silently miss them.
  auto dir = testing::make_temp_dir("readonly_wal");
  ResultsDb writer(results_db_path(dir));
  RunConfig c;
  c.model = "m";
  c.task_count = 1;
  writer.init_run(c);
  EpisodeOutcome o;
  o.verdict = Verdict::pass();
  writer.record_finished({"l1_live", 1}, 0, "m", o);
  ASSERT_TRUE(fs::exists(results_db_path(dir) + "-wal"));

  ResultsDb reader(results_db_path(dir), OpenMode::ReadOnly);
  auto eps = reader.load_episodes();
  ASSERT_EQ(eps.size(), 1u);
  EXPECT_EQ(eps[0].task.id, "l1_live");
  EXPECT_TRUE(eps[0].finished);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace nki::eval
