#include "task/golden_cache.h"
#include "task/golden_batch.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/diagnostic.h"
#include "base/npy.h"
#include "task/golden_cache_integrity.h"
#include "task/sha256.h"
#include "task/subprocess.h"

namespace nki {

namespace fs = std::filesystem;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(path + ": cannot read file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// golden.py's stderr, shortened: its first line (the "golden: ..." summary) and the last lines
// (the end of the Python traceback), with the middle elided when it is long.
std::string shorten_stderr(const std::string& text, size_t max_lines) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines.size() > max_lines && i == 1) {
      out += "  ...\n";
      i = lines.size() - (max_lines - 1);
    }
    out += lines[i] + "\n";
  }
  if (!out.empty()) out.pop_back();
  return out;
}

// Loads one .npy of the entry (checked against SHA256SUMS) and checks it against the manifest.
// bfloat16 arrives as uint16 bit patterns and bool as uint8; both are relabelled (same width,
// same bits).
HostTensor load_checked(const SealedEntry& entry, const std::string& name, DType want,
                        const std::vector<int64_t>& shape, bool is_output) {
  const std::string path = entry.dir() + "/" + name;
  HostTensor t = decode_npy(entry.read(name), path);
  if (!is_output) {
    if (want == DType::BFloat16 && t.dtype == DType::UInt16) t.dtype = DType::BFloat16;
    if (want == DType::Bool && t.dtype == DType::UInt8) t.dtype = DType::Bool;
    if (t.dtype != want) {
      throw IoError(path + ": dtype " + dtype_name(t.dtype) + ", expected " + dtype_name(want));
    }
  } else {
    DType stored = dtype_is_float(want) ? DType::Float32 : DType::Int32;
    if (t.dtype != stored) {
      throw IoError(path + ": dtype " + dtype_name(t.dtype) + ", expected " + dtype_name(stored));
    }
  }
  if (t.shape != shape) throw IoError(path + ": shape differs from task.json");
  return t;
}

GoldenTrial read_entry(const TaskSpec& task, int trial, const std::string& dir) {
  GoldenTrial g;
  g.trial = trial;
  g.seed = task.trial_seed(trial);
  g.cache_entry = dir;
  SealedEntry entry(dir);
  std::vector<TensorSpec> args = task.kernel_args();
  for (size_t i = 0; i < args.size(); ++i) {
    g.arg_names.push_back(args[i].name);
    g.args.push_back(load_checked(entry, "arg" + std::to_string(i) + ".npy", args[i].dtype,
                                  args[i].shape, false));
  }
  for (size_t j = 0; j < task.outputs.size(); ++j) {
    g.expected.push_back(load_checked(entry, "out" + std::to_string(j) + ".npy",
                                      task.outputs[j].dtype, task.outputs[j].shape, true));
  }
  return g;
}

// Temporary directories left by a killed run (older than an hour, so never a live writer's).
void remove_stale_temporaries(const std::string& root) {
  std::error_code ec;
  auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (p.filename().string().rfind(".tmp-", 0) != 0) continue;
    std::error_code entry_ec;  // a failure on one entry must not end the scan
    auto mtime = fs::last_write_time(p, entry_ec);
    if (!entry_ec && now - mtime > std::chrono::hours(1)) fs::remove_all(p, entry_ec);
  }
}

