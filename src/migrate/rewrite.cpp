// The rewrite driver: imports, destination-passing ISA calls and renamed keywords; index and
// mask rules are in index_rules.cpp. Doc references are to aws-neuron-sdk nki/migration/index.rst.
#include "migrate/rewrite.h"

#include <algorithm>
#include <set>

#include "base/diagnostic.h"
#include "lang/parser.h"
#include "migrate/rewrite_context.h"

namespace nki::migrate {

namespace {

using namespace py;

// 2.24 ISA calls with a 0.6 destination-passing counterpart of the same name whose parameters
// after `dst` keep the 2.24 order ("All ISA functions require a destination parameter").
const std::set<std::string> kDstPassing = {
    "activation", "activation_reduce", "bn_aggr", "bn_stats", "max8", "nc_find_index8", "nc_matmul", "nc_transpose",
    "reciprocal", "scalar_tensor_tensor", "tensor_copy", "tensor_reduce", "tensor_scalar", "tensor_tensor",
    "tensor_tensor_scan", "tensor_partition_reduce", "dropout", "iota", "affine_select"};

// NumPy operators of 2.24 examples (np.max in tensor_reduce) and their nki.language spelling.
const std::map<std::string, std::string> kNumpyOps = {{"np.max", "nl.maximum"}, {"np.min", "nl.minimum"},
                                                      {"np.add", "nl.add"},     {"np.sum", "nl.add"},
                                                      {"np.multiply", "nl.multiply"}, {"np.subtract", "nl.subtract"},
                                                      {"np.maximum", "nl.maximum"}, {"np.minimum", "nl.minimum"}};

// nl keywords renamed in the 0.6 signatures (nki/api/nki/language/__init__.py at HEAD).
const std::map<std::string, std::map<std::string, std::string>> kNlKeywords = {
    {"nl.copy", {{"src", "x"}}},          {"nl.broadcast_to", {{"src", "x"}}}, {"nl.zeros_like", {{"a", "x"}}},
    {"nl.empty_like", {{"a", "x"}}},      {"nl.expand_dims", {{"data", "x"}}},
    {"nl.device_print", {{"prefix", "print_prefix"}, {"x", "tensor"}}}};

std::string isa_op(const Call* call) {
  std::string fn = dotted_name(call->func.get());
  return fn.rfind("nisa.", 0) == 0 ? fn.substr(5) : "";
}

std::string shape_text(const std::vector<int64_t>& s) {
  std::string t = "(";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + (s.size() == 1 ? ",)" : ")");
}

class StmtRewriter {
 public:
  StmtRewriter(Ctx& c, const Stmt* s, std::set<std::string>& names) : c_(c), s_(s), names_(names) {
    indent_ = c.src.indent_of(s->span.begin.line);
  }

