// Index arrays that put several nl.arange values on one tensor axis -> the 0.6 access pattern
// `t.ap([[step, num], ...], offset=...)` (aws-neuron-sdk nki/deep-dives/nki-aps.rst: the
// pattern reads the tensor flattened, element [j_0, ..., j_r] at offset + sum_k step_k * j_k;
// on chip the first entry is the partition access). A 2.24 index `t[e_0, ..., e_n]` with
// e_d = base_d + sum_j coef_dj * v_j (v_j the index array on broadcast axis j) reads exactly
// that element with step_j = sum_d coef_dj * t.strides[d] and offset = sum_d base_d * t.strides[d].
#include "migrate/rewrite_context.h"

namespace nki::migrate {

using namespace py;

namespace {

// A parenthesised base unless it is one positive term (Term texts are already wrapped).
std::string base_factor(const std::vector<Term>& base) {
  std::string b = join_base(base);
  return base.size() == 1 && base[0].sign > 0 ? b : "(" + b + ")";
}

// A new tile (an nl./nisa. call), or a reshape of a tensor that is its own storage (row-major
// over the same elements, so still offset 0 with row-major strides).
// t[:, 0:n, ...] with every axis a slice from 0 with step 1: a view at offset 0 with t's strides,
// so an access pattern over it reads what the same pattern over t's storage reads.
bool leading_view(const Expr* v, const std::set<std::string>& fresh, const std::set<std::string>& other) {
  auto* sub = as<Subscript>(v);
  auto* base = sub ? as<Name>(sub->value.get()) : nullptr;
  if (!base || !fresh.count(base->id) || other.count(base->id)) return false;
  std::vector<const Expr*> elts;
  if (auto* t = as<Tuple>(sub->slice.get()))
    for (const ExprPtr& e : t->elts) elts.push_back(e.get());
  else
    elts.push_back(sub->slice.get());
  for (const Expr* e : elts) {
    auto* sl = as<Slice>(e);
    auto* lo = sl && sl->lower ? as<Constant>(sl->lower.get()) : nullptr;
    if (!sl || sl->step || (sl->lower && !(lo && lo->value_kind == Constant::Kind::Int && lo->int_value == 0)))
      return false;
  }
  return true;
}

bool fresh_value(const Expr* v, const std::set<std::string>& fresh, const std::set<std::string>& other) {
  if (leading_view(v, fresh, other)) return true;
  auto* call = as<Call>(v);
  if (!call) return false;
  std::string fn = dotted_name(call->func.get());
  if (fn.rfind("nl.", 0) == 0 || fn.rfind("nisa.", 0) == 0) return true;
  auto* attr = as<Attribute>(call->func.get());
  auto* base = attr ? as<Name>(attr->value.get()) : nullptr;
  return base && attr->attr == "reshape" && fresh.count(base->id) && !other.count(base->id);
}

bool is_reshape(const Expr* v) {
  auto* call = as<Call>(v);
  auto* attr = call ? as<Attribute>(call->func.get()) : nullptr;
  return attr && attr->attr == "reshape";
}

bool tile_value(const Expr* v) {
  auto* call = as<Call>(v);
  auto* attr = call ? as<Attribute>(call->func.get()) : nullptr;
  if (!attr) return false;
  std::string fn = dotted_name(attr);
  // A dotted module function other than nl./nisa. (math.ceil) is not known to return a tile.
  return fn.empty() || !as<Name>(attr->value.get()) || fn.rfind("nl.", 0) == 0 || fn.rfind("nisa.", 0) == 0 ||
         attr->attr == "broadcast_to" || attr->attr == "reshape";
}

void collect_bindings(const StmtList& body, std::set<std::string>& fresh, std::set<std::string>& other,
                      std::set<std::string>& reshaped, std::set<std::string>& tiles, std::set<std::string>& not_tiles) {
  auto bind_other = [&](const Expr* target) {
    for_each_expr(target, [&](const Expr* x) {
      if (auto* n = as<Name>(x)) {
        other.insert(n->id);
        not_tiles.insert(n->id);
      }
    });
  };
  for (const StmtPtr& sp : body) {
    const Stmt* s = sp.get();
    if (auto* f = as<FunctionDef>(s)) {
      for (const arg& a : f->args.posonlyargs) fresh.insert(a.arg_name);
      for (const arg& a : f->args.args) fresh.insert(a.arg_name);
      for (const arg& a : f->args.kwonlyargs) fresh.insert(a.arg_name);
      collect_bindings(f->body, fresh, other, reshaped, tiles, not_tiles);
    } else if (auto* a = as<Assign>(s)) {
      for (const ExprPtr& t : a->targets) {
        if (auto* n = as<Name>(t.get())) {
          (fresh_value(a->value.get(), fresh, other) ? fresh : other).insert(n->id);
          (tile_value(a->value.get()) ? tiles : not_tiles).insert(n->id);
          if (is_reshape(a->value.get())) reshaped.insert(n->id);
        }
        else if (!as<Subscript>(t.get()) && !as<Attribute>(t.get())) bind_other(t.get());
      }
    } else if (auto* g = as<AnnAssign>(s)) {
      if (auto* n = as<Name>(g->target.get())) {
        (g->value && fresh_value(g->value.get(), fresh, other) ? fresh : other).insert(n->id);
        (g->value && tile_value(g->value.get()) ? tiles : not_tiles).insert(n->id);
      }
    } else if (auto* l = as<For>(s)) {
      bind_other(l->target.get());
      collect_bindings(l->body, fresh, other, reshaped, tiles, not_tiles);
      collect_bindings(l->orelse, fresh, other, reshaped, tiles, not_tiles);
    } else if (auto* w = as<While>(s)) {
      collect_bindings(w->body, fresh, other, reshaped, tiles, not_tiles);
      collect_bindings(w->orelse, fresh, other, reshaped, tiles, not_tiles);
    } else if (auto* i = as<If>(s)) {
      collect_bindings(i->body, fresh, other, reshaped, tiles, not_tiles);
      collect_bindings(i->orelse, fresh, other, reshaped, tiles, not_tiles);
    } else if (auto* wi = as<With>(s)) {
      for (const withitem& it : wi->items)
        if (it.optional_vars) bind_other(it.optional_vars.get());
      collect_bindings(wi->body, fresh, other, reshaped, tiles, not_tiles);
    }
  }
}

}  // namespace

void collect_fresh_tensors(Ctx& c, const StmtList& body) {
  std::set<std::string> fresh, other, reshaped, tiles, not_tiles;
  collect_bindings(body, fresh, other, reshaped, tiles, not_tiles);
  for (const std::string& n : tiles)
    if (!not_tiles.count(n)) c.tile_names.insert(n);
  for (const std::string& n : fresh)
    if (!other.count(n)) c.fresh_tensors.insert(n);
  c.reshaped_tensors = reshaped;
}

// `nl.load(...)[<several arange values on one axis>]`: the call's new tile gets a name on a line
// of its own before the statement, so that the pattern can name its strides. Only when the call
// is what the statement evaluates first (no call ends before it outside the assignment
// targets, which Python evaluates last) and the statement has no nisa call (those statements
// are re-rendered from their first column, which would drop the inserted line).
std::string hoist_call_result(Ctx& c, const Stmt* s, const Call* call) {
  std::string fn = dotted_name(call->func.get());
  if (fn.rfind("nl.", 0) != 0 || c.uses_index_names(call)) return "";
  // A simple statement runs its expressions once per execution, as the inserted line does.
  if (!as<Assign>(s) && !as<ExprStmt>(s) && !as<AugAssign>(s) && !as<Return>(s)) return "";
  const Expr* target = nullptr;
  if (auto* a = as<Assign>(s); a && a->targets.size() == 1) target = a->targets[0].get();
  bool blocked = false;
  for_each_stmt_expr(s, [&](const Expr* root) {
    if (root == target) return;
    for_each_expr(root, [&](const Expr* x) {
      auto* k = as<Call>(x);
      if (!k || k == call) return;
      // A call that ends before this one starts runs first; one around it runs after it.
      if (dotted_name(k->func.get()).rfind("nisa.", 0) == 0 || c.end(*k) <= c.begin(*call)) blocked = true;
    });
  });
  if (blocked || s->span.begin.col != static_cast<int>(c.src.indent_of(s->span.begin.line).size()) + 1) return "";
  std::string base = fn.substr(3) + "_tile", name = base;
  for (int i = 2; c.used_names.count(name); ++i) name = base + std::to_string(i);
  size_t line = c.src.line_begin(s->span.begin.line);
  if (!c.src.add({line, line, c.src.indent_of(s->span.begin.line) + name + " = " + c.text(*call) + "\n"})) return "";
  c.used_names.insert(name);
  c.fresh_tensors.insert(name);
  return name;
}

bool rewrite_as_access_pattern(Ctx& c, const Stmt* s, const Subscript* sub, const std::vector<const Expr*>& elts,
                               const std::vector<Affine>& parts, bool assigned, std::string& why) {
  auto* tensor = as<Name>(sub->value.get());
  std::string hoisted;
  if (!tensor) {
    if (auto* call = as<Call>(sub->value.get())) hoisted = hoist_call_result(c, s, call);
    if (hoisted.empty()) {
      why = "several nl.arange values on one axis of an expression's result (assign it to a name first)";
      return false;
    }
  }
  const std::string& t = tensor ? tensor->id : hoisted;
  if (!c.fresh_tensors.count(t)) {
    // .ap() addresses the storage, not the view it is called on (nki-aps.rst, "Composition").
    why = "several nl.arange values on one axis of '" + t + "', which may be a view (an access pattern addresses its storage)";
    return false;
  }
  int rank = -1;
  std::map<int, std::string> var_on_axis, extent_on_axis;
  std::map<int, std::vector<std::string>> steps;  // per broadcast axis, its terms
  std::vector<std::string> offset_terms;
  for (size_t d = 0; d < elts.size(); ++d) {
    if (as<Slice>(elts[d])) {
      why = "a slice next to several nl.arange values on one axis";
      return false;
    }
    std::string stride = t + ".strides[" + std::to_string(d) + "]";
    const Affine& a = parts[d];
    if (!a.base.empty()) offset_terms.push_back(base_factor(a.base) + " * " + stride);
    for (const Affine::Var& v : a.vars) {
      if (v.sign < 0) {
        why = "a reversed index (negative coefficient)";
        return false;
      }
      if (rank >= 0 && v.info.rank != rank) {
        why = "index arrays of different ranks";
        return false;
      }
      rank = v.info.rank;
      int axis = v.info.axis;
      auto seen = var_on_axis.find(axis);
      if (seen != var_on_axis.end() && seen->second != v.name) {
        why = "two different nl.arange values on axis " + std::to_string(axis) + " of the index broadcast";
        return false;
      }
      var_on_axis[axis] = v.name;
      extent_on_axis[axis] = v.info.extent;
      steps[axis].push_back(times(v.coef, stride));
    }
  }
  std::string pattern;
  for (int j = 0; j < rank; ++j) {
    std::string step, num = "1";
    if (steps.count(j)) {
      for (const std::string& term : steps[j]) step += (step.empty() ? "" : " + ") + term;
      num = extent_on_axis[j];
    } else {
      // An axis no index array spans has size 1; on chip the first entry stays the partition one.
      step = j == 0 ? t + ".strides[0]" : "0";
    }
    pattern += std::string(j ? ", " : "") + "[" + step + ", " + num + "]";
  }
  std::string text = t + ".ap([" + pattern + "]";
  if (!offset_terms.empty()) {
    text += ", offset=";
    for (size_t i = 0; i < offset_terms.size(); ++i) text += (i ? " + " : "") + offset_terms[i];
  }
  text += ")";
  if (assigned) text += "[...]";
  if (!c.src.add({c.begin(*sub), c.end(*sub), text})) {
    why = "overlapping rewrites";
    return false;
  }
  c.applied(*sub, "arange_slices", "several nl.arange values on one axis -> " + text);
  return true;
}

// T[ids[i_p, c], <affine index expressions>...]: rows of T gathered by the index tile column
// ids[:, c] -> T.ap(pattern, offset=..., vector_offset=ids[0:P, c:c + 1], indirect_dim=0), the
// vector dynamic access of nki/migration/index.rst ("Vector dynamic access": only
// indirect_dim=0; element [p, j...] = T.flat[offset + sum_k step_k * j_k + ids[p] * row], the
// stride of the indirect entry ignored but set to T's row, as the guide recommends).
bool rewrite_as_gather(Ctx& c, const Subscript* sub, const std::vector<const Expr*>& elts,
                       const std::set<std::string>& masked, std::string& why) {
  auto* tensor = as<Name>(sub->value.get());
  auto* gather = as<Subscript>(elts[0]);
  auto* ids = gather ? as<Name>(gather->value.get()) : nullptr;
  if (!tensor || !ids) {
    why = "an indirect index that is not a column of a named index tile";
    return false;
  }
  const std::string& t = tensor->id;
  if (!c.fresh_tensors.count(t)) {
    why = "a gather from '" + t + "', which may be a view (an access pattern addresses its storage)";
    return false;
  }
  if (c.reshaped_tensors.count(t)) {
    // Where the row of a vector offset comes from (the reshaped tensor or its storage) is
    // not settled by the guide's wording ("read from the base tensor"), so it is not guessed.
    why = "a gather from '" + t + "', a reshape (the row stride of a vector offset may be the storage's)";
    return false;
  }
  // The index tile's own subscript: one partition index array, constants elsewhere.
  std::vector<const Expr*> inner;
  if (auto* tu = as<Tuple>(gather->slice.get()))
    for (const ExprPtr& e : tu->elts) inner.push_back(e.get());
  else
    inner.push_back(gather->slice.get());
  std::string offsets;
  int rank = -1, gather_axis = -1;
  std::string gather_extent;
  for (size_t i = 0; i < inner.size(); ++i) {
    if (as<Slice>(inner[i])) {
      why = "a slice in the index tile's subscript of a gather";
      return false;
    }
    Affine a;
    decompose(c, inner[i], 1, a);
    if (!a.why.empty() || a.vars.size() > 1 || (a.vars.size() == 1 && (i != 0 || !a.vars[0].coef.empty() ||
                                                                        a.vars[0].sign < 0))) {
      why = "a gather whose index tile is not read as ids[start + i_p, column]";
      return false;
    }
    std::string lo = a.base.empty() ? "0" : join_base(a.base);
    if (a.vars.empty()) {
      bool literal = lo.find_first_not_of("0123456789") == std::string::npos && lo.size() < 10;
      offsets += std::string(i ? ", " : "") + lo + ":" + (literal ? std::to_string(std::stoll(lo) + 1) : lo + " + 1");
      continue;
    }
    const Affine::Var& v = a.vars[0];
    if (masked.count(v.name)) {
      why = "a masked gather";
      return false;
    }
    rank = v.info.rank;
    gather_axis = v.info.axis;
    gather_extent = v.info.extent;
    offsets += std::string(i ? ", " : "") + lo + ":" + (a.base.empty() ? v.info.extent : lo + " + " + v.info.extent);
  }
  if (gather_axis != 0 || rank < 1) {
    why = "a gather whose index tile is not indexed by a partition index array (indirect_dim=0 only)";
    return false;
  }
  std::map<int, std::string> steps, nums;
  std::vector<std::string> offset_terms;
  for (size_t d = 1; d < elts.size(); ++d) {
    if (as<Slice>(elts[d])) {
      why = "a slice next to a gathered index";
      return false;
    }
    Affine a;
    decompose(c, elts[d], 1, a);
    if (!a.why.empty()) {
      why = a.why;
      return false;
    }
    std::string stride = t + ".strides[" + std::to_string(d) + "]";
    if (!a.base.empty()) offset_terms.push_back(base_factor(a.base) + " * " + stride);
    for (const Affine::Var& v : a.vars) {
      if (masked.count(v.name)) {
        why = "a masked gather";
        return false;
      }
      if (v.sign < 0 || v.info.rank != rank || v.info.axis == 0 || nums.count(v.info.axis)) {
        why = "a gather whose other indices are not one increasing index array per free axis";
        return false;
      }
      steps[v.info.axis] = times(v.coef, stride);
      nums[v.info.axis] = v.info.extent;
    }
  }
  std::string pattern = "[" + t + ".strides[0], " + gather_extent + "]";
  for (int j = 1; j < rank; ++j)
    pattern += steps.count(j) ? ", [" + steps[j] + ", " + nums[j] + "]" : ", [0, 1]";
  std::string text = t + ".ap([" + pattern + "]";
  if (!offset_terms.empty()) {
    text += ", offset=";
    for (size_t i = 0; i < offset_terms.size(); ++i) text += (i ? " + " : "") + offset_terms[i];
  }
  text += ", vector_offset=" + ids->id + "[" + offsets + "], indirect_dim=0)";
  if (!c.src.add({c.begin(*sub), c.end(*sub), text})) {
    why = "overlapping rewrites";
    return false;
  }
  c.applied(*sub, "arange_slices", "gathered rows -> " + text);
  return true;
}

}  // namespace nki::migrate
