// cli_option_fuzz: runs the nkiagent binary with malformed command lines and checks that every
// run ends with a documented exit code (0-4) and a message, never with a signal, a hang or an
// uncaught exception. A generator-driven harness rather than libFuzzer: the failures it hunts
// (std::terminate on a conversion exception, an abort on a directory) only show at the level
// of the whole process, and each command must be run as the user would run it.
//
// Each run starts from a valid, quick invocation of one command (scenarios.h) and applies 1-4
// mutations (1 in half of the runs) drawn from the command's own option table: mostly a
// malformed, boundary or valid value for one option, else a dropped option, a value-less
// option at the end, an unknown option, a duplicate, a bad positional or a flag with a value.
// Run i uses the seed (seed, i), so a finding is reproduced with --first i --runs 1. A run
// after which a scratch input shared by all runs has changed is a finding too: it would make
// every later run that reads the input fail for the wrong reason.
//
//   cli_option_fuzz --nkiagent build/nkiagent --duration 1800 --jobs 2 --log fuzz.log
//   cli_option_fuzz --sweep   # every option of every command with fixed bad values, once
//   cli_option_fuzz --sweep --first 74 --runs 1 --verbose   # replay case 74 of the sweep
//
// Exit status: 0 no finding, 1 findings (listed in the log and on stderr), 2 usage or setup error.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include <unistd.h>

#include "cli/command.h"
#include "fuzz/cli/scenarios.h"
#include "tests/cli/child_process.h"