  void run() {
    std::vector<const Call*> calls;
    bool in_scope = false;
    for_each_stmt_expr(s_, [&](const Expr* root) {
      collect(root, false, calls, in_scope);
    });
    if (calls.empty()) return;
    if (in_scope) {
      c_.refuse(*s_, "isa_dst", "a nisa call inside a lambda or comprehension: hoist it into a statement first");
      return;
    }
    if (static_cast<size_t>(s_->span.begin.col) != indent_.size() + 1) {
      c_.refuse(*s_, "isa_dst", "a nisa call in a statement that does not start its line");
      return;
    }
    for (const Call* k : calls) {
      std::string op = isa_op(k);
      occurrence_[k] = seen_[op]++;
    }
    for (const Call* k : calls) {
      std::string op = isa_op(k);
      if (!kDstPassing.count(op)) {
        c_.refuse(*k, "isa_dst", "no rewrite rule for nisa." + op + " (" + no_rule_reason(op) + ")");
        return;
      }
    }
    std::string body;
    const Call* top = nullptr;
    const Expr* target = nullptr;
    bool aug = false;
    if (auto* a = as<Assign>(s_); a && a->targets.size() == 1 && as<Call>(a->value.get()) &&
                                  !isa_op(as<Call>(a->value.get())).empty()) {
      top = as<Call>(a->value.get());
      target = a->targets[0].get();
    } else if (auto* g = as<AugAssign>(s_); g && as<Call>(g->value.get()) && !isa_op(as<Call>(g->value.get())).empty()) {
      top = as<Call>(g->value.get());
      target = g->target.get();
      aug = true;
      if (g->op != Operator::Add || isa_op(top) != "nc_matmul") {
        c_.refuse(*s_, "isa_dst", "an augmented assignment of nisa." + isa_op(top) +
                                      " (only `psum += nisa.nc_matmul(...)` maps to accumulate=True)");
        return;
      }
    }
    bool ok = true;
    if (top && !aug && as<Name>(target)) {
      // x = nisa.op(...): allocate x, then write into it. When the call reads x itself
      // (acc = nisa.op(..., operand1=acc)), the result goes to a new tile that x names after
      // the call: allocating x first would make the call read the new, unwritten tile.
      std::string name = c_.text(*target);
      bool reads_target = false;
      for_each_child(top, [&](const Expr* arg) {
        for_each_expr(arg, [&](const Expr* x) {
          if (auto* n = as<Name>(x); n && n->id == name) reads_target = true;
        });
      });
      std::string dst = reads_target ? fresh(isa_op(top)) : name;
      std::string call_text = dp_call(top, dst, "", ok);
      std::string alloc = allocation(top, ok);
      if (!ok) return;
      body = prelude_ + indent_ + dst + " = " + alloc + "\n" + indent_ + call_text;
      if (reads_target) body += "\n" + indent_ + name + " = " + dst;
    } else if (top) {
      std::string extra;
      if (isa_op(top) == "nc_matmul") extra = aug ? "accumulate=True" : "accumulate=False";
      size_t tb = c_.begin(*target), te = c_.end(*target);
      std::string dst = render_hoisting(tb, te, ok);
      std::string call_text = dp_call(top, dst, extra, ok);
      if (!ok) return;
      body = prelude_ + indent_ + call_text;
    } else {
      std::string rest = render_hoisting(c_.begin(*s_), c_.end(*s_), ok);
      if (!ok) return;
      auto* es = as<ExprStmt>(s_);
      if (es && as<Call>(es->value.get()) && !isa_op(as<Call>(es->value.get())).empty())
        body = prelude_.substr(0, prelude_.size() - 1);  // a bare call: its result was discarded
      else
        body = prelude_ + indent_ + rest;
    }
    size_t b = c_.src.line_begin(s_->span.begin.line);
    if (!c_.src.replace_range(b, c_.end(*s_), body)) {
      c_.refuse(*s_, "isa_dst", "overlapping rewrites");
      return;
    }
    for (const Call* k : calls)
      c_.applied(*k, "isa_dst", "nisa." + isa_op(k) + " now writes into its destination (first argument)");
  }

 private:
  static std::string no_rule_reason(const std::string& op) {
    if (op == "affine_select")
      return "the 0.6 form takes an access pattern instead of a predicate expression; rewrite it with nisa.iota "
             "and a select by hand";
    if (op == "memset") return "2.24 memset(shape, value, dtype) allocates; 0.6 memset(dst, value) fills";
    return "not a mechanical case";
  }

  // Post-order: nested calls before the calls that use their results (evaluation order).
  void collect(const Expr* e, bool scoped, std::vector<const Call*>& out, bool& in_scope) {
    bool sc = scoped || as<Lambda>(e) || as<ListComp>(e) || as<SetComp>(e) || as<DictComp>(e) || as<GeneratorExp>(e);
    for_each_child(e, [&](const Expr* x) { collect(x, sc, out, in_scope); });
    if (auto* k = as<Call>(e)) {
      std::string op = isa_op(k);
      if (!op.empty() && op != "dma_copy" && op.find('.') == std::string::npos) {
        if (sc) in_scope = true;
        out.push_back(k);
      }
    }
  }

  std::string fresh(const std::string& op, const char* suffix = "_out") {
    std::string base = op + suffix;
    std::string n = base;
    for (int i = 2; names_.count(n); ++i) n = base + std::to_string(i);
    names_.insert(n);
    return n;
  }

  // The original text of [b, e) with its edits, every outermost nisa call in it replaced by a
  // temporary whose allocation and call go into the prelude.
  std::string render_hoisting(size_t b, size_t e, bool& ok) {
    std::vector<const Call*> inner;
    for (auto& [k, occ] : occurrence_) {
      (void)occ;
      size_t kb = c_.begin(*k), ke = c_.end(*k);
      if (kb >= b && ke <= e && !(kb == b && ke == e && false)) inner.push_back(k);
    }
    // Keep the outermost ones.
    std::vector<const Call*> outer;
    for (const Call* k : inner) {
      bool nested = false;
      for (const Call* o : inner)
        if (o != k && c_.begin(*o) <= c_.begin(*k) && c_.end(*o) >= c_.end(*k)) nested = true;
      if (!nested) outer.push_back(k);
    }
    std::sort(outer.begin(), outer.end(), [&](const Call* x, const Call* y) { return c_.begin(*x) < c_.begin(*y); });
    std::string out;
    size_t pos = b;
    for (const Call* k : outer) {
      out += c_.src.render(pos, c_.begin(*k));
      out += temporary(k, ok);
      pos = c_.end(*k);
    }
    out += c_.src.render(pos, e);
    return out;
  }