bool has_meta(const std::string& dir) {
  struct stat st {};
  return ::stat((dir + "/meta.json").c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Moves a damaged or unsealed entry out of the way (an atomic rename, so readers see either the
// old entry or none) and deletes it. Returns "" or why it could not be moved.
std::string discard_entry(const std::string& entry) {
  fs::path p(entry);
  std::string aside = (p.parent_path() / (".tmp-discard-" + p.filename().string().substr(0, 16) + "-" +
                                          std::to_string(::getpid())))
                          .string();
  std::error_code ec;
  fs::remove_all(aside, ec);
  if (::rename(entry.c_str(), aside.c_str()) != 0) {
    if (errno == ENOENT) return "";  // another process discarded it first
    return std::strerror(errno);
  }
  fs::remove_all(aside, ec);
  return "";
}

// Creates `dir` if needed; a directory made here is opened to other users (shared caches).
void create_cache_dir(const std::string& dir) {
  std::error_code ec;
  bool made = fs::create_directories(dir, ec);
  if (ec) throw IoError(dir + ": cannot create cache directory: " + ec.message());
  if (made) make_shared_dir(dir);
}

}  // namespace

std::string golden_cache_root() {
  std::string v = env_or_empty("NKI_CACHE_DIR");
  if (!v.empty()) return v;
  v = env_or_empty("XDG_CACHE_HOME");
  if (!v.empty()) return v + "/nkiagent";
  v = env_or_empty("HOME");
  if (!v.empty()) return v + "/.cache/nkiagent";
  throw IoError("cannot place the golden cache: set NKI_CACHE_DIR (HOME is not set)");
}

std::string golden_script_path() {
  std::string v = env_or_empty("NKI_GOLDEN_SCRIPT");
  if (!v.empty()) return v;
#ifdef NKI_REPO_ROOT
  return std::string(NKI_REPO_ROOT) + "/tools/golden/golden.py";
#else
  return "tools/golden/golden.py";
#endif
}

std::string golden_cache_key(const TaskSpec& task, int trial, const PythonInfo& python) {
  Sha256 h;
  h.update_field("nki-golden-v1");
  h.update_field(read_file(task.dir + "/reference.py"));
  h.update_field(read_file(task.dir + "/task.json"));
  h.update_field(std::to_string(trial));
  h.update_field(std::to_string(task.trial_seed(trial)));
  h.update_field(python.torch_version);
  h.update_field(python.numpy_version);
  h.update_field(read_file(golden_script_path()));
  return h.hex_digest();
}

namespace {

std::string trial_list(const std::vector<int>& trials) {
  std::string s;
  for (int t : trials) s += (s.empty() ? "" : ",") + std::to_string(t);
  return s;
}

// Generates the given trials with one golden.py run (torch is imported once), each into its own
// temporary directory, and publishes every entry with a rename.
void generate_entries(const TaskSpec& task, const std::vector<int>& trials,
                      const std::vector<std::string>& entries, const PythonInfo& python,
                      const GoldenOptions& opts) {
  const std::string root = golden_cache_root() + "/golden";
  create_cache_dir(golden_cache_root());
  create_cache_dir(root);
  remove_stale_temporaries(root);
  std::error_code ec;

  std::vector<std::string> tmps;
  auto cleanup = [&] {
    for (const std::string& t : tmps) fs::remove_all(t, ec);
  };
  std::vector<std::string> argv = {python.path, golden_script_path(), task.dir};
  for (size_t i = 0; i < trials.size(); ++i) {
    std::string name = fs::path(entries[i]).filename().string();
    std::string tmpl = root + "/.tmp-" + name.substr(0, 16) + "-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (!::mkdtemp(buf.data())) {
      int err = errno;
      cleanup();
      throw IoError(root + ": cannot create a temporary directory: " + std::strerror(err));
    }
    tmps.emplace_back(buf.data());
    argv.insert(argv.end(), {"--trial", std::to_string(trials[i]), "--out", tmps.back()});
  }

  ProcessOptions popts;
  popts.timeout_seconds = opts.timeout_seconds;
  popts.env = {"PYTHONDONTWRITEBYTECODE=1", "OMP_NUM_THREADS=1"};
  ProcessResult r = run_process(argv, popts);
  if (!r.ok()) {
    cleanup();
    std::string msg = "golden data for task '" + task.id + "' trial " + trial_list(trials) +
                      " failed (" + python.path + " " + golden_script_path() + ": " +
                      r.describe_failure(opts.timeout_seconds) + ")";
    std::string err = shorten_stderr(r.err, 14);
    if (!err.empty()) msg += ":\n" + err;
    throw IoError(msg);
  }
  for (size_t i = 0; i < trials.size(); ++i) {
    if (!has_meta(tmps[i])) {
      cleanup();
      throw IoError("golden data for task '" + task.id + "': golden.py wrote no meta.json");
    }
    try {
      seal_entry(tmps[i]);
    } catch (const IoError&) {
      cleanup();
      throw;
    }
    // An unsealed directory in the way (written before entries had checksums, or damaged and
    // not yet discarded) would make the rename fail.
    std::string discard_error;
    if (fs::exists(entries[i], ec) && !entry_sealed(entries[i])) discard_error = discard_entry(entries[i]);
    if (::rename(tmps[i].c_str(), entries[i].c_str()) != 0) {
      int err = errno;
      fs::remove_all(tmps[i], ec);
      // Another process published the same entry first: theirs is as good as ours (and is
      // checked on read like any other).
      if (!entry_sealed(entries[i])) {
        cleanup();
        throw IoError(entries[i] + ": cannot publish cache entry: " + std::strerror(err) +
                      (discard_error.empty() ? "" : " (the old entry could not be moved aside: " + discard_error +
                                                        "; delete it by hand)"));
      }
    }
  }
}

}  // namespace

void prefetch_golden(const TaskSpec& task, const std::vector<int>& trials,
                     const PythonInfo& python, const GoldenOptions& opts) {
  std::vector<int> missing;
  std::vector<std::string> entries;
  const std::string root = golden_cache_root() + "/golden";
  for (int t : trials) {
    if (t < 0) throw IoError("trial index must be >= 0");
    std::string entry = root + "/" + golden_cache_key(task, t, python);
    if (!entry_sealed(entry)) {
      missing.push_back(t);
      entries.push_back(entry);
    }
  }
  if (!missing.empty()) generate_entries(task, missing, entries, python, opts);
}

std::string ensure_golden(const TaskSpec& task, int trial, const PythonInfo& python, bool* hit,
                          const GoldenOptions& opts) {
  if (trial < 0) throw IoError("trial index must be >= 0");
  const std::string entry =
      golden_cache_root() + "/golden/" + golden_cache_key(task, trial, python);
  bool present = entry_sealed(entry);
  if (hit) *hit = present;
  if (!present) generate_entries(task, {trial}, {entry}, python, opts);
  return entry;
}

GoldenTrial load_golden(const TaskSpec& task, int trial, const PythonInfo& python,
                        const GoldenOptions& opts) {
  if (trial < 0) throw IoError("trial index must be >= 0");
  const std::string entry =
      golden_cache_root() + "/golden/" + golden_cache_key(task, trial, python);
  std::string damage;  // why the cached entry was not used, when it existed
  if (entry_sealed(entry)) {
    try {
      GoldenTrial g = read_entry(task, trial, entry);
      g.cache_hit = true;
      return g;
    } catch (const IoError& e) {
      damage = e.what();  // a flipped byte, a truncated or deleted file: never trusted
    }
  } else if (fs::exists(entry)) {
    damage = entry + ": no " + std::string(kEntryChecksumFile) + " (written by an older nkiagent, or damaged)";
  }
  if (!damage.empty()) {
    std::string why = discard_entry(entry);
    if (!why.empty())  // e.g. another user's entry under a sticky shared directory
      throw IoError("golden cache entry for task '" + task.id + "' trial " + std::to_string(trial) +
                    " is damaged (" + damage + ") and cannot be moved aside to regenerate it (" + why +
                    "); delete " + entry + " or set NKI_CACHE_DIR to another cache");
  }
  try {
    generate_entries(task, {trial}, {entry}, python, opts);
  } catch (const IoError& e) {
    if (damage.empty()) throw;
    throw IoError("golden cache entry for task '" + task.id + "' trial " + std::to_string(trial) +
                  " is damaged (" + damage + ") and regenerating it failed: " + e.what());
  }
  // Freshly generated data that fails to load is a real problem, not cache damage: no retry.
  GoldenTrial g = read_entry(task, trial, entry);
  g.cache_hit = false;
  return g;
}

GoldenTrial load_golden(const TaskSpec& task, int trial) {
  return load_golden(task, trial, find_torch_python());
}

}  // namespace nki

