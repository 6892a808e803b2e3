#include "fuzz/cli/malformed_values.h"

#include <cmath>
#include <set>

namespace nki::cli::fuzz {

namespace {

using Values = std::vector<std::string>;

// Options that name files or directories nkiagent writes. The fuzzer runs as whatever user
// starts it (often root), so these only ever point inside the scratch directory or at special
// files that cannot be written, and never at a scratch file other runs read: a report written
// over the shared input array once made every later `run` fail.
const std::set<std::string> kOutputOptions = {"out-dir", "run-dir", "out", "md", "json"};

std::string pick(const Values& v, std::mt19937_64& rng) {
  return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
}

std::string number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 9e18) return std::to_string(static_cast<int64_t>(v));
  return std::to_string(v);
}

// Numbers that every checked parser must refuse, whatever the range.
const Values kJunkNumbers = {"abc", "", " ", "3abc", "1 ", " 1", "1.", ".5e", "0x10", "1e999", "-1e999", "nan",
                             "inf", "-inf", "NaN", "--1", "+-1", "1,5", "١", "99999999999999999999",
                             "-99999999999999999999", "9223372036854775808", "4294967296", "2147483648"};

Values numeric_values(const OptionSpec& o) {
  Values v = kJunkNumbers;
  v.push_back(number(o.min - 1));
  v.push_back(number(o.min - 0.5));
  v.push_back(number(o.max + 1));
  v.push_back(number(o.max * 10 + 1));
  if (o.type == ValueType::Integer) {
    v.push_back("1.5");
    v.push_back("1e2");
  }
  if (o.type == ValueType::Real) v.push_back(number(o.min / 2));  // 0.0005 for a timeout
  return v;
}

// Small valid values only: a valid maximum (1000 trials, 1024 jobs) would make a run take
// hours and fill the golden cache.
Values valid_numeric_values(const OptionSpec& o) {
  if (o.type == ValueType::Integer) return {number(o.min), number(o.min + 1), "+" + number(o.min)};
  return {number(o.min), "0.5", "1", "1e-3"};
}

Values output_paths(const ScratchPaths& p) {
  return {"", p.dir + "/out", p.dir + "/out/deeper/still", p.overwritable, p.text_file + "/below",
          p.overwritable + "/below", "/dev/null", "/dev/full", "/proc/version", p.dir, "relative_out", "-", "--json"};
}

Values input_paths(const ScratchPaths& p) {
  return {"", p.dir, p.dir + "/missing", p.empty_file, p.text_file, p.corrupt_npy, p.npy, p.kernel, "/dev/null",
          "/proc/self/status", "/", "..", "../../..", std::string(4096, 'a'), "-", "--", "a b", "ünïcödé", "~"};
}

// Values for options whose text has a grammar the command parses itself.
Values grammar_values(const std::string& name, const ScratchPaths& p) {
  if (name == "arg")
    return {"256x1024:float32", "256x1024", "0x4:float32", "-1x4:float32", "4x:float32", "x4", ":float32",
            "4x4:bogus", "4x4:", "99999999999x99999999999:float32", "999999999999999x2:float32",
            "1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1:float32", "128x512:bfloat16", "4*4:int8", "4,4:bool", "4x4:float32:x"};
  if (name == "kernel")  // the scratch kernel's function is add_kernel
    return {"add_kernel", "add_kernel", "", "missing_kernel", "add_kernel ", "np", "nl", "__name__", "0",
            std::string(300, 'k')};
  if (name == "grid")
    return {"2,2", "0", "-1", "2x", ",", "65537", "256,257", "99999999999", "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1",
            "4294967296,4294967296,4294967296", "+2", "2 2", "a"};
  if (name == "const")
    return {"n=3", "=3", "n=", "n", "n=(1,", "n=[1,2]", "n=__import__('os')", "n=1e999", "n=" + std::string(2000, '('),
            "n='unterminated", "n=None", "x=y=z", "n=99999999999999999999999999"};
  if (name == "input")
    return {p.npy, p.npy + ":bfloat16", p.npy + ":bogus", p.npy + ":", ":float32", p.dir, p.dir + ":float32",
            p.corrupt_npy, p.empty_file, p.kernel, "/dev/null", p.dir + "/missing.npy"};
  if (name == "shard")
    return {"0/1", "1/1", "0/0", "-1/2", "1/", "/2", "a/b", "0/99999999999", "99999999999/2", "0/2/3", "0:2", ""};
  if (name == "model")
    return {"", "openai", "openai:", ":x", "mistral:large", "openai:gpt-4o", "anthropic:claude-x", "scripted:oracle",
            "a:b:c"};
  if (name == "base-url")  // loopback only: the fuzzer never reaches the network
    return {"", "http://127.0.0.1:1", "http://127.0.0.1:1/v1", "not a url", "ftp://127.0.0.1:1", "http://[::1]:1",
            "http://"};
  if (name == "task")
    return {"", "l1_add_fp32", "missing_task", "../tasks/l1_add_fp32", p.dir, p.dir + "/tasks/l1_add_fp32", "/",
            "l1_add_fp32/", std::string(300, 't')};
  if (name == "subset")
    return {"", "fuzz", "missing", "../subsets/fuzz", "/etc/hostname", std::string(300, 's'), "fuzz.txt"};
  if (name == "tasks-dir" || name == "solutions-dir" || name == "replay-dir" || name == "prompts")
    return {"", p.dir, p.dir + "/tasks", p.dir + "/replays", p.dir + "/missing", p.text_file, p.empty_file, "/dev/null"};
  return {};
}

}  // namespace

std::vector<std::string> fixed_bad_values(const OptionSpec& o, const ScratchPaths& p) {
  switch (o.type) {
    case ValueType::Flag:
      return {};  // flags take no value; the fuzzer gives them one with --name=VALUE instead
    case ValueType::Choice:
      return {"", "bogus", o.choices.empty() ? "x" : o.choices.front() + "x", "TRN1"};
    case ValueType::Integer:
    case ValueType::Real:
      return {"abc", "", "3abc", "99999999999999999999", "1e999", "nan", number(o.min - 1),
              number(o.max + 1)};
    case ValueType::Text:
      break;
  }
  if (kOutputOptions.count(o.name)) return {"", p.overwritable + "/below", "/dev/full", p.dir};
  Values g = grammar_values(o.name, p);
  if (!g.empty()) {
    // The malformed half of the grammar values is enough for the sweep.
    return {g.begin() + static_cast<long>(g.size() / 2), g.end()};
  }
  return {"", p.dir, p.dir + "/missing", p.corrupt_npy};
}

std::string random_value(const OptionSpec& o, const ScratchPaths& p, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> percent(0, 99);
  switch (o.type) {
    case ValueType::Flag:
      return pick({"", "1", "yes", "false"}, rng);
    case ValueType::Choice: {
      if (percent(rng) < 30) return pick(o.choices, rng);
      return pick({"", "bogus", o.choices.front() + " ", " " + o.choices.front(), "TRN1", "Precise", "agent,agent",
                   std::string(1000, 'x')}, rng);
    }
    case ValueType::Integer:
    case ValueType::Real:
      return percent(rng) < 25 ? pick(valid_numeric_values(o), rng) : pick(numeric_values(o), rng);
    case ValueType::Text:
      break;
  }
  if (kOutputOptions.count(o.name)) return pick(output_paths(p), rng);
  Values g = grammar_values(o.name, p);
  if (!g.empty() && percent(rng) < 80) return pick(g, rng);
  return pick(input_paths(p), rng);
}

}  // namespace nki::cli::fuzz