  std::string temporary(const Call* k, bool& ok) {
    std::string name = fresh(isa_op(k));
    std::string call_text = dp_call(k, name, "", ok);
    std::string alloc = allocation(k, ok);
    prelude_ += indent_ + name + " = " + alloc + "\n" + indent_ + call_text + "\n";
    hoisted_[k] = name;
    return name;
  }

  const keyword* find_kw(const Call* k, const char* name) {
    for (const keyword& kw : k->keywords)
      if (kw.arg_name == name) return &kw;
    return nullptr;
  }

  // nl.ndarray(shape, dtype=..., buffer=...) for the tile the legacy call returned.
  std::string allocation(const Call* k, bool& ok) {
    std::string op = isa_op(k);
    auto it = c_.facts.find({s_->span.begin.line, "nisa." + op});
    int per_exec = seen_[op];
    size_t occ = static_cast<size_t>(occurrence_[k]);
    if (it == c_.facts.end() && k->span.begin.line != s_->span.begin.line) {
      // A statement over several lines: the trace may tag the call with its own line; the calls
      // of this op starting on that line are then the ones counted.
      it = c_.facts.find({k->span.begin.line, "nisa." + op});
      per_exec = 0;
      occ = 0;
      for (auto& [other, n] : occurrence_)
        if (isa_op(other) == op && other->span.begin.line == k->span.begin.line) {
          ++per_exec;
          if (n < occurrence_[k]) ++occ;
        }
    }
    if (it == c_.facts.end() || it->second.empty() || it->second.size() % static_cast<size_t>(per_exec) != 0) {
      c_.refuse(*k, "isa_dst", "the legacy trace has no tile for this nisa." + op +
                                   " call (not reached with these inputs), so its dst cannot be allocated");
      ok = false;
      return "";
    }
    const TileFact& f = it->second[occ];
    std::string symbolic = same_shape_operand(k);
    if (symbolic.empty()) symbolic = partition_following_shape(k, it->second, occ, static_cast<size_t>(per_exec));
    bool dtype_given = find_kw(k, "dtype") != nullptr;
    // 2.24 picked nc_transpose's engine by tile size, so its result was in SBUF (Vector Engine)
    // for some executions and PSUM (Tensor Engine) for others. PSUM serves both: the Tensor
    // Engine must write there and the Vector Engine may (isa nc_transpose at HEAD, "Memory types").
    bool psum_serves_all = false;
    if (op == "nc_transpose")
      for (size_t j = occ; j < it->second.size(); j += static_cast<size_t>(per_exec))
        psum_serves_all = psum_serves_all || it->second[j].buffer != f.buffer;
    for (size_t j = occ; j < it->second.size(); j += static_cast<size_t>(per_exec)) {
      const char* differs = symbolic.empty() && it->second[j].shape != f.shape ? "shapes"
                            : !dtype_given && it->second[j].dtype != f.dtype   ? "dtypes"
                            : it->second[j].buffer != f.buffer && !psum_serves_all ? "buffers"
                                                                               : nullptr;
      if (differs) {
        c_.refuse(*k, "isa_dst", "nisa." + op + " returned tiles of different " + differs + " across the trace");
        ok = false;
        return "";
      }
    }
    std::string dtype;
    if (const keyword* d = find_kw(k, "dtype")) dtype = c_.src.render(c_.begin(*d->value), c_.end(*d->value));
    else dtype = std::string("nl.") + dtype_name(f.dtype);
    std::string buffer = f.buffer == ir::Buffer::Psum || psum_serves_all ? "nl.psum" : "nl.sbuf";
    std::string shape = shape_text(f.shape);
    if (!symbolic.empty()) shape = symbolic[0] == '\x01' ? symbolic.substr(1) : symbolic + ".shape";
    auto masked = c_.masked_partitions.find(s_);
    if (masked != c_.masked_partitions.end() && !f.shape.empty()) {
      // The masked legacy call wrote only the rows its mask kept; its inputs are cut to them now.
      shape = "(" + masked->second;
      for (size_t d = 1; d < f.shape.size(); ++d) shape += ", " + std::to_string(f.shape[d]);
      shape += f.shape.size() == 1 ? ",)" : ")";
    }
    return "nl.ndarray(" + shape + ", dtype=" + dtype + ", buffer=" + buffer + ")";
  }

