#include "cli/common.h"

#include <iostream>

#include "agent/prompts.h"
#include "cli/numbers.h"
#include "task/task_spec.h"

namespace nki::cli {

namespace {

// The simulator runs one instance per grid point; more than this is never a real kernel launch
// and would only make the process run out of memory.
constexpr int64_t kMaxGridInstances = 65536;

std::vector<int64_t> parse_grid(const std::string& text) {
  std::vector<int64_t> grid;
  int64_t total = 1;
  std::string cur;
  for (char c : text + ",") {
    if (c != ',' && c != 'x') {
      cur += c;
      continue;
    }
    auto v = to_integer(cur);
    if (!v || *v <= 0 || cur[0] == '+') throw UsageError("--grid expects positive integers like 2,2, got '" + text + "'");
    // Checked before multiplying, so the product cannot overflow.
    if (*v > kMaxGridInstances / total) throw UsageError("--grid has more than 65536 instances");
    total *= *v;
    grid.push_back(*v);
    cur.clear();
  }
  return grid;
}

}  // namespace

void add_named_arg(front::TraceOptions& t, front::NamedArg a, const std::string& option) {
  for (const front::NamedArg& b : t.named_args)
    if (b.name == a.name) throw UsageError(option + " " + a.name + "=... is given twice");
  t.named_args.push_back(std::move(a));
}

OptionSpec kernel_option() {
  OptionSpec o = text_option("kernel", "NAME", "kernel function");
  o.default_help = "the only @nki.jit function in the file";
  return o;
}

OptionSpec arg_option() {
  OptionSpec o = text_option("arg", "[NAME=]SHAPE:DTYPE",
                             "a kernel parameter: shape and dtype of a tensor, in parameter order\n"
                             "(e.g. 128x512:float32), or by name after those: NAME=SHAPE:DTYPE\n"
                             "for a tensor, NAME=LITERAL for a compile-time value (eps=1e-6)");
  o.repeatable = true;
  return o;
}

OptionSpec grid_option() {
  return text_option("grid", "D0[,D1...]", "SPMD launch grid, e.g. 2,2 (at most 65536 instances)");
}

OptionSpec target_option() {
  // Every name of target/target.h (inf2, gen2 and gen3 too); the hint and help name the chips.
  const TargetDesc &v2 = describe(Target::Trn1), &v3 = describe(Target::Trn2);
  return choice_option("target", chip_targets_hint(), std::vector<std::string>(target_names().begin(), target_names().end()),
                       std::string(v2.neuron_core) + " (" + v2.name + ") or " + v3.neuron_core + " (" + v3.name + ")",
                       v2.name);
}

std::string chip_targets_hint() { return std::string(target_name(Target::Trn1)) + "|" + target_name(Target::Trn2); }

OptionSpec nki_option() {
  // docs/nki-current.md: 2.24 is the legacy neuronxcc.nki dialect, 0.2 .. 0.6 the current `nki` one.
  OptionSpec o = choice_option("nki", "2.24|0.2|0.3|0.4|0.5|0.6", {"2.24", "0.2", "0.3", "0.4", "0.5", "0.6"},
                               "NKI dialect version the kernel is read as");
  o.default_help = "detected from the imports (neuronxcc.nki: 2.24, nki: 0.6)";
  return o;
}

OptionSpec episode_nki_option() {
  // Only the versions with a prompt set (agent/prompts.h): the primer teaches one dialect.
  return choice_option("nki", "2.24|0.6", {agent::kLegacyNki, agent::kCurrentNki},
                       "NKI dialect of the episode: the primer the model reads, the\n"
                       "dialect every kernel is checked in, and (optimize) the starting\n"
                       "solutions (solutions/ or solutions_nki06/)",
                       agent::kLegacyNki);
}

OptionSpec const_option() {
  OptionSpec o = text_option("const", "NAME=LITERAL", "bind a compile-time keyword argument (Python literal)");
  o.repeatable = true;
  return o;
}

std::vector<OptionSpec> sim_budget_options() {
  const machine::RunOptions d;
  return {
      // Real, not Integer: the budget goes beyond what an int option holds (2^36 by default).
      real_option("sim-work", "UNITS", 1, 1e15,
                  "simulated-work budget: loop iterations plus elements processed\n"
                  "(over it: error[sim_budget], checked before and while running)",
                  std::to_string(d.max_work)),
      real_option("sim-seconds", "S", 0.001, 86400, "simulation wall-clock budget (over it: error[sim_budget])",
                  std::to_string(static_cast<int64_t>(d.max_seconds))),
      integer_option("sim-memory", "MIB", 1, 1 << 20,
                     "simulator memory for tensors and scratch, in MiB (over it: error[sim_memory_limit])",
                     std::to_string(d.max_bytes >> 20)),
  };
}

void apply_sim_budget(const ParsedOptions& o, machine::RunOptions& m) {
  if (auto v = o.real("sim-work")) m.max_work = static_cast<int64_t>(*v);
  if (auto v = o.real("sim-seconds")) m.max_seconds = *v;
  if (auto v = o.integer("sim-memory")) m.max_bytes = *v << 20;
}

OptionSpec numerics_option() {
  return choice_option("numerics", "precise|legacy-sim", {"precise", "legacy-sim", "legacy"},
                       "precise: narrow dtypes stored at their real width;\n"
                       "legacy-sim: bf16/fp8 kept in fp32 like nki.simulate_kernel",
                       "precise");
}

OptionSpec trials_option() {
  OptionSpec o = integer_option("trials", "N", 1, 1000, "number of random trials per task");
  o.default_help = "the task's";
  return o;
}

OptionSpec tasks_dir_option() {
  OptionSpec o = text_option("tasks-dir", "DIR", "benchmark task directory");
  o.default_help = "$NKI_TASKS_DIR, else the repository's tasks/";
  return o;
}

nki::Target target_from(const ParsedOptions& o) {
  return parse_target(o.text("target")).value_or(Target::Trn1);
}

machine::Numerics numerics_from(const ParsedOptions& o) {
  return o.text("numerics") == "precise" ? machine::Numerics::Precise : machine::Numerics::LegacySim;
}

std::string tasks_root_from(const ParsedOptions& o) {
  return o.has("tasks-dir") ? o.text("tasks-dir") : default_tasks_root();
}

front::TraceOptions trace_options(const ParsedOptions& o) {
  front::TraceOptions t;
  t.kernel_name = o.text("kernel");
  if (o.spec().find("arg")) {
    for (const std::string& s : o.all("arg")) {
      std::string err;
      if (auto named = front::parse_named_arg(s, &err)) {
        if (named->name.empty()) throw UsageError("--arg " + err);
        add_named_arg(t, std::move(*named), "--arg");
        continue;
      }
      // As in a Python call, positional values come first.
      if (!t.named_args.empty())
        throw UsageError("--arg " + s + " after --arg " + t.named_args.back().name +
                         "=...: give the positional --arg values first, then the NAME=VALUE ones");
      auto spec = front::parse_arg_spec(s, &err);
      if (!spec) throw UsageError("--arg " + err);
      t.args.push_back(*spec);
    }
  }
  if (o.has("grid")) t.grid = parse_grid(o.text("grid"));
  t.target = target_from(o);
  if (o.spec().find("nki") && o.has("nki")) t.dialect = o.text("nki");
  for (const std::string& c : o.all("const")) {
    auto eq = c.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError("--const expects NAME=LITERAL, got '" + c + "'");
    t.consts.emplace_back(c.substr(0, eq), c.substr(eq + 1));
  }
  return t;
}

const std::string& single_file_positional(const ParsedOptions& o) {
  if (o.positionals().size() != 1) throw UsageError(o.spec().name + " takes exactly one kernel file");
  return o.positionals()[0];
}

void print_diagnostics(const std::vector<Diagnostic>& diags) {
  for (const Diagnostic& d : diags) std::cerr << render_text(d);
}

}  // namespace nki::cli