namespace nki::cli::fuzz {

namespace {

namespace fs = std::filesystem;

CommandSpec harness_spec() {
  CommandSpec s;
  s.name = "cli_option_fuzz";
  s.synopsis = "cli_option_fuzz [--runs N | --duration S] [--seed S] [--jobs J] [--log FILE] [--sweep]";
  s.description = "Runs nkiagent with malformed options; see the comment at the top of cli_option_fuzz.cpp.";
  OptionSpec nkiagent = text_option("nkiagent", "PATH", "binary under test");
  nkiagent.default_help = "$NKIAGENT, else the one this build made";
  OptionSpec scratch = text_option("scratch", "DIR", "scratch directory (created; removed afterwards)");
  scratch.default_help = "a new directory under /tmp";
  s.options = {
      nkiagent,
      integer_option("runs", "N", 1, 100000000, "number of runs", "200"),
      integer_option("duration", "S", 1, 100000000, "stop after S seconds, even before --runs are done"),
      integer_option("seed", "S", 0, 1000000000, "seed of the run sequence", "1"),
      integer_option("first", "I", 0, 100000000, "index of the first run or sweep case (to replay a finding)", "0"),
      integer_option("jobs", "J", 1, 64, "runs in parallel", "1"),
      integer_option("timeout", "S", 1, 3600, "seconds before a run counts as hung", "120"),
      text_option("log", "FILE", "append every finding (and a summary) to FILE"),
      scratch,
      flag_option("sweep", "instead of random runs: every option of every command with fixed bad values"),
      flag_option("verbose", "print every run with the first line of its stderr"),
  };
  s.epilog = "exit status: 0 no finding, 1 findings, 2 usage or setup error";
  return s;
}

const CommandSpec& command_spec(const std::string& name) {
  static std::map<std::string, CommandSpec> specs = [] {
    std::map<std::string, CommandSpec> m;
    for (const CommandEntry& e : command_list()) m[e.name] = e.make().spec;
    return m;
  }();
  return specs.at(name);
}

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=:,./@") ==
                        std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// ------------------------------------------------------------------ mutations

template <typename T>
const T& pick(const std::vector<T>& v, std::mt19937_64& rng) {
  return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
}

void erase_option(Invocation& inv, const std::string& name) {
  auto& o = inv.options;
  o.erase(std::remove_if(o.begin(), o.end(), [&](const auto& kv) { return kv.first == name; }), o.end());
}

void set_option(Invocation& inv, const CommandSpec& spec, const ScratchPaths& p, std::mt19937_64& rng) {
  const OptionSpec& o = pick(spec.options, rng);
  if (!o.repeatable || rng() % 2) erase_option(inv, o.name);
  if (o.type != ValueType::Flag) inv.options.emplace_back(o.name, random_value(o, p, rng));
  else if (rng() % 2) inv.options.emplace_back(o.name, std::nullopt);
  else inv.extra.push_back("--" + o.name + "=" + random_value(o, p, rng));
}

// Positionals that are read, never written: merge's first one (OUT_DIR) and report's run
// directories (report writes RUN_DIR/report.html by default) stay inside the scratch tree.
void mutate_positional(Invocation& inv, const Scratch& s, std::mt19937_64& rng) {
  const ScratchPaths& p = s.paths;
  if (inv.command == "merge" || inv.command == "report") {
    std::vector<std::string> safe = {p.dir, p.dir + "/missing", p.text_file, s.run_dir, s.tasks_dir, p.empty_file};
    if (inv.command == "merge" && inv.positionals.size() > 1 && rng() % 2) inv.positionals.pop_back();
    else inv.positionals.push_back(pick(safe, rng));
    return;
  }
  std::vector<std::string> values = {"",   p.dir, p.dir + "/missing.py", p.empty_file, p.text_file, p.npy, p.corrupt_npy,
                                     "/dev/null", "/",   "-",         "stray",      p.kernel};
  if (inv.command == "tasks") values.insert(values.end(), {"list", "show", "verify-solutions", "audit", "LIST", "l1_add_fp32"});
  if (inv.positionals.empty() || rng() % 3 == 0) inv.positionals.push_back(pick(values, rng));
  else if (rng() % 2) inv.positionals[rng() % inv.positionals.size()] = pick(values, rng);
  else inv.positionals.erase(inv.positionals.begin() + static_cast<long>(rng() % inv.positionals.size()));
}

void mutate(Invocation& inv, const Scratch& s, std::mt19937_64& rng) {
  const CommandSpec& spec = command_spec(inv.command);
  // Mostly option values: the mutations that the parser itself rejects (an unknown option, a
  // missing value, a value for a flag) stop a run before the command does any work.
  static const std::vector<double> weights = {6, 1, 1, 1, 1.5, 1, 0.5};
  std::discrete_distribution<int> kind(weights.begin(), weights.end());
  switch (kind(rng)) {
    case 0:
      set_option(inv, spec, s.paths, rng);
      break;
    case 1:  // drop an option the base needed
      if (!inv.options.empty()) inv.options.erase(inv.options.begin() + static_cast<long>(rng() % inv.options.size()));
      break;
    case 2: {  // an option that needs a value, as the very last word
      const OptionSpec& o = pick(spec.options, rng);
      inv.extra.push_back("--" + o.name);
      break;
    }
    case 3:
      inv.extra.push_back(pick(std::vector<std::string>{"--bogus", "--bogus=1", "-x", "---", "--=", "--=x", "-", "--",
                                                        "--" + std::string(5000, 'o'), "-help", "--HELP"},
                               rng));
      break;
    case 4:
      mutate_positional(inv, s, rng);
      break;
    case 5:  // the same option twice (for repeatable ones: an extra value)
      if (!inv.options.empty()) inv.options.push_back(inv.options[rng() % inv.options.size()]);
      break;
    case 6:  // a flag given a value
      for (const OptionSpec& o : spec.options)
        if (o.type == ValueType::Flag) {
          inv.extra.push_back("--" + o.name + "=yes");
          break;
        }
      break;
  }
}

// ------------------------------------------------------------------ running and judging

struct Finding {
  std::string kind;  // signal, hang, exit code, uncaught exception
  std::vector<std::string> argv;
  std::string detail;
};

// A finding, or an empty kind when the run ended as documented.
Finding judge(const testing::ChildResult& r, const std::vector<std::string>& argv) {
  Finding f{"", argv, r.describe() + "\n" + r.err.substr(0, 2000)};
  if (r.not_started) f.kind = "not started";  // the harness's problem, not nkiagent's; still reported
  else if (r.signaled) f.kind = "signal";
  else if (r.timed_out) f.kind = "hang";
  else if (r.exit_code < 0 || r.exit_code > 4) f.kind = "exit code";
  else if (r.err.find("internal error") != std::string::npos || r.err.find("terminate called") != std::string::npos)
    f.kind = "uncaught exception";
  return f;
}

struct Stats {
  std::mutex mu;
  long runs = 0;
  std::map<std::string, std::map<int, long>> exit_codes;  // command -> exit code -> runs
  std::vector<Finding> findings;
  double slowest = 0;
};

class Harness {
 public:
  Harness(const ParsedOptions& o, Scratch scratch, std::string nkiagent)
      : o_(o), s_(std::move(scratch)), nkiagent_(std::move(nkiagent)) {
    if (o.has("log")) log_.open(o.text("log"), std::ios::app);
    for (const std::string& f : s_.shared_inputs) inputs_[f] = fingerprint(f);
  }