  // The text of operand `kw` (or positional `pos`) of `k` when evaluating it again has no effect:
  // a name, a view of a name, or a nested nisa call hoisted into a temporary (its name); "".
  std::string reusable_operand(const Call* k, const char* kw, size_t pos) {
    const Expr* e = nullptr;
    if (const keyword* w = find_kw(k, kw)) e = w->value.get();
    else if (k->args.size() > pos) e = k->args[pos].get();
    if (!e) return "";
    if (auto* call = as<Call>(e)) {
      auto h = hoisted_.find(call);
      if (h != hoisted_.end()) return h->second;
      auto sub = substituted_.find(e);
      return sub == substituted_.end() ? "" : sub->second;
    }
    const Expr* b = e;
    if (auto* sub = as<Subscript>(b)) b = sub->value.get();
    if (!as<Name>(b)) return "";
    return c_.src.render(c_.begin(*e), c_.end(*e));
  }

  // Element-wise ops return a tile of their data operand's shape. Allocating `data.shape` keeps
  // the kernel shape-generic and follows operands that a mask cut short. Only for operands
  // that can be evaluated again (re-evaluating a call would emit its instruction twice).
  std::string same_shape_operand(const Call* k) {
    static const std::map<std::string, std::pair<const char*, size_t>> kData = {
        {"activation", {"data", 1}}, {"tensor_scalar", {"data", 0}}, {"tensor_tensor", {"data1", 0}},
        {"reciprocal", {"data", 0}}, {"tensor_copy", {"src", 0}}, {"scalar_tensor_tensor", {"data", 0}},
        {"tensor_tensor_scan", {"data0", 0}}, {"affine_select", {"on_true_tile", 1}}};
    std::string op = isa_op(k);
    // nc_matmul: stationary [K, M] x moving [K, N] -> [M, N]; nc_transpose: [P, F] -> [F, P].
    if (op == "nc_matmul" && !find_kw(k, "is_transpose") && k->args.size() <= 2) {
      std::string st = reusable_operand(k, "stationary", 0), mv = reusable_operand(k, "moving", 1);
      if (st.empty() || mv.empty()) return "";
      return "\x01(" + st + ".shape[1], " + mv + ".shape[1])";
    }
    if (op == "nc_transpose") {
      std::string d = reusable_operand(k, "data", 0);
      if (d.empty()) return "";
      return "\x01(" + d + ".shape[1], " + d + ".shape[0])";
    }
    auto it = kData.find(op);
    if (it == kData.end()) return "";
    return reusable_operand(k, it->second.first, it->second.second);
  }

  // Reductions over free axes and the batch-norm statistics keep their data operand's
  // partitions: when only dim 0 of the traced tiles changes between executions (a tail tile),
  // dim 0 is `data.shape[0]` and the other dims are the trace's.
  std::string partition_following_shape(const Call* k, const std::vector<TileFact>& facts, size_t occ, size_t per_exec) {
    static const std::map<std::string, std::pair<const char*, size_t>> kKeepsPartitions = {
        {"tensor_reduce", {"data", 1}}, {"bn_stats", {"data", 0}}, {"bn_aggr", {"data", 0}},
        {"activation_reduce", {"data", 1}}, {"max8", {"src", 0}}, {"nc_find_index8", {"data", 0}}};
    auto it = kKeepsPartitions.find(isa_op(k));
    if (it == kKeepsPartitions.end()) return "";
    const std::vector<int64_t>& first = facts[occ].shape;
    if (first.empty()) return "";
    for (size_t j = occ; j < facts.size(); j += per_exec) {
      const std::vector<int64_t>& s = facts[j].shape;
      if (s.size() != first.size() || !std::equal(s.begin() + 1, s.end(), first.begin() + 1)) return "";
    }
    std::string data = reusable_operand(k, it->second.first, it->second.second);
    if (data.empty()) return "";
    std::string shape = "\x01(" + data + ".shape[0]";
    for (size_t d = 1; d < first.size(); ++d) shape += ", " + std::to_string(first[d]);
    return shape + (first.size() == 1 ? ",)" : ")");
  }

