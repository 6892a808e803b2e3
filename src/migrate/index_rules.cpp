// nl.arange / nl.mgrid indices and masks -> slices (aws-neuron-sdk nki/migration/index.rst,
// "Update indexing syntax for mgrid and arange" and "Deprecation of masking": NKI 0.2 removed
// both; contiguous index arrays become integer slices, and a mask that keeps an index below a
// bound becomes the slice's end, min(bound, start + size)).
#include <algorithm>

#include "migrate/rewrite_context.h"

namespace nki::migrate {

namespace {

using namespace py;

bool is_none_const(const Expr* e) {
  auto* k = as<Constant>(e);
  return k && k->value_kind == Constant::Kind::None;
}
bool is_full_slice(const Expr* e) {
  auto* s = as<Slice>(e);
  return s && !s->lower && !s->upper && !s->step;
}
bool atomic(const Expr* e) {
  return as<Name>(e) || as<Constant>(e) || as<Attribute>(e) || as<Subscript>(e) || as<Call>(e);
}
std::string wrapped(const Ctx& c, const Expr* e) {
  std::string t = c.text(*e);
  return atomic(e) ? t : "(" + t + ")";
}

bool is_arange_call(const Expr* e, std::string& extent_out, bool& atomic_out, const Ctx& c) {
  auto* call = as<Call>(e);
  if (!call || dotted_name(call->func.get()) != "nl.arange" || call->args.size() != 1 || !call->keywords.empty())
    return false;
  extent_out = wrapped(c, call->args[0].get());
  atomic_out = true;
  return true;
}

// nl.arange(N)[None, :] (or nl.arange(N)) written inline; `out` gets its extent, axis and rank.
bool arange_subscript(const Ctx& c, const Expr* v, ArangeVar& out) {
  std::string ext;
  bool at = false;
  if (is_arange_call(v, ext, at, c)) {
    out = {ext, 0, 1};
    return true;
  }
  auto* sub = as<Subscript>(v);
  if (!sub || !is_arange_call(sub->value.get(), ext, at, c)) return false;
  std::vector<const Expr*> elts;
  if (auto* t = as<Tuple>(sub->slice.get()))
    for (const ExprPtr& x : t->elts) elts.push_back(x.get());
  else
    elts.push_back(sub->slice.get());
  int axis = -1, count = 0;
  for (size_t i = 0; i < elts.size(); ++i) {
    if (is_full_slice(elts[i])) {
      axis = static_cast<int>(i);
      ++count;
    } else if (!is_none_const(elts[i])) {
      return false;
    }
  }
  if (count != 1) return false;
  out = {ext, axis, static_cast<int>(elts.size())};
  return true;
}
bool inline_arange(const Ctx& c, const Expr* e, ArangeVar& out) { return arange_subscript(c, e, out); }

}  // namespace

// `k * t` as text, for the constant factor `k` ("" = 1) that distributing a multiplier carries.
std::string times(const std::string& k, const std::string& t) {
  if (k.empty()) return t;
  if (t.empty() || t == "1") return k;
  return k + " * " + t;
}

std::string redefined(const std::string& name) {
  return "'" + name + "' is defined as different nl.arange values in this file, and no one definition reaches this use";
}

// Splits `e` (times the constant `factor`, "" = 1) into base terms and arange terms. A constant
// multiple of a compound index expression, `k * (i_h + 1)`, is distributed over its terms
// (k * i_h + k * 1): an exact rewrite of integer arithmetic.
void decompose(const Ctx& c, const Expr* e, int sign, Affine& a, int depth, const std::string& factor) {
  if (!a.why.empty()) return;
  if (depth > 50) {
    a.why = "index expression too deep";
    return;
  }
  if (!c.uses_index_names(e)) {
    std::string t = c.text(*e);
    auto* b = as<BinOp>(e);
    if (b && (b->op == Operator::Add || b->op == Operator::Sub)) t = "(" + t + ")";
    else if (!atomic(e) && !as<BinOp>(e)) t = "(" + t + ")";
    else if (!factor.empty() && b && b->op != Operator::Mult) t = "(" + t + ")";
    a.base.push_back({times(factor, t), sign});
    return;
  }
  ArangeVar inline_var;
  if (inline_arange(c, e, inline_var)) {
    a.vars.push_back({c.text(*e), factor, sign, inline_var});
    return;
  }
  if (auto* n = as<Name>(e)) {
    a.names.push_back(n);
    if (c.aranges.count(n->id)) {
      ArangeVar v;
      if (!c.arange_at(n->id, n->span.begin.line, v)) a.why = redefined(n->id);
      else a.vars.push_back({n->id, factor, sign, v});
      return;
    }
    auto al = c.index_aliases.find(n->id);
    if (al != c.index_aliases.end()) return decompose(c, al->second, sign, a, depth + 1, factor);
    a.why = "'" + n->id + "' (an nl.arange mask) used as an index";
    return;
  }
  if (auto* u = as<UnaryOp>(e); u && u->op == UnaryOpKind::USub)
    return decompose(c, u->operand.get(), -sign, a, depth + 1, factor);
  if (auto* b = as<BinOp>(e)) {
    if (b->op == Operator::Add || b->op == Operator::Sub) {
      decompose(c, b->left.get(), sign, a, depth + 1, factor);
      decompose(c, b->right.get(), b->op == Operator::Add ? sign : -sign, a, depth + 1, factor);
      return;
    }
    if (b->op == Operator::Mult) {
      const Expr* l = b->left.get();
      const Expr* r = b->right.get();
      bool li = c.uses_index_names(l), ri = c.uses_index_names(r);
      const Expr* var = li ? l : r;
      const Expr* k = li ? r : l;
      auto* vn = as<Name>(var);
      if (li && ri) {
        a.why = "a product of two index arrays";
        return;
      }
      ArangeVar iv;
      std::string coef = times(factor, wrapped(c, k));
      if (inline_arange(c, var, iv)) {
        a.vars.push_back({c.text(*var), coef, sign, iv});
        return;
      }
      if (!vn || !c.aranges.count(vn->id)) return decompose(c, var, sign, a, depth + 1, coef);
      a.names.push_back(vn);
      ArangeVar v;
      if (!c.arange_at(vn->id, vn->span.begin.line, v)) a.why = redefined(vn->id);
      else a.vars.push_back({vn->id, coef, sign, v});
      return;
    }
  }
  a.why = "an index expression that is not affine (+, -, * by a constant) in nl.arange values";
}

std::string join_base(const std::vector<Term>& terms) {
  std::string s;
  for (const Term& t : terms) {
    if (s.empty()) s = (t.sign < 0 ? "-" : "") + t.text;
    else s += (t.sign < 0 ? " - " : " + ") + t.text;
  }
  return s;
}

namespace {

std::string extent_text(const ArangeVar& v) { return v.extent; }

void record_arange(Ctx& c, const std::string& name, ArangeVar v, const Stmt* def, const StmtList& block) {
  auto it = c.aranges.find(name);
  if (it != c.aranges.end() &&
      (it->second.extent != v.extent || it->second.axis != v.axis || it->second.rank != v.rank))
    c.ambiguous.insert(name);
  c.aranges[name] = v;
  c.arange_defs[name].push_back({def->span.begin.line, block.back()->span.end.line, v});
}

// `lo + v < hi` (or hi > lo + v, <=, >=): v < hi - lo.
bool restrictions_of(const Ctx& c, const Expr* e, std::map<std::string, Restriction>& out, std::string& why) {
  if (auto* n = as<Name>(e)) {
    auto it = c.mask_defs.find(n->id);
    if (it == c.mask_defs.end()) {
      why = "mask '" + n->id + "' is not an nl.arange comparison defined in this file";
      return false;
    }
    return restrictions_of(c, it->second, out, why);
  }
  if (auto* b = as<BinOp>(e); b && b->op == Operator::BitAnd)
    return restrictions_of(c, b->left.get(), out, why) && restrictions_of(c, b->right.get(), out, why);
  auto* cmp = as<Compare>(e);
  if (!cmp || cmp->ops.size() != 1) {
    why = "a mask that is not one comparison (or an & of comparisons) of an index with a bound";
    return false;
  }
  CmpOp op = cmp->ops[0];
  const Expr* lo = cmp->left.get();
  const Expr* hi = cmp->comparators[0].get();
  if (op == CmpOp::Gt || op == CmpOp::GtE) std::swap(lo, hi);
  bool inclusive = op == CmpOp::LtE || op == CmpOp::GtE;
  if (op != CmpOp::Lt && op != CmpOp::LtE && op != CmpOp::Gt && op != CmpOp::GtE) {
    why = "a mask comparison other than < <= > >=";
    return false;
  }
  if (c.uses_index_names(hi)) {
    why = "a mask that compares two index expressions (a triangular pattern: use nisa.affine_select/iota)";
    return false;
  }
  Affine a;
  decompose(c, lo, 1, a);
  if (!a.why.empty() || a.vars.size() != 1 || !a.vars[0].coef.empty() || a.vars[0].sign < 0) {
    why = "a mask whose index side is not `start + index` of one nl.arange value";
    return false;
  }
  std::string bound = wrapped(c, hi);
  if (inclusive) bound = "(" + c.text(*hi) + " + 1)";
  if (out.count(a.vars[0].name)) {
    why = "a mask with two bounds on '" + a.vars[0].name + "'";
    return false;
  }
  out[a.vars[0].name] = {join_base(a.base), bound};
  return true;
}

// Deletes a keyword argument with its separating comma.
bool delete_keyword(Ctx& c, const Call* call, size_t kw_index) {
  std::vector<const Node*> items;
  for (const ExprPtr& a : call->args) items.push_back(a.get());
  for (const keyword& k : call->keywords) items.push_back(&k);
  std::sort(items.begin(), items.end(), [&](const Node* x, const Node* y) { return c.begin(*x) < c.begin(*y); });
  const Node* kw = &call->keywords[kw_index];
  size_t i = static_cast<size_t>(std::find(items.begin(), items.end(), kw) - items.begin());
  size_t b, e;
  if (i > 0) {
    b = c.end(*items[i - 1]);
    e = c.end(*kw);
  } else if (i + 1 < items.size()) {
    b = c.begin(*kw);
    e = c.begin(*items[i + 1]);
  } else {
    b = c.begin(*kw);
    e = c.end(*kw);
  }
  return c.src.add({b, e, ""});
}

// A masked compute call (nl.multiply(a, b, mask=i_p < n)) worked on the partitions its mask
// keeps of every tile operand; without the mask, each whole-tile operand is cut to those rows,
// a[0:min(P, n)] (an operand a masked load already cut keeps its size). nl.load/nl.store read
// and write through their indexed operands, whose slices carry the bound instead.
void cut_masked_operands(Ctx& c, const Call* call, const std::map<std::string, Restriction>& r, int line) {
  std::string fn = dotted_name(call->func.get());
  static const std::set<std::string> kIndexed = {"nl.load", "nl.store", "nl.load_transpose2d", "nl.atomic_rmw"};
  if (kIndexed.count(fn) || (fn.rfind("nl.", 0) != 0 && fn.rfind("nisa.", 0) != 0)) return;
  std::string rows;
  for (auto& [v, b] : r) {
    ArangeVar av;
    if (c.arange_at(v, line, av) && av.axis == 0 && av.rank >= 2)
      rows = "min(" + av.extent + ", " + b.bound + (b.base.empty() ? "" : " - (" + b.base + ")") + ")";
  }
  if (rows.empty()) return;
  std::vector<const Expr*> operands;
  for (const ExprPtr& a : call->args) operands.push_back(a.get());
  for (const keyword& k : call->keywords)
    if (k.arg_name != "mask" && k.arg_name != "dtype") operands.push_back(k.value.get());
  for (const Expr* e : operands) {
    auto* n = as<Name>(e);
    if (!n || !c.tile_names.count(n->id)) continue;
    if (c.src.add({c.begin(*n), c.end(*n), n->id + "[0:" + rows + "]"}))
      c.applied(*n, "mask_slices", "operand of a masked call cut to the rows its mask keeps");
  }
}

}  // namespace

bool Ctx::uses_index_names(const Expr* e) const {
  bool found = false;
  for_each_expr(e, [&](const Expr* x) {
    if (auto* n = as<Name>(x))
      if (aranges.count(n->id) || index_aliases.count(n->id) || mask_defs.count(n->id)) found = true;
    if (auto* k = as<Call>(x); k && dotted_name(k->func.get()) == "nl.arange") found = true;
  });
  return found;
}

bool Ctx::arange_at(const std::string& name, int line, ArangeVar& out) const {
  auto it = aranges.find(name);
  if (it == aranges.end()) return false;
  if (!ambiguous.count(name)) {
    out = it->second;
    return true;
  }
  // The latest definition above the use, in a statement list that goes on to the use's line;
  // a later definition reaches the use too when a loop runs it before the use again without
  // running this one, so every loop around both the use and a later definition must hold it.
  const std::vector<ArangeDef>& defs = arange_defs.at(name);
  const ArangeDef* reaching = nullptr;
  for (const ArangeDef& d : defs)
    if (d.line < line && (!reaching || d.line > reaching->line)) reaching = &d;
  if (!reaching || line > reaching->block_end) return false;
  auto inside = [](const std::pair<int, int>& loop, int l) { return loop.first < l && l <= loop.second; };
  for (const ArangeDef& d : defs) {
    if (d.line <= line) continue;
    for (const auto& loop : loops)
      if (inside(loop, line) && inside(loop, d.line) && !inside(loop, reaching->line)) return false;
  }
  out = reaching->var;
  return true;
}

void collect_index_defs(Ctx& c, const StmtList& body) {
  for (const StmtPtr& sp : body) {
    const Stmt* s = sp.get();
    if (auto* a = as<Assign>(s); a && a->targets.size() == 1) {
      const Expr* v = a->value.get();
      if (auto* n = as<Name>(a->targets[0].get())) {
        ArangeVar av;
        if (arange_subscript(c, v, av)) {
          record_arange(c, n->id, av, s, body);
          c.index_def_stmts.push_back(s);
          continue;
        }
        if (c.uses_index_names(v)) {
          // Arithmetic of index arrays only: a call or a tensor subscript (e3 = e[i_p, i_f])
          // makes a value, not an index alias.
          bool calls = false;
          for_each_expr(v, [&](const Expr* x) {
            ArangeVar inline_var;
            calls = calls || as<Call>(x) || (as<Subscript>(x) && !arange_subscript(c, x, inline_var));
          });
          if (!calls) {
            bool is_mask = as<Compare>(v) || (as<BinOp>(v) && as<BinOp>(v)->op == Operator::BitAnd);
            (is_mask ? c.mask_defs : c.index_aliases)[n->id] = v;
            c.index_def_stmts.push_back(s);
            continue;
          }
        }
      } else if (auto* t = as<Tuple>(a->targets[0].get())) {
        auto* sub = as<Subscript>(v);
        if (sub && dotted_name(sub->value.get()) == "nl.mgrid") {
          auto* st = as<Tuple>(sub->slice.get());
          if (st && st->elts.size() == t->elts.size()) {
            bool ok = true;
            for (size_t i = 0; i < st->elts.size() && ok; ++i) {
              auto* sl = as<Slice>(st->elts[i].get());
              auto* nm = as<Name>(t->elts[i].get());
              bool zero_lower = sl && (!sl->lower || (as<Constant>(sl->lower.get()) &&
                                                      as<Constant>(sl->lower.get())->value_kind == Constant::Kind::Int &&
                                                      as<Constant>(sl->lower.get())->int_value == 0));
              ok = nm && sl && zero_lower && sl->upper && !sl->step;
            }
            if (ok) {
              for (size_t i = 0; i < st->elts.size(); ++i)
                record_arange(c, as<Name>(t->elts[i].get())->id,
                              {wrapped(c, as<Slice>(st->elts[i].get())->upper.get()), static_cast<int>(i),
                               static_cast<int>(st->elts.size())},
                              s, body);
              c.index_def_stmts.push_back(s);
              continue;
            }
          }
        }
      }
    }
    if (auto* f = as<FunctionDef>(s)) collect_index_defs(c, f->body);
    if (as<For>(s) || as<While>(s)) c.loops.push_back({s->span.begin.line, s->span.end.line});
    if (auto* f = as<For>(s)) collect_index_defs(c, f->body);
    if (auto* w = as<While>(s)) collect_index_defs(c, w->body);
    if (auto* i = as<If>(s)) {
      collect_index_defs(c, i->body);
      collect_index_defs(c, i->orelse);
    }
    if (auto* w = as<With>(s)) collect_index_defs(c, w->body);
  }
}

const char* const kLayout = "index arrays that broadcast to a layout slices cannot express";

void rewrite_index_uses(Ctx& c, const Stmt* s) {
  if (std::find(c.index_def_stmts.begin(), c.index_def_stmts.end(), s) != c.index_def_stmts.end()) return;
  std::map<std::string, Restriction> restrict;
  std::set<const Expr*> handled;
  std::vector<const Expr*> iota_args;
  bool failed = false;
  // Masks first: their bounds become the slices' ends in this statement.
  for_each_stmt_expr(s, [&](const Expr* root) {
    for_each_expr(root, [&](const Expr* x) {
      auto* call = as<Call>(x);
      if (!call) return;
      std::string fn = dotted_name(call->func.get());
      if (fn == "nisa.iota" || fn == "nisa.affine_select") iota_args.push_back(call);
      for (size_t k = 0; k < call->keywords.size(); ++k) {
        if (call->keywords[k].arg_name != "mask") continue;
        std::string why;
        std::map<std::string, Restriction> r;
        if (!restrictions_of(c, call->keywords[k].value.get(), r, why)) {
          c.refuse(call->keywords[k], "mask_slices", why);
          failed = true;
          continue;
        }
        for (auto& [v, b] : r) {
          auto it = restrict.find(v);
          if (it != restrict.end() && (it->second.base != b.base || it->second.bound != b.bound)) {
            c.refuse(call->keywords[k], "mask_slices", "two different masks on '" + v + "' in one statement");
            failed = true;
          }
          restrict[v] = b;
        }
        for_each_expr(call->keywords[k].value.get(), [&](const Expr* n) { handled.insert(n); });
        if (!delete_keyword(c, call, k)) c.refuse(call->keywords[k], "mask_slices", "overlapping rewrites");
        else c.applied(call->keywords[k], "mask_slices", "mask= folded into the slice bounds");
        cut_masked_operands(c, call, r, s->span.begin.line);
      }
    });
  });
  if (failed) return;
  const Expr* target = nullptr;  // t[...] = value: an access pattern there keeps a subscript
  if (auto* a = as<Assign>(s); a && a->targets.size() == 1) target = a->targets[0].get();
  if (auto* g = as<AugAssign>(s)) target = g->target.get();
  for (auto& [v, r] : restrict) {
    ArangeVar av;
    if (!c.arange_at(v, s->span.begin.line, av) || av.axis != 0 || av.rank < 2) continue;
    c.masked_partitions[s] = "min(" + av.extent + ", " + r.bound +
                             (r.base.empty() ? "" : " - (" + r.base + ")") + ")";
  }
  for_each_stmt_expr(s, [&](const Expr* root) {
    for_each_expr(root, [&](const Expr* x) {
      auto* sub = as<Subscript>(x);
      if (!sub || !c.uses_index_names(sub->slice.get())) return;
      if (handled.count(sub)) return;
      std::vector<const Expr*> elts;
      if (auto* t = as<Tuple>(sub->slice.get()))
        for (const ExprPtr& e : t->elts) elts.push_back(e.get());
      else
        elts.push_back(sub->slice.get());
      auto mark_handled = [&](const std::vector<Affine>& parts) {
        for (const Affine& a : parts) handled.insert(a.names.begin(), a.names.end());
        for_each_expr(sub->slice.get(), [&](const Expr* n) { handled.insert(n); });
      };
      // An index tile column as the first index (T[ids[i_p, 0], i_f]) gathers rows of T.
      if (auto* g = as<Subscript>(elts[0]);
          g && as<Name>(g->value.get()) && c.uses_index_names(g->slice.get()) && !c.uses_index_names(g->value.get())) {
        std::set<std::string> masked;
        for (auto& [v, r] : restrict) masked.insert(v);
        std::string why;
        if (!rewrite_as_gather(c, sub, elts, masked, why)) c.refuse(*sub, "arange_slices", why);
        mark_handled({});
        return;
      }
      // Several index arrays on one axis (a flattened i_r * W + i_c, a window i_h + i_k) are
      // not a slice per axis: the whole access becomes one access pattern.
      std::vector<Affine> decomposed(elts.size());
      bool several = false, affine = true;
      for (size_t i = 0; i < elts.size(); ++i) {
        if (as<Slice>(elts[i])) continue;
        decompose(c, elts[i], 1, decomposed[i]);
        affine = affine && decomposed[i].why.empty();
        several = several || decomposed[i].vars.size() > 1;
      }
      if (several && affine) {
        std::string why;
        for (const Affine& a : decomposed)
          for (const Affine::Var& v : a.vars)
            if (restrict.count(v.name)) why = "a masked access with several nl.arange values on one axis";
        if (why.empty() && rewrite_as_access_pattern(c, s, sub, elts, decomposed, sub == target, why)) {
          mark_handled(decomposed);
          return;
        }
        c.refuse(*sub, "arange_slices", why);
        mark_handled(decomposed);
        return;
      }
      std::vector<std::string> parts;
      std::string permute;
      std::vector<int> var_axes;
      std::vector<size_t> var_positions;
      int rank = -1;
      std::string why;
      std::vector<const Expr*> names;
      for (size_t i = 0; i < elts.size() && why.empty(); ++i) {
        if (as<Slice>(elts[i])) {
          if (c.uses_index_names(elts[i])) why = "an nl.arange value inside a slice";
          else parts.push_back(c.text(*elts[i]));
          continue;
        }
        Affine a;
        decompose(c, elts[i], 1, a);
        if (!a.why.empty()) {
          why = a.why;
          break;
        }
        names.insert(names.end(), a.names.begin(), a.names.end());
        if (a.vars.empty()) {
          parts.push_back(c.text(*elts[i]));
          continue;
        }
        if (a.vars.size() > 1) {
          why = "two nl.arange values on one axis (a window or flattened pattern: needs .ap() or a loop)";
          break;
        }
        const Affine::Var& v = a.vars[0];
        const ArangeVar& av = v.info;
        if (rank >= 0 && av.rank != rank) {
          why = "index arrays of different ranks";
          break;
        }
        rank = av.rank;
        var_axes.push_back(av.axis);
        var_positions.push_back(i);
        if (v.sign < 0) {
          why = "a reversed index (negative coefficient)";
          break;
        }
        std::string b = join_base(a.base);
        std::string n = extent_text(av);
        auto r = restrict.find(v.name);
        if (v.coef.empty()) {
          std::string lo = b.empty() ? "0" : b;
          std::string hi;
          if (r != restrict.end()) {
            if (r->second.base == b) hi = "min(" + r->second.bound + ", " + (b.empty() ? n : b + " + " + n) + ")";
            else if (r->second.base.empty()) hi = (b.empty() ? "" : b + " + ") + "min(" + n + ", " + r->second.bound + ")";
            else hi = (b.empty() ? "" : b + " + ") + "min(" + n + ", " + r->second.bound + " - (" + r->second.base + "))";
          } else {
            hi = b.empty() ? n : b + " + " + n;
          }
          parts.push_back(lo + ":" + hi);
        } else {
          if (r != restrict.end()) {
            why = "a masked strided index";
            break;
          }
          std::string lo = b.empty() ? "0" : b;
          parts.push_back(lo + ":" + lo + " + " + v.coef + " * (" + n + " - 1) + 1:" + v.coef);
        }
      }
      if (why.empty()) {
        bool increasing = std::is_sorted(var_axes.begin(), var_axes.end()) &&
                          std::adjacent_find(var_axes.begin(), var_axes.end()) == var_axes.end();
        bool dense = static_cast<int>(var_axes.size()) == rank;
        bool on_chip_like = static_cast<int>(elts.size()) == rank;
        if (on_chip_like)
          for (size_t k = 0; k < var_positions.size(); ++k)
            if (static_cast<size_t>(var_axes[k]) != var_positions[k]) on_chip_like = false;
        bool permutation = dense && !increasing;
        if (permutation) {
          std::vector<int> sorted(var_axes.begin(), var_axes.end());
          std::sort(sorted.begin(), sorted.end());
          for (size_t k = 0; k < sorted.size(); ++k) permutation = permutation && sorted[k] == static_cast<int>(k);
        }
        if (permutation) {
          // A transposed access: slice in the tensor's axis order, then permute the view
          // (NkiTensor.permute, nki/api/nki/language at HEAD) into the index arrays' order.
          std::vector<int> dims(var_axes.size());
          for (size_t j = 0; j < var_axes.size(); ++j) dims[static_cast<size_t>(var_axes[j])] = static_cast<int>(j);
          permute = ".permute((";
          for (size_t k = 0; k < dims.size(); ++k) permute += (k ? ", " : "") + std::to_string(dims[k]);
          permute += dims.size() == 1 ? ",))" : "))";
        } else if (!increasing) why = "index arrays in another order than the tensor's axes (a transposed access)";
        else if (!dense && !on_chip_like) why = kLayout;
        else if (!dense) {
          // t[i_p, 5] keeps the integer axis on chip in both dialects; nothing else to check.
        } else if (dense && !permutation) {
          for (size_t k = 0; k < var_axes.size(); ++k)
            if (var_axes[k] != static_cast<int>(k)) why = kLayout;
        }
      }
      if (why == kLayout && affine && restrict.empty()) {
        // A layout no slice per axis gives (idx[t * P + i_p] of a 1-D tensor read as [P, 1])
        // is still one access pattern.
        std::string ap_why;
        if (rewrite_as_access_pattern(c, s, sub, elts, decomposed, sub == target, ap_why)) {
          mark_handled(decomposed);
          return;
        }
      }
      if (!why.empty()) {
        c.refuse(*sub, "arange_slices", why);
        for (const Expr* n : names) handled.insert(n);
        for_each_expr(sub->slice.get(), [&](const Expr* n) { handled.insert(n); });
        return;
      }
      std::string joined;
      for (size_t i = 0; i < parts.size(); ++i) joined += (i ? ", " : "") + parts[i];
      bool added = permute.empty() ? c.src.add({c.begin(*sub->slice), c.end(*sub->slice), joined})
                                   : c.src.add({c.begin(*sub->slice), c.end(*sub), joined + "]" + permute});
      if (!added) {
        c.refuse(*sub, "arange_slices", "overlapping rewrites");
        return;
      }
      c.applied(*sub, "arange_slices", "nl.arange index -> " + joined + (permute.empty() ? "" : "]" + permute));
      for_each_expr(sub->slice.get(), [&](const Expr* n) { handled.insert(n); });
    });
  });
  for (const Expr* call : iota_args)
    if (!as<Call>(call)->args.empty()) for_each_expr(as<Call>(call)->args[0].get(), [&](const Expr* n) { handled.insert(n); });
  for (const Expr* call : iota_args)
    for (const keyword& k : as<Call>(call)->keywords)
      if (k.arg_name == "pred" || k.arg_name == "on_true_tile")
        for_each_expr(k.value.get(), [&](const Expr* n) { handled.insert(n); });
  for_each_stmt_expr(s, [&](const Expr* root) {
    for_each_expr(root, [&](const Expr* x) {
      auto* n = as<Name>(x);
      if (!n || handled.count(n)) return;
      if (c.aranges.count(n->id) || c.index_aliases.count(n->id) || c.mask_defs.count(n->id))
        c.refuse(*n, "arange_slices", "nl.arange value '" + n->id + "' used outside an index or mask (NKI 0.2 has no nl.arange)");
    });
  });
}

void delete_index_defs(Ctx& c, const std::map<const Stmt*, const StmtList*>& parents) {
  std::set<const Stmt*> dead(c.index_def_stmts.begin(), c.index_def_stmts.end());
  std::set<const StmtList*> padded;
  for (const Stmt* s : c.index_def_stmts) {
    size_t b = c.src.line_begin(s->span.begin.line);
    size_t e = c.src.line_end_with_newline(s->span.end.line);
    if (c.src.indent_of(s->span.begin.line).size() + 1 != static_cast<size_t>(s->span.begin.col)) {
      c.refuse(*s, "arange_slices", "an nl.arange definition that shares its line with other code");
      continue;
    }
    std::string repl;
    auto p = parents.find(s);
    if (p != parents.end() && !padded.count(p->second)) {
      bool all_dead = true;
      for (const StmtPtr& x : *p->second) all_dead = all_dead && dead.count(x.get());
      if (all_dead) {
        repl = c.src.indent_of(s->span.begin.line) + "pass\n";
        padded.insert(p->second);
      }
    }
    if (!c.src.add({b, e, repl})) c.refuse(*s, "arange_slices", "overlapping rewrites");
    else c.applied(*s, "arange_slices", "removed the nl.arange/mask definition");
  }
}

namespace {
bool pattern_of(Ctx& c, const Expr* at, const Affine& a, const char* what, std::string& pattern, std::string& offset,
                std::string& multiplier);
}

bool iota_arguments(Ctx& c, const Expr* expr, std::string& pattern, std::string& offset, std::string& multiplier) {
  Affine a;
  decompose(c, expr, 1, a);
  return pattern_of(c, expr, a, "nisa.iota", pattern, offset, multiplier);
}

bool affine_select_arguments(Ctx& c, const Expr* lhs, const Expr* rhs, std::string& pattern, std::string& offset,
                             std::string& multiplier) {
  Affine a;
  decompose(c, lhs, 1, a);
  auto* zero = as<Constant>(rhs);
  if (!(zero && zero->value_kind == Constant::Kind::Int && zero->int_value == 0)) decompose(c, rhs, -1, a);
  return pattern_of(c, lhs, a, "nisa.affine_select", pattern, offset, multiplier);
}

namespace {
// One partition index array (channel_multiplier) and at most one free one ([[step, num]]).
bool pattern_of(Ctx& c, const Expr* at, const Affine& a, const char* what, std::string& pattern, std::string& offset,
                std::string& multiplier) {
  std::string why = a.why;
  std::string free_step = "0", free_num = "1";
  multiplier = "0";
  bool seen_axis[2] = {false, false};
  for (const Affine::Var& v : a.vars) {
    if (!why.empty()) break;
    const ArangeVar& av = v.info;
    if (av.rank == 2 && av.axis >= 0 && av.axis < 2) {
      if (seen_axis[av.axis]) why = "two index arrays on one axis";
      seen_axis[av.axis] = true;
    }
    if (!why.empty()) break;
    std::string coef = v.coef.empty() ? "1" : v.coef;
    if (v.sign < 0) coef = "-" + coef;
    if (av.rank != 2) why = "an iota over a rank-" + std::to_string(av.rank) + " index array";
    else if (av.axis == 0) multiplier = coef;
    else {
      free_step = coef;
      free_num = av.extent;
    }
  }
  if (a.vars.size() > 2) why = "an iota of more than two index arrays";
  if (!why.empty()) {
    c.refuse(*at, "isa_dst", std::string(what) + " of " + why);
    return false;
  }
  pattern = "[[" + free_step + ", " + free_num + "]]";
  offset = join_base(a.base);
  if (offset.empty()) offset = "0";
  return true;
}
}  // namespace

}  // namespace nki::migrate