  void run_one(const Invocation& inv, const std::vector<bool>& inline_values, long index) {
    std::vector<std::string> argv = inv.args(inline_values);
    argv.insert(argv.begin(), nkiagent_);
    testing::ChildOptions co;
    co.cwd = s_.work_dir;
    co.timeout_s = static_cast<double>(*o_.integer("timeout"));
    co.set_env = child_env(s_);
    co.unset_env = child_unset_env();
    testing::ChildResult r = testing::run_child(argv, co);
    Finding f = judge(r, argv);
    std::lock_guard lock(stats_.mu);
    ++stats_.runs;
    stats_.slowest = std::max(stats_.slowest, r.seconds);
    stats_.exit_codes[inv.command][r.exited ? r.exit_code : -1]++;
    if (o_.flag("verbose")) {
      std::cerr << "[" << index << "] " << r.describe() << ": " << command_line(argv) << "\n";
      if (!r.err.empty()) std::cerr << "    " << r.err.substr(0, r.err.find('\n')) << "\n";
    }
    // A run that changed a shared input would silently break every later run that reads it.
    // With --jobs > 1 the run named here may be a neighbour of the one that did it.
    for (auto& [path, before] : inputs_) {
      std::string now = fingerprint(path);
      if (now == before || !f.kind.empty()) continue;
      f.kind = "scratch input changed";
      f.detail = path + " changed (" + before + " -> " + now + ")\n" + f.detail;
      before = now;
    }
    if (f.kind.empty()) return;
    std::ostringstream msg;
    msg << "FINDING (" << f.kind << ") run " << index << ": " << command_line(argv) << "\n  " << f.detail << "\n";
    std::cerr << msg.str();
    if (log_) log_ << msg.str() << std::flush;
    stats_.findings.push_back(std::move(f));
  }

  // Random runs first..first+runs-1 (or until the duration is up) on `jobs` threads.
  void random_runs() {
    const long first = *o_.integer("first"), runs = *o_.integer("runs");
    const uint64_t seed = static_cast<uint64_t>(*o_.integer("seed"));
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(o_.integer("duration").value_or(100000000));
    parallel(runs, [&](long k) {
      long i = first + k;
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::seed_seq seq{seed, static_cast<uint64_t>(i)};
      std::mt19937_64 rng(seq);
      std::vector<Invocation> bases = base_invocations(s_, "r" + std::to_string(i));
      Invocation inv = pick(bases, rng);
      std::geometric_distribution<int> extra_mutations(0.5);  // 1 mutation half of the time
      for (int m = 0, n = 1 + std::min(3, extra_mutations(rng)); m < n; ++m) mutate(inv, s_, rng);
      std::vector<bool> inline_values;
      for (size_t j = 0; j < inv.options.size(); ++j) inline_values.push_back(rng() % 4 == 0);
      run_one(inv, inline_values, i);
      clean_outputs("r" + std::to_string(i));
      return true;
    });
  }

  // Each base invocation, with each option of its command set to each fixed bad value; plus
  // a value-less last option and an unknown option.
  void sweep() {
    struct Case {
      size_t base;
      const OptionSpec* option;  // set to `value`, or null
      std::string value;
      std::string extra;         // a raw token appended, or empty
    };
    std::vector<Case> cases;
    std::vector<Invocation> bases = base_invocations(s_, "");
    for (size_t b = 0; b < bases.size(); ++b) {
      for (const OptionSpec& o : command_spec(bases[b].command).options) {
        for (const std::string& v : fixed_bad_values(o, s_.paths)) cases.push_back({b, &o, v, ""});
        cases.push_back({b, nullptr, "", "--" + o.name + (o.type == ValueType::Flag ? "=1" : "")});
      }
      cases.push_back({b, nullptr, "", "--bogus"});
    }
    // --first/--runs pick a slice of the cases, e.g. to replay one finding.
    const long first = std::min<long>(*o_.integer("first"), static_cast<long>(cases.size()));
    const long count = o_.has("runs") ? std::min<long>(*o_.integer("runs"), static_cast<long>(cases.size()) - first)
                                      : static_cast<long>(cases.size()) - first;
    parallel(count, [&](long k) {
      const long i = first + k;
      const Case& c = cases[static_cast<size_t>(i)];
      std::string unique = "s" + std::to_string(i);
      Invocation inv = base_invocations(s_, unique)[c.base];
      if (c.option) {
        if (!c.option->repeatable) erase_option(inv, c.option->name);
        inv.options.emplace_back(c.option->name, c.value);
      }
      if (!c.extra.empty()) inv.extra.push_back(c.extra);
      run_one(inv, {}, i);
      clean_outputs(unique);
      return true;
    });
  }