  // nisa.op(dst, <2.24 arguments without dtype/mask>, extra).
  std::string dp_call(const Call* k, const std::string& dst, const std::string& extra, bool& ok) {
    std::string op = isa_op(k);
    hoist_varying_data(k, ok);
    std::vector<std::string> parts = {dst};
    if (op == "iota") {
      if (k->args.empty()) {
        c_.refuse(*k, "isa_dst", "nisa.iota without an index expression");
        ok = false;
        return "";
      }
      std::string pattern, offset, mult;
      if (!iota_arguments(c_, k->args[0].get(), pattern, offset, mult)) {
        ok = false;
        return "";
      }
      parts.push_back(pattern);
      parts.push_back("offset=" + offset);
      parts.push_back("channel_multiplier=" + mult);
      return "nisa.iota(" + join(parts) + ")";
    }
    if (op == "affine_select") return affine_select_call(k, dst, ok);
    if (op == "nc_matmul" && k->args.size() > 5) {
      c_.refuse(*k, "isa_dst", "nisa.nc_matmul with more than five positional arguments (0.6 inserts accumulate)");
      ok = false;
      return "";
    }
    std::vector<std::pair<size_t, std::string>> items;
    for (const ExprPtr& a : k->args) items.emplace_back(c_.begin(*a), arg_text(a.get(), ok));
    for (const keyword& kw : k->keywords) {
      if (kw.arg_name == "dtype" || kw.arg_name == "mask") continue;
      if (kw.is_double_star) {
        c_.refuse(kw, "isa_dst", "**kwargs in a nisa call");
        ok = false;
        continue;
      }
      items.emplace_back(c_.begin(kw), kw.arg_name + "=" + arg_text(kw.value.get(), ok));
    }
    std::sort(items.begin(), items.end());
    for (auto& [pos, t] : items) parts.push_back(t);
    if (!extra.empty()) parts.push_back(extra);
    return "nisa." + op + "(" + join(parts) + ")";
  }

  // 2.24 affine_select(pred, on_true_tile, on_false_value) with pred `lhs CMP rhs`, both sides
  // affine in the index arrays -> 0.6 affine_select(dst, pattern, channel_multiplier,
  // on_true_tile, on_false_value, cmp_op=, offset=) comparing lhs - rhs with 0
  // (nki/api/nki/isa/__init__.py at HEAD, affine_select).
  std::string affine_select_call(const Call* k, const std::string& dst, bool& ok) {
    auto operand = [&](const char* kw, size_t pos) -> const Expr* {
      if (const keyword* w = find_kw(k, kw)) return w->value.get();
      return k->args.size() > pos ? k->args[pos].get() : nullptr;
    };
    const Expr* pred = operand("pred", 0);
    const Expr* on_true = operand("on_true_tile", 1);
    const Expr* on_false = operand("on_false_value", 2);
    auto* cmp = as<Compare>(pred);
    static const std::map<CmpOp, std::string> kCmp = {{CmpOp::Eq, "nl.equal"},       {CmpOp::NotEq, "nl.not_equal"},
                                                      {CmpOp::Gt, "nl.greater"},     {CmpOp::GtE, "nl.greater_equal"},
                                                      {CmpOp::Lt, "nl.less"},        {CmpOp::LtE, "nl.less_equal"}};
    if (!cmp || cmp->ops.size() != 1 || !kCmp.count(cmp->ops[0]) || !on_true || !on_false ||
        k->args.size() + k->keywords.size() > 4) {
      c_.refuse(*k, "isa_dst", "nisa.affine_select whose predicate is not one comparison of index expressions");
      ok = false;
      return "";
    }
    std::string pattern, offset, mult;
    if (!affine_select_arguments(c_, cmp->left.get(), cmp->comparators[0].get(), pattern, offset, mult)) {
      ok = false;
      return "";
    }
    std::string on_true_text = arg_text(on_true, ok);
    if (reads_psum(k)) {
      // 2.24 read on_true_tile from PSUM too; 0.6 takes it in SBUF only (isa affine_select at
      // HEAD), so it is copied there first (a same-dtype copy changes no bit).
      std::string operand = reusable_operand(k, "on_true_tile", 1);
      if (operand.empty()) {
        c_.refuse(*k, "isa_dst", "nisa.affine_select on a PSUM tile that is not a name or a view of one (0.6 needs it in SBUF)");
        ok = false;
        return "";
      }
      std::string copy = fresh("on_true", "_sbuf");
      prelude_ += indent_ + copy + " = nl.ndarray(" + operand + ".shape, dtype=" + operand + ".dtype, buffer=nl.sbuf)\n" +
                  indent_ + "nisa.tensor_copy(" + copy + ", " + operand + ")\n";
      on_true_text = copy;
    }
    std::vector<std::string> parts = {dst, pattern, mult, on_true_text, arg_text(on_false, ok),
                                      "cmp_op=" + kCmp.at(cmp->ops[0]), "offset=" + offset};
    return "nisa.affine_select(" + join(parts) + ")";
  }