namespace nki {

int prefetch_golden_batch(const std::vector<GoldenWork>& work, const PythonInfo& python,
                          const GoldenOptions& opts) {
  const std::string root = golden_cache_root() + "/golden";
  std::vector<std::string> entries, tmps;
  std::vector<std::string> argv = {python.path, (fs::path(golden_script_path()).parent_path() / "golden_batch.py").string(),
                                   golden_script_path()};
  std::error_code ec;
  auto cleanup = [&] {
    for (const std::string& t : tmps) fs::remove_all(t, ec);
  };
  bool prepared = false;
  for (const GoldenWork& w : work) {
    for (int t : w.trials) {
      if (t < 0) continue;
      std::string entry = root + "/" + golden_cache_key(*w.task, t, python);
      if (entry_sealed(entry)) continue;
      if (!prepared) {
        create_cache_dir(golden_cache_root());
        create_cache_dir(root);
        remove_stale_temporaries(root);
        prepared = true;
      }
      std::string tmpl = root + "/.tmp-" + fs::path(entry).filename().string().substr(0, 16) + "-XXXXXX";
      std::vector<char> buf(tmpl.begin(), tmpl.end());
      buf.push_back('\0');
      if (!::mkdtemp(buf.data())) {
        int err = errno;
        cleanup();
        throw IoError(root + ": cannot create a temporary directory: " + std::strerror(err));
      }
      tmps.emplace_back(buf.data());
      entries.push_back(entry);
      argv.insert(argv.end(), {w.task->dir, std::to_string(t), tmps.back()});
    }
  }
  if (entries.empty()) return 0;
  ProcessOptions popts;
  popts.timeout_seconds = opts.timeout_seconds * static_cast<double>(entries.size());
  popts.env = {"PYTHONDONTWRITEBYTECODE=1", "OMP_NUM_THREADS=1"};
  run_process(argv, popts);  // a failing item only leaves its directory without meta.json
  int published = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!has_meta(tmps[i])) continue;
    try {
      seal_entry(tmps[i]);
    } catch (const IoError&) {
      continue;
    }
    if (fs::exists(entries[i], ec) && !entry_sealed(entries[i])) discard_entry(entries[i]);
    if (::rename(tmps[i].c_str(), entries[i].c_str()) == 0) ++published;
  }
  cleanup();  // what is left: failed items, and entries another process published first
  return published;
}

}  // namespace nki