  int summary(double seconds) {
    std::ostringstream s;
    s << "cli_option_fuzz: " << stats_.runs << " runs in " << static_cast<long>(seconds) << " s (slowest run "
      << static_cast<long>(stats_.slowest) << " s), " << stats_.findings.size() << " findings\n";
    std::map<std::string, long> kinds;
    for (const Finding& f : stats_.findings) kinds[f.kind]++;
    for (const auto& [kind, n] : kinds) s << "  " << kind << ": " << n << "\n";
    s << "exit codes per command (-1 = no exit):\n";
    for (const auto& [cmd, codes] : stats_.exit_codes) {
      s << "  " << cmd << ":";
      for (const auto& [code, n] : codes) s << " " << code << "x" << n;
      s << "\n";
    }
    std::cout << s.str();
    if (log_) log_ << s.str();
    return stats_.findings.empty() ? 0 : 1;
  }

 private:
  // Calls work(0..count-1) on --jobs threads; a thread stops early when work returns false.
  void parallel(long count, const std::function<bool(long)>& work) {
    std::atomic<long> next{0};
    auto worker = [&] {
      for (long i; (i = next++) < count;)
        if (!work(i)) return;
    };
    std::vector<std::thread> threads;
    for (int j = 0; j < *o_.integer("jobs"); ++j) threads.emplace_back(worker);
    for (auto& t : threads) t.join();
  }

  static std::string fingerprint(const std::string& path) {
    std::error_code ec;
    auto size = fs::file_size(path, ec);
    if (ec) return "missing";
    auto time = fs::last_write_time(path, ec).time_since_epoch().count();
    return std::to_string(size) + " bytes, mtime " + std::to_string(time);
  }

  static std::string command_line(const std::vector<std::string>& argv) {
    std::string line;
    for (const std::string& a : argv) line += (line.empty() ? "" : " ") + shell_quote(a);
    return line;
  }

  // Per-run outputs (run dirs, arrays) would otherwise pile up over a long fuzzing session.
  void clean_outputs(const std::string& unique) {
    std::error_code ec;
    for (const char* suffix : {"", ".html", ".md"}) fs::remove_all(s_.work_dir + "/" + unique + suffix, ec);
  }

  const ParsedOptions& o_;
  Scratch s_;
  std::string nkiagent_;
  std::ofstream log_;
  Stats stats_;
  std::map<std::string, std::string> inputs_;  // shared input -> fingerprint, under stats_.mu
};

int fuzz_main(int argc, char** argv) {
  CommandSpec spec = harness_spec();
  ParsedOptions o;
  try {
    o = parse_command_line(spec, argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "cli_option_fuzz: " << e.what() << "\n";
    return 2;
  }
  if (o.help()) {
    std::cout << format_help(spec);
    return 0;
  }
  std::string nkiagent = o.has("nkiagent") ? o.text("nkiagent") : testing::nkiagent_path();
  std::string root = o.has("scratch") ? o.text("scratch")
                                      : (fs::temp_directory_path() / ("nki_cli_fuzz_" + std::to_string(getpid()))).string();
  auto start = std::chrono::steady_clock::now();
  int rc = 2;
  try {
    Harness h(o, make_scratch(root, NKI_SOURCE_DIR, nkiagent), nkiagent);
    if (o.flag("sweep")) h.sweep();
    else h.random_runs();
    rc = h.summary(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  } catch (const std::exception& e) {
    std::cerr << "cli_option_fuzz: " << e.what() << "\n";
  }
  std::error_code ec;
  fs::remove_all(root, ec);
  return rc;
}

}  // namespace

}  // namespace nki::cli::fuzz

int main(int argc, char** argv) { return nki::cli::fuzz::fuzz_main(argc, argv); }