  // Whether the legacy trace saw this call read a PSUM tile (in any execution).
  bool reads_psum(const Call* k) const {
    std::string api = "nisa." + isa_op(k);
    for (int line : {s_->span.begin.line, k->span.begin.line}) {
      auto it = c_.facts.find({line, api});
      if (it != c_.facts.end())
        for (const TileFact& f : it->second)
          if (f.reads_psum) return true;
    }
    return false;
  }

  // An element-wise call whose traced tiles change shape between executions allocates its
  // data operand's shape; when that operand is an expression (nisa.reciprocal(nl.add(a, b))),
  // it is first bound to a temporary `op_data` so that its shape can be named without
  // evaluating it twice. Only when nothing before it in the call has a call of its own, so the
  // order of evaluation stays the same.
  void hoist_varying_data(const Call* k, bool& ok) {
    static const std::map<std::string, std::pair<const char*, size_t>> kData = {
        {"activation", {"data", 1}}, {"tensor_scalar", {"data", 0}}, {"tensor_tensor", {"data1", 0}},
        {"reciprocal", {"data", 0}}, {"tensor_copy", {"src", 0}}, {"scalar_tensor_tensor", {"data", 0}},
        {"tensor_tensor_scan", {"data0", 0}}, {"tensor_reduce", {"data", 1}}, {"bn_stats", {"data", 0}}};
    auto d = kData.find(isa_op(k));
    if (d == kData.end()) return;
    const Expr* data = nullptr;
    if (const keyword* w = find_kw(k, d->second.first)) data = w->value.get();
    else if (k->args.size() > d->second.second) data = k->args[d->second.second].get();
    auto* call = as<Call>(data);
    if (!call || !isa_op(call).empty() || substituted_.count(data)) return;
    bool varies = false;
    for (int line : {s_->span.begin.line, k->span.begin.line}) {
      auto it = c_.facts.find({line, "nisa." + isa_op(k)});
      if (it != c_.facts.end())
        for (const TileFact& f : it->second) varies = varies || f.shape != it->second.front().shape;
    }
    if (!varies) return;
    bool calls_before = false;
    auto scan = [&](const Expr* e) {
      if (c_.begin(*e) < c_.begin(*data))
        for_each_expr(e, [&](const Expr* x) { calls_before = calls_before || as<Call>(x); });
    };
    for (const ExprPtr& a : k->args) scan(a.get());
    for (const keyword& w : k->keywords) scan(w.value.get());
    if (calls_before) return;
    std::string name = fresh(isa_op(k), "_data");
    std::string value = arg_text(data, ok);
    prelude_ += indent_ + name + " = " + value + "\n";
    substituted_[data] = name;
  }

  std::string arg_text(const Expr* a, bool& ok) {
    auto sub = substituted_.find(a);
    if (sub != substituted_.end()) return sub->second;
    std::string d = dotted_name(a);
    auto np = kNumpyOps.find(d);
    if (np != kNumpyOps.end()) return np->second;
    return render_hoisting(c_.begin(*a), c_.end(*a), ok);
  }

  static std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
    return s;
  }

