// Shared state of one rewrite (rewrite.cpp drives it; index_rules.cpp holds the nl.arange/mgrid
// and mask rules). Internal to src/migrate.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lang/ast.h"
#include "migrate/rewrite.h"
#include "migrate/text_edits.h"

namespace nki::migrate {

// Visits the direct sub-expressions of `e` (not the bodies of lambdas and comprehensions' own
// scopes are included: they are expressions too).
void for_each_child(const py::Expr* e, const std::function<void(const py::Expr*)>& f);
void for_each_expr(const py::Expr* e, const std::function<void(const py::Expr*)>& f);  // pre-order, e included
// The direct expressions of a simple statement (and the headers of compound ones).
void for_each_stmt_expr(const py::Stmt* s, const std::function<void(const py::Expr*)>& f);
// "nl.arange" for Attribute(Name nl, arange); "" otherwise.
std::string dotted_name(const py::Expr* e);

// nl.arange(N)[None, :] (or one name of nl.mgrid[0:N, 0:M]): the index array of extent N along
// axis `axis` of a rank-`rank` broadcast.
struct ArangeVar {
  std::string extent;  // source text of N
  int axis = 0;
  int rank = 1;
};

// `lo + v < hi` from a mask: v stays below `bound - base`.
struct Restriction {
  std::string base;
  std::string bound;
};

// An affine index expression: signed base terms + coefficient * arange name, per term.
struct Term {
  std::string text;
  int sign = 1;
};
struct Affine {
  std::vector<Term> base;
  struct Var {
    std::string name;
    std::string coef;  // "" = 1
    int sign = 1;
    ArangeVar info;
  };
  std::vector<Var> vars;
  std::string why;                     // non-empty: not affine
  std::vector<const py::Expr*> names;  // the Name nodes of index names consumed
};

struct Ctx {
  EditableText src;
  const TileFacts& facts;
  RewriteResult& out;
  std::map<std::string, ArangeVar> aranges;                // by name
  std::map<std::string, const py::Expr*> index_aliases;     // r = t * P + i_p
  std::map<std::string, const py::Expr*> mask_defs;         // valid = t * P + i_p < rows
  std::set<std::string> ambiguous;                         // defined twice differently
  // Every definition of each arange name, for names defined more than once: a use takes the
  // definition that reaches it (arange_at).
  struct ArangeDef {
    int line = 0;
    int block_end = 0;  // last line of the statement list the definition is in
    ArangeVar var;
  };
  std::map<std::string, std::vector<ArangeDef>> arange_defs;
  std::vector<std::pair<int, int>> loops;                  // first and last line of each loop
  // The definition of `name` that reaches a use on `line`; false when no single one does.
  bool arange_at(const std::string& name, int line, ArangeVar& out) const;
  std::vector<const py::Stmt*> index_def_stmts;            // deleted once their uses are rewritten
  std::set<const py::Expr*> handled_names;                 // arange-name uses already rewritten
  // Per statement: the partition extent its masks leave, min(N, bound - base), which sizes the
  // destinations allocated for its nisa calls (their inputs are cut to it).
  std::map<const py::Stmt*, std::string> masked_partitions;
  // Names every binding of which is a kernel parameter or the result of an nl./nisa. call: a
  // tensor of its own storage at offset 0, so an access pattern over it needs no view offset.
  std::set<std::string> fresh_tensors;
  std::set<std::string> reshaped_tensors;  // bound (at least once) to x.reshape(...)
  // Names every binding of which is a call of an nl./nisa. function or of a method
  // (t.broadcast_to(...)): tiles, never Python numbers.
  std::set<std::string> tile_names;
  std::set<std::string> used_names;  // every name in the file, and the temporaries added

  Ctx(std::string text, const TileFacts& f, RewriteResult& o) : src(std::move(text)), facts(f), out(o) {}
  std::string text(const py::Node& n) const {
    return std::string(src.slice(src.offset(n.span.begin), src.offset(n.span.end)));
  }
  size_t begin(const py::Node& n) const { return src.offset(n.span.begin); }
  size_t end(const py::Node& n) const { return src.offset(n.span.end); }
  void applied(const py::Node& n, const std::string& rule, const std::string& msg) {
    out.applied.push_back({n.span.begin.line, n.span.begin.col, rule, msg});
  }
  void refuse(const py::Node& n, const std::string& rule, const std::string& msg) {
    out.refused.push_back({n.span.begin.line, n.span.begin.col, rule, msg});
  }
  bool uses_index_names(const py::Expr* e) const;
};

// index_rules.cpp
// `e` times `factor` ("" = 1) as base terms and arange terms; a.why says why it is not affine.
void decompose(const Ctx& c, const py::Expr* e, int sign, Affine& a, int depth = 0, const std::string& factor = "");
std::string join_base(const std::vector<Term>& terms);
std::string times(const std::string& k, const std::string& t);  // "k * t", "" = 1
void collect_index_defs(Ctx& c, const py::StmtList& body);
// Rewrites every subscript of statement `s` that indexes with nl.arange values, and removes its
// mask= keywords (masks become the bounds of the slices, as the migration guide's min()/slice
// example does).
void rewrite_index_uses(Ctx& c, const py::Stmt* s);
// Removes the definitions of arange names, index aliases and masks.
void delete_index_defs(Ctx& c, const std::map<const py::Stmt*, const py::StmtList*>& parents);
// `nisa.iota(<affine expression of arange names>, dtype=...)` as the 0.6 pattern form
// (dst, pattern, offset, channel_multiplier); false with a refusal when not affine.
bool iota_arguments(Ctx& c, const py::Expr* expr, std::string& pattern, std::string& offset, std::string& multiplier);
// The same for the affine predicate `lhs CMP rhs` of nisa.affine_select, as lhs - rhs.
// access_patterns.cpp
void collect_fresh_tensors(Ctx& c, const py::StmtList& body);
// `t[e_0, ..., e_n]` whose index expressions put several nl.arange values on one axis, as the
// 0.6 access pattern t.ap(...) (t[...] as an assignment target keeps a `[...]`). Adds the edit
// and its finding; false with `why` when the access cannot be written as one pattern.
bool rewrite_as_access_pattern(Ctx& c, const py::Stmt* s, const py::Subscript* sub,
                               const std::vector<const py::Expr*>& elts, const std::vector<Affine>& parts,
                               bool assigned, std::string& why);
// `T[ids[i_p, c], ...]` (rows of T picked by an index tile) as the 0.6 vector dynamic access
// T.ap(..., vector_offset=ids[...], indirect_dim=0). `masked`: index names a mask restricts.
bool rewrite_as_gather(Ctx& c, const py::Subscript* sub, const std::vector<const py::Expr*>& elts,
                       const std::set<std::string>& masked, std::string& why);
bool affine_select_arguments(Ctx& c, const py::Expr* lhs, const py::Expr* rhs, std::string& pattern,
                             std::string& offset, std::string& multiplier);

}  // namespace nki::migrate