  Ctx& c_;
  const Stmt* s_;
  std::set<std::string>& names_;
  std::string indent_;
  std::string prelude_;
  std::map<const Call*, int> occurrence_;
  std::map<const Call*, std::string> hoisted_;  // nested nisa calls -> their temporaries
  std::map<const Expr*, std::string> substituted_;  // data operands bound to a temporary first
  std::map<std::string, int> seen_;
};

// import neuronxcc.nki[.x] as y -> import nki[.x] as y ("New namespace, new APIs").
void rewrite_import(Ctx& c, const Stmt* s) {
  auto map_module = [](const std::string& m) -> std::string {
    if (m == "neuronxcc.nki") return "nki";
    if (m.rfind("neuronxcc.nki.", 0) == 0) return "nki." + m.substr(14);
    return "";
  };
  std::string text = c.text(*s);
  if (auto* im = as<Import>(s)) {
    bool touched = false;
    std::string out = "import ";
    for (size_t i = 0; i < im->names.size(); ++i) {
      const alias& a = im->names[i];
      std::string m = map_module(a.name);
      if (a.name == "neuronxcc.nki.compiler" || a.name.rfind("neuronxcc.nki.compiler.", 0) == 0) {
        c.refuse(*s, "imports", "neuronxcc.nki.compiler (direct allocation) changed in NKI 0.2: migrate by hand");
        return;
      }
      if (a.name.rfind("neuronxcc", 0) == 0 && m.empty()) {
        c.refuse(*s, "imports", "module " + a.name + " has no current-dialect counterpart");
        return;
      }
      touched = touched || !m.empty();
      std::string name = m.empty() ? a.name : m;
      std::string as_name = a.asname;
      if (m == "nki" && as_name == "nki") as_name.clear();
      out += (i ? ", " : "") + name + (as_name.empty() ? "" : " as " + as_name);
    }
    if (!touched) return;
    if (!c.src.add({c.begin(*s), c.end(*s), out})) return c.refuse(*s, "imports", "overlapping rewrites");
    c.applied(*s, "imports", out);
  } else if (auto* f = as<ImportFrom>(s)) {
    if (f->module.rfind("neuronxcc", 0) != 0) return;
    std::string out;
    if (f->module == "neuronxcc") {
      for (const alias& a : f->names) {
        if (a.name != "nki") return c.refuse(*s, "imports", "from neuronxcc import " + a.name + ": no counterpart");
        out += (out.empty() ? "" : "\n" + c.src.indent_of(s->span.begin.line)) + std::string("import nki") +
               (a.asname.empty() || a.asname == "nki" ? "" : " as " + a.asname);
      }
    } else {
      std::string m = map_module(f->module);
      if (m.empty() || m.rfind("nki.compiler", 0) == 0)
        return c.refuse(*s, "imports", "from " + f->module + " import ...: migrate by hand");
      out = "from " + m + " import ";
      for (size_t i = 0; i < f->names.size(); ++i)
        out += (i ? ", " : "") + f->names[i].name + (f->names[i].asname.empty() ? "" : " as " + f->names[i].asname);
    }
    if (!c.src.add({c.begin(*s), c.end(*s), out})) return c.refuse(*s, "imports", "overlapping rewrites");
    c.applied(*s, "imports", out);
  }
}

// Keyword renames of nl functions, nl.par_dim, string buffers, leftover neuronxcc references.
void rewrite_small_things(Ctx& c, const Stmt* s) {
  for_each_stmt_expr(s, [&](const Expr* root) {
    for_each_expr(root, [&](const Expr* x) {
      if (auto* a = as<Attribute>(x); a && dotted_name(a).rfind("neuronxcc.", 0) == 0 && as<Name>(a->value.get())) {
        c.refuse(*x, "imports", "a neuronxcc reference outside the imports");
        return;
      }
      auto* call = as<Call>(x);
      if (!call) return;
      std::string fn = dotted_name(call->func.get());
      auto kws = kNlKeywords.find(fn);
      for (const keyword& k : call->keywords) {
        if (kws != kNlKeywords.end()) {
          auto r = kws->second.find(k.arg_name);
          if (r != kws->second.end()) {
            size_t b = c.begin(k);
            if (c.src.add({b, b + k.arg_name.size(), r->second}))
              c.applied(k, "nl_keywords", fn + "(" + k.arg_name + "=) is " + fn + "(" + r->second + "=) in 0.6");
          }
        }
        // "String buffer names no longer supported" (0.2 -> 0.3 section).
        if (k.arg_name == "buffer") {
          auto* str = as<Constant>(k.value.get());
          if (str && str->value_kind == Constant::Kind::Str) {
            static const std::set<std::string> kBuffers = {"sbuf", "psum", "hbm", "private_hbm", "shared_hbm"};
            if (kBuffers.count(str->str_value) && c.src.add({c.begin(*k.value), c.end(*k.value), "nl." + str->str_value}))
              c.applied(k, "buffers", "buffer='" + str->str_value + "' -> nl." + str->str_value);
          }
        }
      }
      if (fn == "nl.par_dim") {
        if (call->args.size() != 1) return c.refuse(*call, "par_dim", "nl.par_dim with other than one argument");
        if (c.src.add({c.begin(*call), c.end(*call), c.text(*call->args[0])}))
          c.applied(*call, "par_dim", "nl.par_dim(P) -> P (dim 0 is always the partition dim in NKI 0.2+)");
      }
      if (fn == "nki.jit" || fn == "nki.jit") {
        for (size_t i = 0; i < call->keywords.size(); ++i) {
          const std::string& n = call->keywords[i].arg_name;
          if (n == "mode" || n == "platform_target")
            c.refuse(call->keywords[i], "decorators",
                     "nki.jit(" + n + "=) was removed in NKI 0.3: delete it (and set the target by environment)");
        }
      }
    });
  });
}

void walk_stmts(const StmtList& body, const std::function<void(const Stmt*, const StmtList*)>& f) {
  for (const StmtPtr& sp : body) {
    const Stmt* s = sp.get();
    f(s, &body);
    if (auto* d = as<FunctionDef>(s)) walk_stmts(d->body, f);
    else if (auto* l = as<For>(s)) {
      walk_stmts(l->body, f);
      walk_stmts(l->orelse, f);
    } else if (auto* w = as<While>(s)) {
      walk_stmts(w->body, f);
      walk_stmts(w->orelse, f);
    } else if (auto* i = as<If>(s)) {
      walk_stmts(i->body, f);
      walk_stmts(i->orelse, f);
    } else if (auto* wi = as<With>(s)) {
      walk_stmts(wi->body, f);
    } else if (auto* t = as<Try>(s)) {
      walk_stmts(t->body, f);
      for (const excepthandler& h : t->handlers) walk_stmts(h.body, f);
      walk_stmts(t->orelse, f);
      walk_stmts(t->finalbody, f);
    }
  }
}

}  // namespace

RewriteResult rewrite_to_current(const std::string& legacy_source, const TileFacts& facts, const std::string& path) {
  RewriteResult out;
  Module m;
  try {
    m = parse_module_text(legacy_source, path);
  } catch (const DiagnosticError& e) {
    out.refused.push_back({e.diagnostic().line, e.diagnostic().col, e.diagnostic().code, e.diagnostic().message});
    out.text = legacy_source;
    return out;
  }
  Ctx c(legacy_source, facts, out);
  std::map<const Stmt*, const StmtList*> parents;
  std::set<std::string>& names = c.used_names;
  walk_stmts(m.body, [&](const Stmt* s, const StmtList* p) {
    parents[s] = p;
    for_each_stmt_expr(s, [&](const Expr* root) {
      for_each_expr(root, [&](const Expr* x) {
        if (auto* n = as<Name>(x)) names.insert(n->id);
      });
    });
  });
  collect_index_defs(c, m.body);
  collect_fresh_tensors(c, m.body);
  walk_stmts(m.body, [&](const Stmt* s, const StmtList*) {
    if (as<Import>(s) || as<ImportFrom>(s)) return rewrite_import(c, s);
    if (auto* d = as<FunctionDef>(s)) {
      for (const ExprPtr& dec : d->decorator_list)
        for_each_expr(dec.get(), [&](const Expr* x) {
          if (auto* call = as<Call>(x); call && dotted_name(call->func.get()) == "nki.jit")
            for (const keyword& k : call->keywords)
              if (k.arg_name == "mode" || k.arg_name == "platform_target")
                c.refuse(k, "decorators", "nki.jit(" + k.arg_name + "=) was removed in NKI 0.3: delete it");
        });
      return;
    }
    rewrite_small_things(c, s);
    rewrite_index_uses(c, s);
  });
  delete_index_defs(c, parents);
  // Statement-level ISA rewrites last: they re-render their statement with the edits above.
  walk_stmts(m.body, [&](const Stmt* s, const StmtList*) {
    switch (s->kind) {
      case StmtKind::Assign:
      case StmtKind::AugAssign:
      case StmtKind::Expr:
      case StmtKind::Return:
      case StmtKind::AnnAssign: {
        StmtRewriter r(c, s, names);
        r.run();
        break;
      }
      default: {
        bool has_isa = false;
        for_each_stmt_expr(s, [&](const Expr* root) {
          for_each_expr(root, [&](const Expr* x) {
            if (auto* k = as<Call>(x); k && !isa_op(k).empty() && isa_op(k) != "dma_copy") has_isa = true;
          });
        });
        if (has_isa) c.refuse(*s, "isa_dst", "a nisa call in a loop header or condition: hoist it into a statement first");
      }
    }
  });
  out.text = c.src.result();
  std::sort(out.refused.begin(), out.refused.end(),
            [](const Finding& a, const Finding& b) { return std::tie(a.line, a.col) < std::tie(b.line, b.col); });
  return out;
}

}  // namespace nki::migrate
