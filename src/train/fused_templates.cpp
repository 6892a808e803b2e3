#include "train/fused_templates.h"

#include "train/fused_lines.h"
#include "train/fused_rules.h"
#include "train/kernel_text.h"
#include "train/torch_expr.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <numeric>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace nki::train {

namespace {

const char* kHeader =
    "import neuronxcc.nki as nki\n"
    "import neuronxcc.nki.language as nl\n\n\n";

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// ---------------------------------------------------------------------------------------------
// The reference: forward() lines, its parameter names, and the modules built in __init__.

using lines::Module;
using lines::Reference;

std::optional<Reference> reference_from(const std::string& dir) {
  std::ifstream in(dir + "/reference.py");
  if (!in) return std::nullopt;
  Reference r;
  static const std::regex mod(R"(^self\.(\w+) = nn\.(LayerNorm|BatchNorm1d|PReLU|Linear)\((.*)\)$)");
  static const std::regex eps(R"(eps=([-0-9.e]+))");
  static const std::regex fwd(R"(^def forward\(self(.*)\):$)");
  bool in_forward = false, returned = false;
  for (std::string raw; std::getline(in, raw);) {
    std::string l = trim(raw);
    if (l.empty() || l[0] == '#') continue;
    std::smatch m;
    if (std::regex_match(l, m, fwd)) {
      in_forward = true;
      std::stringstream ss(m[1].str());
      for (std::string a; std::getline(ss, a, ',');)
        if (!trim(a).empty()) r.args.push_back(trim(a));
      continue;
    }
    if (!in_forward) {
      if (std::regex_match(l, m, mod)) {
        Module md;
        md.type = m[2].str();
        std::smatch e;
        std::string rest = m[3].str();
        if (std::regex_search(rest, e, eps)) md.eps = e[1].str();
        md.bias = rest.find("bias=False") == std::string::npos;
        r.modules[m[1].str()] = md;
      }
      continue;
    }
    if (l.rfind("def ", 0) == 0 || l.rfind("class ", 0) == 0) break;
    if (l == "return y") {
      returned = true;
      break;
    }
    r.lines.push_back(l);
  }
  if (!returned || r.lines.empty()) return std::nullopt;
  return r;
}

// ---------------------------------------------------------------------------------------------
// The line rules: fused_rules.h.
using lines::escape_with_placeholders;
using lines::Kind;
using lines::Rule;
using lines::rules;

// ---------------------------------------------------------------------------------------------
// Translation of forward() into float32 tile statements.

using lines::Access;
using lines::Operand;
using lines::Translation;

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

bool is_number(const std::string& s) {
  static const std::regex num(R"(-?[0-9]+(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?)");
  return std::regex_match(s, num);
}

std::string fmt_double(double d) {
  std::ostringstream s;
  s.precision(17);
  s << d;
  std::string t = s.str();
  if (t.find_first_of(".e") == std::string::npos) t += ".0";
  return t;
}

class Translator {
 public:
  Translator(const Reference& ref, const std::map<std::string, Operand>& ops, int64_t C, std::string linear_var = {},
             const RowExtension* ext = nullptr)
      : ref_(ref), ops_(ops), C_(C), linear_var_(std::move(linear_var)), ext_(ext) {}

  std::optional<Translation> run(size_t first_line = 0, size_t end_line = SIZE_MAX, bool need_y = true) {
    Translation t;
    for (size_t i = first_line; i < std::min(end_line, ref_.lines.size()); ++i)
      if (!line(ref_.lines[i], i, t)) return std::nullopt;
    if (need_y && !defined_y_) return std::nullopt;
    return t;
  }

  // Names bound by the caller before the lines run (e.g. the linear result).
  void bind(const std::string& name, const std::string& var) { local_[name] = var; }
  void mark_y_defined() { defined_y_ = true; local_["y"] = "v"; }

 private:
  // The NKI variable for a captured operand, or nullopt when it names nothing known.
  std::optional<std::string> operand(const std::string& text, Translation& t, bool reduced_ok) {
    if (is_number(text)) return text;
    auto l = local_.find(text);
    if (l != local_.end()) return l->second;
    std::string name = text.rfind("self.", 0) == 0 ? text.substr(5) : text;
    auto o = ops_.find(name);
    if (o == ops_.end()) return std::nullopt;
    (void)reduced_ok;
    if (t.reduced) return std::nullopt;  // a [rows, C] operand against one value per row
    t.used.insert(name);
    return o->second.var;
  }

  bool module_call(const std::string& lhs_var, const std::string& expr, size_t idx, Translation& t) {
    static const std::regex call(R"(^self\.(\w+)\((\w+)(?: \+ (\w+))?\)$)");
    static const std::regex gelu_call(R"(^F\.gelu\(self\.(\w+)\((\w+)\)\)$)");
    std::smatch m;
    bool gelu_after = false;
    if (std::regex_match(expr, m, gelu_call)) gelu_after = true;
    else if (!std::regex_match(expr, m, call)) return false;
    auto mod = ref_.modules.find(m[1].str());
    if (mod == ref_.modules.end()) return false;
    std::string M = m[1].str();
    auto in = operand(m[2].str(), t, false);
    if (!in) return false;
    std::string s = std::to_string(idx);
    std::string x = *in;
    if (!gelu_after && m[3].matched) {
      auto in2 = operand(m[3].str(), t, false);
      if (!in2) return false;
      t.body.push_back("a" + s + " = " + x + " + " + *in2);
      x = "a" + s;
    }
    if (t.reduced) return false;
    auto param = [&](const std::string& n) { return operand("self." + M + "." + n, t, false); };
    const Module& md = mod->second;
    std::string c = std::to_string(C_);
    std::string result;
    if (md.type == "LayerNorm") {
      auto w = param("weight"), b = param("bias");
      if (!w || !b) return false;
      t.body.push_back("mu" + s + " = nl.sum(" + x + ", axis=1, keepdims=True) * (1.0 / " + c + ")");
      t.body.push_back("d" + s + " = " + x + " - mu" + s);
      t.body.push_back("var" + s + " = nl.sum(d" + s + " * d" + s + ", axis=1, keepdims=True) * (1.0 / " + c + ")");
      result = "d" + s + " * nl.rsqrt(var" + s + " + " + md.eps + ") * " + *w + " + " + *b;
      t.summary.push_back("LayerNorm");
    } else if (md.type == "BatchNorm1d") {
      auto w = param("weight"), b = param("bias"), rm = param("running_mean"), rv = param("running_var");
      if (!w || !b || !rm || !rv) return false;
      result = "(" + x + " - " + *rm + ") * nl.rsqrt(" + *rv + " + " + md.eps + ") * " + *w + " + " + *b;
      t.summary.push_back("BatchNorm1d (eval)");
    } else if (md.type == "PReLU") {
      auto a = param("weight");
      if (!a) return false;
      result = "nl.maximum(" + x + ", 0.0) + " + *a + " * nl.minimum(" + x + ", 0.0)";
      t.summary.push_back("PReLU");
    } else {
      return false;
    }
    if (gelu_after) result = "nl.gelu(" + result + ")";
    t.body.push_back(lhs_var + " = " + result);
    return true;
  }

  bool line(const std::string& l, size_t idx, Translation& t) {
    size_t eq = l.find(" = ");
    if (eq == std::string::npos) return false;
    std::string lhs = l.substr(0, eq), expr = l.substr(eq + 3);
    if (!linear_var_.empty()) expr = linear_substituted(expr);
    // The variable assigned: y (the running value v), a temporary of the reference (h), or an
    // input rewritten by a prologue line.
    std::string lhs_var;
    if (lhs == "y") lhs_var = "v";
    else if (ops_.count(lhs) && ops_.at(lhs).access == Access::Full && !defined_y_) lhs_var = ops_.at(lhs).var;
    else if (std::regex_match(lhs, std::regex(R"([a-z]\w*)")) && !ops_.count(lhs)) lhs_var = "h_" + lhs;
    else return false;
    bool ok = module_call(lhs_var, expr, idx, t);
    if (!ok) {
      // 1: translated, 0: the pattern does not match, -1: it matches but cannot be translated
      auto apply = [&](Kind kind, const std::regex& re, const std::vector<std::string>& out, bool ext) -> int {
        std::smatch m;
        if (!std::regex_match(expr, m, re)) return 0;
        if (kind != Kind::Map && t.reduced) return -1;
        std::vector<std::string> vars;
        for (size_t g = 1; g < m.size(); ++g) {
          auto v = operand(m[g].str(), t, kind == Kind::Map);
          if (!v) return -1;
          vars.push_back(*v);
        }
        std::string s = std::to_string(idx);
        for (std::string o : out) {
          for (size_t g = vars.size(); g >= 1; --g) o = replace_all(o, "$" + std::to_string(g), vars[g - 1]);
          o = replace_all(o, "%", s);
          o = replace_all(o, "#RSQRTC", fmt_double(1.0 / std::sqrt(static_cast<double>(C_))));
          o = replace_all(o, "#LOGC", fmt_double(std::log(static_cast<double>(C_))));
          o = replace_all(o, "#C1", std::to_string(C_ > 1 ? C_ - 1 : 1));
          o = replace_all(o, "#C", std::to_string(C_));
          if (o.find("#I") != std::string::npos || o.find("#J") != std::string::npos) t.row_index = true;
          o = replace_all(o, "#I", "qi");
          o = replace_all(o, "#J", "jf");
          o = replace_all(o, "@", lhs_var);
          t.body.push_back(o);
        }
        if (kind == Kind::Reduce) t.reduced = true;
        if (ext) t.extended = true;
        t.summary.push_back(expr.size() > 48 ? expr.substr(0, 45) + "..." : expr);
        return 1;
      };
      int r = 0;
      if (ext_)
        for (const RowLineRule* e : ext_->rules)
          if ((r = apply(e->reduce ? Kind::Reduce : Kind::Row, e->re, e->out, true)) != 0) break;
      if (r == 0)
        for (const Rule& rule : rules())
          if ((r = apply(rule.kind, rule.re, rule.out, false)) != 0) break;
      if (r < 0) return false;
      ok = r > 0;
    } else if (t.summary.empty() || t.summary.back().empty()) {
      t.summary.push_back(expr);
    }
    if (!ok) return false;
    if (lhs == "y") {
      defined_y_ = true;
      local_["y"] = "v";
    } else if (lhs_var.rfind("h_", 0) == 0) {
      local_[lhs] = lhs_var;
    }
    return true;
  }

  // self.M(x) of an nn.Linear module becomes the variable holding the matmul result.
  std::string linear_substituted(const std::string& expr) const {
    std::string e = expr;
    for (const auto& [name, md] : ref_.modules)
      if (md.type == "Linear") {
        std::regex call("self\\." + name + "\\(" + ref_.args.at(0) + "\\)");
        e = std::regex_replace(e, call, "LINEAR_RESULT");
      }
    return e;
  }

 public:
  void bind_linear() { local_["LINEAR_RESULT"] = linear_var_; }
  // For the linear-chain template: one statement at a time, the row length of each statement
  // set by the caller (the chain's values have different widths).
  void set_row_length(int64_t C) { C_ = C; }
  bool step(const std::string& l, size_t idx, Translation& t) { return line(l, idx, t); }
  // The NKI variable a reference name is bound to so far, or "".
  std::string bound(const std::string& name) const {
    auto it = local_.find(name);
    return it == local_.end() ? std::string() : it->second;
  }

 private:
  const Reference& ref_;
  const std::map<std::string, Operand>& ops_;
  int64_t C_;
  std::string linear_var_;
  const RowExtension* ext_;
  std::map<std::string, std::string> local_;
  bool defined_y_ = false;
};

// Split translation: each forward() line is cut into one statement per operation
// (torch_expr.h) when the rules do not know the whole line, and nn.Linear calls become TensorE
// projections (the linear-chain template below). Row kernels fall back to it too.
struct ChainLinear {
  std::string module;
  int w_arg = -1, b_arg = -1;  // kernel argument indices
  int64_t in = 0, out = 0, kt = 0;
};

// A kernel input used as the right operand of `@` / torch.matmul: [*batch, R, C] in HBM, read
// per row tile (its batch the tile's batch when it has one).
struct MatrixArg {
  std::string arg;  // kernel parameter
  std::vector<int64_t> shape;
  int64_t batch = 1, rows = 0, cols = 0;
};

class ChainBuilder {
 public:
  ChainBuilder(const Reference& ref, const std::map<std::string, Operand>& ops,
               const std::map<std::string, ChainLinear>& linears, const std::map<std::string, int64_t>& widths, int64_t MT,
               const std::map<std::string, MatrixArg>& matrices = {}, std::map<std::string, double> constants = {})
      : ref_(ref), ops_(ops), linears_(linears), width_(widths), MT_(MT), matrices_(matrices),
        constants_(std::move(constants)), tr_(ref, ops, 1) {}
  // Batch count of the matrices read (1: none is batched).
  int64_t matrix_batch() const { return matrix_batch_; }
  const std::set<std::string>& used_matrices() const { return used_matrices_; }

  // Translates every reference line; false when any piece is outside the rules.
  bool run() {
    for (size_t i = 0; i < ref_.lines.size(); ++i) {
      const std::string& l = ref_.lines[i];
      size_t eq = l.find(" = ");
      if (eq == std::string::npos) return false;
      std::string lhs = l.substr(0, eq);
      // torch.linalg.multi_dot([a, b, c]) is the product a @ b @ c (the order of the products
      // changes rounding only).
      static const std::regex multi_dot(R"(torch\.linalg\.multi_dot\(\[(\w+(?:, \w+)+)\]\))");
      std::string rhs = l.substr(eq + 3);
      std::smatch md;
      if (std::regex_search(rhs, md, multi_dot))
        rhs = md.prefix().str() + "(" + std::regex_replace(md[1].str(), std::regex(", "), " @ ") + ")" + md.suffix().str();
      std::optional<expr::Tree> tree = expr::parse(rhs);
      if (!tree) return false;
      tree_ = &*tree;
      subst_.clear();
      std::optional<std::string> v = reduce(tree->root, lhs);
      if (!v) return false;
      assigned_.insert(lhs);
    }
    return !t_.reduced || true;
  }

  Translation& translation() { return t_; }
  const std::set<std::string>& used_linears() const { return used_; }
  int64_t width_of(const std::string& name) const {
    auto it = width_.find(name);
    return it == width_.end() ? -1 : it->second;
  }

 private:
  std::string text(int n) const { return expr::text_with(*tree_, n, subst_); }

  // The row length of the tiles a statement reads: every tile operand must agree.
  std::optional<int64_t> statement_width(const std::string& e) const {
    static const std::regex ident(R"((?:self\.)?[A-Za-z_][A-Za-z_0-9]*(?:\.[A-Za-z_][A-Za-z_0-9]*)*)");
    int64_t w = -1;
    for (auto it = std::sregex_iterator(e.begin(), e.end(), ident); it != std::sregex_iterator(); ++it) {
      std::string name = it->str();
      if (name.rfind("self.", 0) == 0) name = name.substr(5);
      // `y.to` / `h.shape`: a method or attribute of a known name is that name.
      while (!width_.count(name) && !ops_.count(name) && !ref_.modules.count(name) && name.find('.') != std::string::npos)
        name = name.substr(0, name.rfind('.'));
      int64_t x = -1;
      if (auto wi = width_.find(name); wi != width_.end()) x = wi->second;
      else if (auto o = ops_.find(name); o != ops_.end()) {
        if (o->second.access == Access::Row) x = o->second.shape[0];
        else continue;  // columns and scalars broadcast over any row length
      } else {
        // A module call `self.ln(h)`: its parameters have the row length.
        auto m = ref_.modules.find(name);
        if (m == ref_.modules.end()) continue;
        auto p = ops_.find(name + ".weight");
        if (p == ops_.end() || p->second.access != Access::Row) continue;
        x = p->second.shape[0];
      }
      if (w >= 0 && x != w) return std::nullopt;
      w = x;
    }
    if (w < 0) return std::nullopt;
    return w;
  }

  // Emits `target = e` through the line rules; true when a rule took it.
  bool emit(const std::string& target, const std::string& e) {
    std::optional<int64_t> w = statement_width(e);
    if (!w) {
      if (std::getenv("NKI_TPL_DEBUG")) std::fprintf(stderr, "chain: no width for '%s'\n", e.c_str());
      return false;
    }
    tr_.set_row_length(*w);
    Translation before = t_;
    if (!tr_.step(target + " = " + e, idx_++, t_)) {
      if (std::getenv("NKI_TPL_DEBUG")) std::fprintf(stderr, "chain: no rule for '%s' (width %lld)\n", e.c_str(), (long long)*w);
      t_ = before;
      return false;
    }
    width_[target] = t_.reduced && target == "y" ? 1 : *w;
    return true;
  }

  std::string fresh() { return "s" + std::to_string(tmp_++); }

  // A compile-time number: literals, input.shape[i], math.sqrt / arithmetic of those.
  std::optional<double> fold(int n) const {
    const expr::Node& node = tree_->nodes[static_cast<size_t>(n)];
    std::string tx = tree_->text.substr(node.begin, node.end - node.begin);
    switch (node.kind) {
      case expr::NodeKind::Number:
        try {
          return std::stod(tx);
        } catch (const std::exception&) {
          return std::nullopt;
        }
      case expr::NodeKind::Paren: return fold(node.operands[0]);
      case expr::NodeKind::Unary: {
        auto v = fold(node.operands[0]);
        if (v && tx[0] == '-') return -*v;
        return std::nullopt;
      }
      case expr::NodeKind::Subscript: {
        auto c = constants_.find(tx);
        if (c != constants_.end()) return c->second;
        return std::nullopt;
      }
      case expr::NodeKind::Call: {
        if (expr::dotted_name(*tree_, node.callee) != "math.sqrt" || node.operands.size() != 1 || node.keyword_args)
          return std::nullopt;
        auto v = fold(node.operands[0]);
        if (!v || *v < 0) return std::nullopt;
        return std::sqrt(*v);
      }
      case expr::NodeKind::Binary: {
        auto a = fold(node.operands[0]), b = fold(node.operands[1]);
        if (!a || !b) return std::nullopt;
        const expr::Node& l = tree_->nodes[static_cast<size_t>(node.operands[0])];
        const expr::Node& r = tree_->nodes[static_cast<size_t>(node.operands[1])];
        std::string op = trim(tree_->text.substr(l.end, r.begin - l.end));
        if (op == "+") return *a + *b;
        if (op == "-") return *a - *b;
        if (op == "*") return *a * *b;
        if (op == "/" && *b != 0) return *a / *b;
        if (op == "**") return std::pow(*a, *b);
        return std::nullopt;
      }
      default: return std::nullopt;
    }
  }

  // The right operand of a product when it names a matrix input: `w`, `w.T`, `w.t()`, `w.mT`,
  // `w.transpose(-2, -1)` (second: transposed).
  std::optional<std::pair<const MatrixArg*, bool>> matrix_operand(int n) const {
    std::string tx = text(n);
    static const std::regex form(R"(^(\w+)(\.T|\.mT|\.t\(\)|\.transpose\((-2, -1|-1, -2|0, 1|1, 0)\))?$)");
    std::smatch m;
    if (!std::regex_match(tx, m, form)) return std::nullopt;
    // A name the lines assigned (a local, or an input rewritten by a prologue line) is a value in
    // SBUF now, not the input in HBM.
    if (assigned_.count(m[1].str()) || (width_.count(m[1].str()) && !ops_.count(m[1].str()))) return std::nullopt;
    auto it = matrices_.find(m[1].str());
    if (it == matrices_.end()) return std::nullopt;
    std::string how = m[3].str();
    if ((how == "0, 1" || how == "1, 0") && it->second.shape.size() != 2) return std::nullopt;
    if (m[2].matched && (m[2].str() == ".T" || m[2].str() == ".t()") && it->second.shape.size() != 2) return std::nullopt;
    return std::make_pair(&it->second, m[2].matched);
  }

  // The NKI variable of a value or a row input, "" when it is neither.
  std::string var_of(const std::string& name) const {
    std::string var = tr_.bound(name);
    if (!var.empty()) return var;
    auto o = ops_.find(name);
    if (o == ops_.end() || o->second.access != Access::Full) return "";
    return o->second.var;
  }

  // in [MT, kin] @ rhs chunks [kt, N] on TensorE; the result bound to `name`.
  void emit_projection(const std::string& name, const std::string& var, int64_t kin, int64_t kt, int64_t nout,
                       const std::vector<std::string>& rhs, const std::string& bias, const std::string& what) {
    std::string k = std::to_string(lin_++);
    t_.body.push_back("acc" + k + " = nl.zeros((" + std::to_string(MT_) + ", " + std::to_string(nout) +
                      "), dtype=nl.float32, buffer=nl.psum)");
    for (int64_t c = 0; c < kin / kt; ++c) {
      std::string cs = std::to_string(c);
      std::string piece = kin == kt ? var : var + "[:, " + std::to_string(c * kt) + ":" + std::to_string((c + 1) * kt) + "]";
      t_.body.push_back("xt" + k + "_" + cs + " = nl.copy(nisa.nc_transpose(" + piece + "), dtype=nl.float32)");
      t_.body.push_back("acc" + k + " += nl.matmul(xt" + k + "_" + cs + ", " + rhs[static_cast<size_t>(c)] + ", transpose_x=True)");
    }
    std::string out_var = name == "y" ? "v" : "lin" + k;
    std::string val = "nl.copy(acc" + k + ", dtype=nl.float32)";
    if (!bias.empty()) val = "nl.add(" + val + ", " + bias + ")";
    t_.body.push_back(out_var + " = " + val);
    tr_.bind(name, out_var);
    width_[name] = nout;
    t_.summary.push_back(what + " on TensorE");
    if (name == "y") tr_.mark_y_defined();
  }

  // lhs @ matrix: the matrix read for this row tile in chunks of kt contraction rows.
  std::optional<std::string> matmul(int n, int lhs, int rhs_node, const std::string& target) {
    auto mo = matrix_operand(rhs_node);
    if (!mo) return std::nullopt;
    const MatrixArg& A = *mo->first;
    const bool tr = mo->second;
    const int64_t kin = tr ? A.cols : A.rows, nout = tr ? A.rows : A.cols;
    const int64_t kt = divisor_at_most(kin, 128);
    const int64_t ns = nout <= 128 ? nout : divisor_at_most(nout, 128);
    if (kt < 8 || nout > 512 || ns < 8) return std::nullopt;
    if (A.batch > 1) {
      if (matrix_batch_ > 1 && matrix_batch_ != A.batch) return std::nullopt;
      matrix_batch_ = A.batch;
    }
    auto in = reduce(lhs);
    if (!in || width_of(*in) != kin) return std::nullopt;
    std::string var = var_of(*in);
    if (var.empty()) return std::nullopt;
    std::string k = std::to_string(lin_);
    // Rows of the matrix's [batch * R, C] view where this tile's batch starts.
    std::string base = A.batch > 1 ? "{BATCH} * " + std::to_string(A.rows) + " + " : "";
    std::vector<std::string> rhs;
    for (int64_t c = 0; c < kin / kt; ++c) {
      std::string m = "mx" + k + "_" + std::to_string(c);
      std::string c0 = std::to_string(c * kt), c1 = std::to_string((c + 1) * kt);
      if (!tr) {
        t_.body.push_back(m + "_h = nl.load(" + A.arg + "_2d[" + base + c0 + ":" + base + c1 + ", 0:" + std::to_string(nout) + "])");
        t_.body.push_back(m + " = nl.copy(" + m + "_h, dtype=nl.float32)");
      } else {
        t_.body.push_back(m + " = nl.ndarray((" + std::to_string(kt) + ", " + std::to_string(nout) + "), dtype=nl.float32, buffer=nl.sbuf)");
        for (int64_t j = 0; j < nout / ns; ++j) {
          std::string j0 = std::to_string(j * ns), j1 = std::to_string((j + 1) * ns);
          t_.body.push_back(m + "_h" + std::to_string(j) + " = nl.load_transpose2d(" + A.arg + "_2d[" + base + j0 + ":" + base + j1 + ", " +
                            c0 + ":" + c1 + "])");
          t_.body.push_back(m + "[:, " + j0 + ":" + j1 + "] = nl.copy(" + m + "_h" + std::to_string(j) + ", dtype=nl.float32)");
        }
      }
      rhs.push_back(m);
    }
    used_matrices_.insert(A.arg);
    std::string name = target.empty() ? fresh() : target;
    emit_projection(name, var, kin, kt, nout, rhs, "", A.arg + (tr ? ".T" : "") + " product");
    subst_[n] = name;
    return name;
  }

  // Reduces node n to a name holding its value (assigned to `target` when given).
  std::optional<std::string> reduce(int n, const std::string& target = {}) {
    const expr::Node& node = tree_->nodes[static_cast<size_t>(n)];
    if (node.kind == expr::NodeKind::Paren) {
      auto v = reduce(node.operands[0], target);
      if (v) subst_[n] = *v;
      return v;
    }
    if ((node.kind == expr::NodeKind::Name || node.kind == expr::NodeKind::Number) && target.empty()) {
      return tree_->text.substr(node.begin, node.end - node.begin);
    }
    // A compile-time number (x.shape[-1], math.sqrt(64)) is written as the number.
    if (node.kind != expr::NodeKind::Number && target.empty())
      if (std::optional<double> c = fold(n)) {
        subst_[n] = fmt_double(*c);
        return subst_[n];
      }
    // Products with a matrix input: a @ b, torch.matmul(a, b).
    if (node.kind == expr::NodeKind::Binary) {
      const expr::Node& l = tree_->nodes[static_cast<size_t>(node.operands[0])];
      const expr::Node& r = tree_->nodes[static_cast<size_t>(node.operands[1])];
      if (trim(tree_->text.substr(l.end, r.begin - l.end)) == "@") return matmul(n, node.operands[0], node.operands[1], target);
    }
    if (node.kind == expr::NodeKind::Call && expr::dotted_name(*tree_, node.callee) == "torch.matmul") {
      if (node.operands.size() != 2 || node.keyword_args) return std::nullopt;
      return matmul(n, node.operands[0], node.operands[1], target);
    }
    // A projection: its input reduced to a name, then the matmul.
    if (node.kind == expr::NodeKind::Call) {
      std::string callee = expr::dotted_name(*tree_, node.callee);
      if (callee.rfind("self.", 0) == 0 && linears_.count(callee.substr(5))) {
        if (node.operands.size() != 1 || node.keyword_args) return std::nullopt;
        auto in = reduce(node.operands[0]);
        if (!in) return std::nullopt;
        const ChainLinear& L = linears_.at(callee.substr(5));
        if (width_of(*in) != L.in) return std::nullopt;
        std::string var = tr_.bound(*in);
        if (var.empty()) {
          auto o = ops_.find(*in);
          if (o == ops_.end() || o->second.access != Access::Full) return std::nullopt;
          var = o->second.var;
        }
        std::string name = target.empty() ? fresh() : target;
        std::vector<std::string> rhs;
        for (int64_t c = 0; c < L.in / L.kt; ++c) rhs.push_back("wt_" + L.module + "_" + std::to_string(c));
        emit_projection(name, var, L.in, L.kt, L.out, rhs, L.b_arg >= 0 ? "bias_" + L.module : "", "self." + L.module + "(...)");
        used_.insert(L.module);
        subst_[n] = name;
        return name;
      }
    }
    // The whole node as one statement, when a rule knows it with its operands as they are.
    std::string whole = text(n);
    std::string name = target.empty() ? fresh() : target;
    if (emit(name, whole)) {
      subst_[n] = name;
      return name;
    }
    // Otherwise its operands first, then the node over their names.
    if (node.operands.empty() && (node.kind != expr::NodeKind::Call || node.callee < 0)) return std::nullopt;
    std::vector<int> parts = node.operands;
    if (node.kind == expr::NodeKind::Call) {
      const expr::Node& c = tree_->nodes[static_cast<size_t>(node.callee)];
      // x.pow(2): the object of a method call is an operand; torch.exp / F.gelu are not.
      if (c.kind == expr::NodeKind::Attribute) {
        std::string root = expr::dotted_name(*tree_, c.callee);
        bool library = root == "torch" || root.rfind("torch.", 0) == 0 || root == "F" || root == "math" || root == "nn";
        if (!library && root.rfind("self", 0) != 0) parts.insert(parts.begin(), c.callee);
      }
    }
    bool changed = false;
    for (int p : parts) {
      const expr::Node& pn = tree_->nodes[static_cast<size_t>(p)];
      if (pn.kind == expr::NodeKind::Name || pn.kind == expr::NodeKind::Number || pn.kind == expr::NodeKind::String) continue;
      auto v = reduce(p);
      if (!v) return std::nullopt;
      changed = true;
    }
    if (!changed) return std::nullopt;
    if (!emit(name, text(n))) return std::nullopt;
    subst_[n] = name;
    return name;
  }

  const Reference& ref_;
  const std::map<std::string, Operand>& ops_;
  const std::map<std::string, ChainLinear>& linears_;
  std::map<std::string, int64_t> width_;
  int64_t MT_;
  const std::map<std::string, MatrixArg>& matrices_;
  std::map<std::string, double> constants_;  // input.shape[i] and the like
  Translator tr_;
  Translation t_;
  const expr::Tree* tree_ = nullptr;
  std::map<int, std::string> subst_;
  std::set<std::string> used_;
  std::set<std::string> used_matrices_;
  std::set<std::string> assigned_;  // names the lines so far assigned
  int64_t matrix_batch_ = 1;
  size_t idx_ = 0;
  int tmp_ = 0, lin_ = 0;
};


std::string var_name(const std::string& arg) { return "t_" + arg; }

// Operands of a row kernel over [R, C] rows: full tiles, [R, 1] columns, [C] rows and [1]
// scalars broadcast to the tile.
std::optional<std::map<std::string, Operand>> row_operands(const TaskSpec& t, const std::vector<std::string>& args,
                                                           const std::vector<int64_t>& full, int64_t R, int64_t C) {
  std::vector<TensorSpec> all = t.kernel_args();
  std::map<std::string, Operand> ops;
  for (size_t i = 0; i < all.size(); ++i) {
    const TensorSpec& s = all[i];
    Operand o{args[i], var_name(args[i]), Access::Full, s.dtype, s.shape};
    if (s.shape == full) o.access = Access::Full;
    else if (s.shape == std::vector<int64_t>{C}) o.access = Access::Row;
    else if (product(s.shape) == 1) o.access = Access::Scalar;
    else if (product(s.shape) == R && s.shape.back() == 1 && C != 1) o.access = Access::Column;
    else return std::nullopt;
    if (!is_float(s.dtype) && s.dtype != DType::Int32) return std::nullopt;
    ops[s.name] = o;
  }
  return ops;
}

// The loads of broadcast operands (before the tile loop), with `rows` partitions.
void emit_broadcasts(std::ostringstream& s, const std::map<std::string, Operand>& ops, const std::set<std::string>& used,
                     int64_t rows, int64_t C, const std::string& ind) {
  for (const auto& [name, o] : ops) {
    if (!used.count(name) || (o.access != Access::Row && o.access != Access::Scalar)) continue;
    int64_t len = o.access == Access::Row ? C : 1;
    s << ind << o.var << "_h = nl.load(" << o.arg << ".reshape((1, " << len << ")))\n";
    s << ind << o.var << " = nl.copy(" << o.var << "_h, dtype=nl.float32).broadcast_to((" << rows << ", " << C << "))\n";
  }
}

std::string plan_text(const std::string& layout, const Translation& tr) {
  std::string p = layout + "; every line of forward() is computed on float32 tiles (";
  for (size_t i = 0; i < tr.summary.size(); ++i) p += (i ? ", " : "") + tr.summary[i];
  return p + ") and the result is stored once per tile.";
}

}  // namespace

// The shared entry points of fused_lines.h (the generators of fused_axis_templates.cpp).
std::optional<lines::Reference> lines::read_reference(const std::string& dir) { return reference_from(dir); }

std::optional<lines::Translation> lines::translate_lines(const Reference& ref, const std::map<std::string, Operand>& ops,
                                                         int64_t C, size_t first, size_t end, bool y_defined) {
  Translator tr(ref, ops, C);
  if (y_defined) tr.mark_y_defined();
  return tr.run(first, end, y_defined);
}

void lines::emit_broadcast_loads(std::ostringstream& s, const std::map<std::string, Operand>& ops,
                                 const std::set<std::string>& used, int64_t rows, int64_t C, const std::string& ind) {
  train::emit_broadcasts(s, ops, used, rows, C, ind);
}

std::string lines::plan_sentence(const std::string& layout, const Translation& tr) { return train::plan_text(layout, tr); }

std::regex row_rule_regex(const std::string& pattern) { return std::regex(escape_with_placeholders(pattern)); }

std::optional<RowTail> translate_row_tail(const TaskSpec& t, const std::vector<std::string>& args, size_t first_line,
                                          int64_t rows, int64_t width, const std::vector<int64_t>& full,
                                          const std::vector<std::string>& skip) {
  std::optional<Reference> ref = reference_from(t.dir);
  if (!ref) return std::nullopt;
  std::vector<TensorSpec> all = t.kernel_args();
  if (all.size() != args.size()) return std::nullopt;
  std::map<std::string, Operand> ops;
  for (size_t i = 0; i < all.size(); ++i) {
    const TensorSpec& s = all[i];
    if (std::find(skip.begin(), skip.end(), s.name) != skip.end() || !is_float(s.dtype)) continue;
    Operand o{args[i], var_name(args[i]), Access::Row, s.dtype, s.shape};
    if (s.shape == full) o.access = Access::Full;
    else if (s.shape == std::vector<int64_t>{width}) o.access = Access::Row;
    else if (product(s.shape) == 1) o.access = Access::Scalar;
    else continue;  // not readable from the tail: a line naming it finds no operand
    ops[s.name] = o;
  }
  Translator tr(*ref, ops, width);
  tr.mark_y_defined();
  std::optional<Translation> tl = tr.run(first_line);
  if (!tl || tl->reduced || tl->row_index) return std::nullopt;
  RowTail r;
  std::ostringstream s;
  emit_broadcasts(s, ops, tl->used, rows, width, "");
  std::istringstream lines(s.str());
  for (std::string l; std::getline(lines, l);) r.setup.push_back(l);
  for (const auto& [name, o] : ops)
    if (o.access == Access::Full && tl->used.count(name))
      for (size_t i = 0; i < all.size(); ++i)
        if (all[i].name == name) r.full_loads.push_back({static_cast<int>(i), o.var});
  r.body = tl->body;
  r.summary = tl->summary;
  return r;
}

std::optional<ForwardLines> read_forward(const std::string& task_dir) {
  std::optional<Reference> r = reference_from(task_dir);
  if (!r) return std::nullopt;
  return ForwardLines{r->args, r->lines, !r->modules.empty()};
}

void add_fused_row_templates(const TaskSpec& t, const std::vector<std::string>& args, std::vector<TemplateKernel>& out,
                             const RowExtension* ext) {
  if (t.outputs.size() != 1 || t.inputs.empty() || !is_float(t.outputs[0].dtype)) return;
  std::optional<Reference> ref = reference_from(t.dir);
  if (!ref || ref->args.size() != t.inputs.size()) return;
  for (const auto& [n, m] : ref->modules)
    if (m.type == "Linear") return;
  const std::vector<int64_t>& xs = t.inputs[0].shape;
  if (xs.size() < 2 || !is_float(t.inputs[0].dtype)) return;
  int64_t C = xs.back(), R = product(xs) / C;
  if (C > 4096) return;  // several [128, C] float32 tiles must fit SBUF
  std::optional<std::map<std::string, Operand>> ops = row_operands(t, args, xs, R, C);
  if (!ops) return;
  Translator tr(*ref, *ops, C, {}, ext);
  std::optional<Translation> tl = tr.run();
  if (!tl && !ext) {
    // Lines that combine several operations: translated one operation at a time.
    static const std::map<std::string, ChainLinear> no_linears;
    std::map<std::string, int64_t> widths;
    for (const auto& [name, op] : *ops)
      if (op.access == Access::Full) widths[name] = C;
    ChainBuilder split(*ref, *ops, no_linears, widths, R < 128 ? R : 128);
    if (split.run() && split.width_of("y") >= 0) tl = split.translation();
  }
  if (!tl || (ext && !tl->extended)) return;
  const TensorSpec& o = t.outputs[0];
  int64_t oc = tl->reduced ? 1 : C;
  if (product(o.shape) != R * oc) return;
  if (!tl->reduced && o.shape != xs) return;

  // With #I / #J (a triangular mask) the rows are walked matrix by matrix: S rows each, in
  // tiles of up to 128, so the row index within the matrix (qi) is affine in the loop indices.
  bool by_matrix = tl->row_index;
  int64_t S = xs[xs.size() - 2];
  int64_t span = by_matrix ? S : R;  // rows walked by the tile loop
  bool ragged = span > 128 && span % 128 != 0;
  int64_t P = span < 128 ? span : 128;
  int64_t tiles = (span + P - 1) / P;
  std::ostringstream s;
  // kHeader, with nki.isa for the extension rules' nisa.* calls
  s << "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n"
    << (tl->extended ? "import neuronxcc.nki.isa as nisa\n" : "") << "\n\n@nki.jit\ndef kernel(";
  for (size_t i = 0; i < args.size(); ++i) s << (i ? ", " : "") << args[i];
  s << "):\n";
  s << "    out = nl.ndarray(" << tuple_text(o.shape) << ", dtype=nl." << dtype_name(o.dtype) << ", buffer=nl.shared_hbm)\n";
  std::map<std::string, std::string> view;
  for (const auto& [name, op] : *ops) {
    if (!tl->used.count(name) || (op.access != Access::Full && op.access != Access::Column)) continue;
    std::vector<int64_t> want = {R, op.access == Access::Full ? C : 1};
    if (op.shape == want) {
      view[name] = op.arg;
    } else {
      view[name] = op.arg + "_2d";
      s << "    " << view[name] << " = " << op.arg << ".reshape(" << tuple_text(want) << ")\n";
    }
  }
  std::string ov = "out";
  if (o.shape != std::vector<int64_t>{R, oc}) {
    ov = "out_2d";
    s << "    out_2d = out.reshape((" << R << ", " << oc << "))\n";
  }
  emit_broadcasts(s, *ops, tl->used, P, C, "    ");
  s << "    P = " << (span < 128 ? std::to_string(span) : "nl.tile_size.pmax") << "\n";
  std::string full_idx, col_idx, out_idx, mask;
  if (ragged || by_matrix) {
    s << "    ip = nl.arange(P)[:, None]\n";
    s << "    jf = nl.arange(" << C << ")[None, :]\n";
    s << "    jo = nl.arange(1)[None, :]\n";
    full_idx = "[rows, jf]";
    col_idx = "[rows, jo]";
    if (ragged) mask = ", mask=(" + std::string(by_matrix ? "qi < " : "rows < ") + std::to_string(span) + ")";
  } else {
    full_idx = col_idx = "[i * P:(i + 1) * P, :]";
  }
  out_idx = tl->reduced ? col_idx : full_idx;
  std::string ind = "        ";
  if (by_matrix) {
    s << "    for b in nl.affine_range(" << R / S << "):\n";
    s << "        for i in nl.affine_range(" << tiles << "):\n";
    ind = "            ";
    s << ind << "qi = i * P + ip\n";
    s << ind << "rows = b * " << S << " + qi\n";
  } else {
    s << "    for i in nl.affine_range(" << tiles << "):\n";
    if (ragged) s << ind << "rows = i * P + ip\n";
  }
  for (const auto& [name, op] : *ops) {
    if (!view.count(name)) continue;
    std::string idx = op.access == Access::Full ? full_idx : col_idx;
    if (op.dtype == DType::Float32) {
      s << ind << op.var << " = nl.load(" << view[name] << idx << mask << ")\n";
    } else {
      s << ind << op.var << "_h = nl.load(" << view[name] << idx << mask << ")\n";
      s << ind << op.var << " = nl.copy(" << op.var << "_h, dtype=nl.float32)\n";
    }
  }
  for (const std::string& l : tl->body) s << ind << l << "\n";
  s << ind << "nl.store(" << ov << out_idx << ", value=v" << mask << ")\n";
  s << "    return out\n";
  std::string layout = "The inputs are viewed as [" + std::to_string(R) + ", " + std::to_string(C) + "] (rows on partitions)";
  if (by_matrix)
    layout += ", walked per [" + std::to_string(S) + ", " + std::to_string(C) + "] matrix so the row index within it (qi) is affine";
  layout += " in tiles of up to 128 rows" + std::string(ragged ? ", the ragged last tile masked" : "");
  std::string name = ext && tl->extended ? ext->name : "fused_row";
  out.push_back({name + (tl->reduced ? ":reduce" : ":map"), plan_text(layout, *tl), s.str()});
}

namespace {

// y = self.M(x.mean(dim=1)) for x [B, S, K]: per batch row, the sequence sum x_b^T @ ones comes
// out of TensorE already transposed ([K, 1], contraction over S on partitions), which is the
// stationary operand of the projection (contraction over K): out[b] = (sum / S) @ W.T + bias.
void add_pooled_linear(const TaskSpec& t, const std::vector<std::string>& args, const Reference& ref,
                       const std::string& lin_name, std::vector<TemplateKernel>& out) {
  const TensorSpec& x = t.inputs[0];
  if (x.shape.size() != 3 || t.inputs.size() != 1) return;
  int64_t B = x.shape[0], S = x.shape[1], K = x.shape[2];
  std::vector<TensorSpec> all = t.kernel_args();
  int w_idx = -1, b_idx = -1;
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].name == lin_name + ".weight") w_idx = static_cast<int>(i);
    else if (all[i].name == lin_name + ".bias") b_idx = static_cast<int>(i);
    else if (i != 0) return;  // epilogue parameters: not handled here
  }
  if (w_idx < 0 || all[w_idx].shape.size() != 2 || all[w_idx].shape[1] != K) return;
  int64_t N = all[w_idx].shape[0];
  const TensorSpec& o = t.outputs[0];
  if (o.shape != std::vector<int64_t>{B, N} || N > 512) return;
  int64_t ST = divisor_at_most(S, 128), KT = divisor_at_most(K, 128), NS = divisor_at_most(N, 128);
  if (ST < 8 || KT < 8 || NS < 8) return;
  std::map<std::string, Operand> ops;
  Translator tr(ref, ops, N, "lin");
  tr.bind_linear();
  tr.mark_y_defined();
  std::optional<Translation> tl = tr.run(1);
  if (!tl || tl->reduced) return;
  tl->summary.insert(tl->summary.begin(), "mean over the sequence, then the projection");
  tl->body.insert(tl->body.begin(), "v = lin");  // the first line (pool + projection) is the matmul itself
  std::ostringstream s;
  s << kHeader << "@nki.jit\ndef kernel(";
  for (size_t i = 0; i < args.size(); ++i) s << (i ? ", " : "") << args[i];
  s << "):\n";
  s << "    out = nl.ndarray(" << tuple_text(o.shape) << ", dtype=nl." << dtype_name(o.dtype) << ", buffer=nl.shared_hbm)\n";
  s << "    ones = nl.ones((" << ST << ", 1), dtype=nl.float32)\n";
  if (b_idx >= 0) {
    s << "    b_h = nl.load(" << args[b_idx] << ".reshape((1, " << N << ")))\n";
    s << "    b_row = nl.copy(b_h, dtype=nl.float32)\n";
  }
  s << "    for b in nl.affine_range(" << B << "):\n";
  s << "        acc = nl.zeros((1, " << N << "), dtype=nl.float32, buffer=nl.psum)\n";
  s << "        for k in nl.affine_range(" << K / KT << "):\n";
  s << "            col = nl.zeros((" << KT << ", 1), dtype=nl.float32, buffer=nl.psum)\n";
  s << "            for j in nl.affine_range(" << S / ST << "):\n";
  s << "                xs = nl.load(" << args[0] << "[b, j * " << ST << ":(j + 1) * " << ST << ", k * " << KT << ":(k + 1) * " << KT
    << "])\n";
  s << "                col += nl.matmul(nl.copy(xs, dtype=nl.float32), ones, transpose_x=True)\n";
  s << "            pooled = nl.copy(col, dtype=nl.float32) * (1.0 / " << S << ")\n";
  s << "            rhs = nl.ndarray((" << KT << ", " << N << "), dtype=nl.float32, buffer=nl.sbuf)\n";
  s << "            for q in nl.affine_range(" << N / NS << "):\n";
  s << "                w_t = nl.load_transpose2d(" << args[w_idx] << "[q * " << NS << ":(q + 1) * " << NS << ", k * " << KT
    << ":(k + 1) * " << KT << "])\n";
  s << "                rhs[:, q * " << NS << ":(q + 1) * " << NS << "] = nl.copy(w_t, dtype=nl.float32)\n";
  s << "            acc += nl.matmul(pooled, rhs, transpose_x=True)\n";
  s << "        lin = nl.copy(acc, dtype=nl.float32)\n";
  if (b_idx >= 0) s << "        lin = lin + b_row\n";
  for (const std::string& l : tl->body) s << "        " << l << "\n";
  s << "        nl.store(out[b:b + 1, :], value=v)\n";
  s << "    return out\n";
  std::string layout = "For each of the " + std::to_string(B) + " batch rows the sequence sum comes from TensorE as x_b^T @ ones (" +
                       std::to_string(S) + " positions in chunks of " + std::to_string(ST) +
                       "), already transposed for the projection out[b] = mean @ W.T" + (b_idx >= 0 ? " + b" : "");
  out.push_back({"fused_linear:pooled", plan_text(layout, *tl), s.str()});
}

}  // namespace

void add_fused_linear_templates(const TaskSpec& t, const std::vector<std::string>& args,
                                std::vector<TemplateKernel>& out) {
  if (t.outputs.size() != 1 || t.inputs.empty() || !is_float(t.outputs[0].dtype)) return;
  std::optional<Reference> ref = reference_from(t.dir);
  if (!ref || ref->args.empty() || ref->args.size() != t.inputs.size()) return;
  std::string lin_name;
  for (const auto& [n, m] : ref->modules)
    if (m.type == "Linear") {
      if (!lin_name.empty()) return;  // one projection only
      lin_name = n;
    }
  if (lin_name.empty()) return;
  const Module& lin = ref->modules.at(lin_name);
  if (ref->lines[0] == "y = self." + lin_name + "(" + ref->args[0] + ".mean(dim=1))") {
    add_pooled_linear(t, args, *ref, lin_name, out);
    return;
  }
  const TensorSpec& x = t.inputs[0];
  if (x.shape.size() < 2 || !is_float(x.dtype)) return;
  int64_t K = x.shape.back(), M = product(x.shape) / K;
  // The weight [N, K] (and bias [N]) among the parameters.
  std::vector<TensorSpec> all = t.kernel_args();
  int w_idx = -1, b_idx = -1;
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].name == lin_name + ".weight") w_idx = static_cast<int>(i);
    if (all[i].name == lin_name + ".bias") b_idx = static_cast<int>(i);
  }
  if (w_idx < 0 || all[w_idx].shape.size() != 2 || all[w_idx].shape[1] != K) return;
  if (lin.bias != (b_idx >= 0)) return;
  int64_t N = all[w_idx].shape[0];
  const TensorSpec& o = t.outputs[0];
  if (product(o.shape) != M * N || o.shape.back() != N) return;
  int64_t MT = divisor_at_most(M, 128), KT = divisor_at_most(K, 128);
  if (MT < 8 || KT < 8) return;
  // The first line holding the projection: RMSNorm folded into it, or the projection itself.
  static const std::regex rms_proj(R"(^y = self\.(\w+)\((\w+) \* torch\.rsqrt\((\w+)\.pow\(2\)\.mean\(-1, keepdim=True\) \+ ([-0-9.e]+)\) \* self\.(\w+)\)$)");
  std::smatch rm;
  bool rms = std::regex_match(ref->lines[0], rm, rms_proj) && rm[1].str() == lin_name && rm[2].str() == ref->args[0] &&
             rm[3].str() == ref->args[0];
  int g_idx = -1;
  std::string rms_eps;
  if (rms) {
    rms_eps = rm[4].str();
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i].name == rm[5].str()) g_idx = static_cast<int>(i);
    if (g_idx < 0 || all[g_idx].shape != std::vector<int64_t>{K}) return;
  }
  // Operands of the epilogue over the [M, N] result (the weight and x itself are not).
  std::map<std::string, Operand> ops;
  std::vector<int64_t> out2d = {M, N};
  for (size_t i = 0; i < all.size(); ++i) {
    if (static_cast<int>(i) == w_idx || static_cast<int>(i) == b_idx || static_cast<int>(i) == g_idx || i == 0) continue;
    const TensorSpec& s = all[i];
    Operand op{args[i], var_name(args[i]), Access::Full, s.dtype, s.shape};
    if (s.shape == o.shape) op.access = Access::Full;
    else if (s.shape == std::vector<int64_t>{N}) op.access = Access::Row;
    else if (product(s.shape) == 1) op.access = Access::Scalar;
    else return;
    if (!is_float(s.dtype) && s.dtype != DType::Int32) return;
    ops[s.name] = op;
  }
  Translator tr(*ref, ops, N, "lin");
  tr.bind_linear();
  std::optional<Translation> tl;
  if (rms) {
    tr.mark_y_defined();
    tl = tr.run(1);
    if (tl) {
      tl->summary.insert(tl->summary.begin(), "RMSNorm folded into the projection");
      tl->body.insert(tl->body.begin(), "v = lin");  // line 0 (RMSNorm + projection) is the matmul itself
    }
  } else {
    tl = tr.run();
  }
  if (!tl || tl->reduced) return;
  bool row_epilogue = false;
  for (const std::string& l : tl->body)
    if (l.find("axis=1") != std::string::npos) row_epilogue = true;
  int64_t NT = row_epilogue ? N : divisor_at_most(N, 128);
  if (NT > 512 || NT < 8) return;
  int64_t NS = divisor_at_most(NT, 128);  // weight rows per transposed load
  if (NS < 8) return;

  std::ostringstream s;
  s << kHeader << "@nki.jit\ndef kernel(";
  for (size_t i = 0; i < args.size(); ++i) s << (i ? ", " : "") << args[i];
  s << "):\n";
  s << "    out = nl.ndarray(" << tuple_text(o.shape) << ", dtype=nl." << dtype_name(o.dtype) << ", buffer=nl.shared_hbm)\n";
  std::string xv = args[0], ov = "out";
  if (x.shape.size() != 2) {
    xv = args[0] + "_2d";
    s << "    " << xv << " = " << args[0] << ".reshape((" << M << ", " << K << "))\n";
  }
  if (o.shape != out2d) {
    ov = "out_2d";
    s << "    out_2d = out.reshape((" << M << ", " << N << "))\n";
  }
  std::map<std::string, std::string> view;
  for (const auto& [name, op] : ops) {
    if (!tl->used.count(name) || op.access != Access::Full) continue;
    view[name] = op.shape == out2d ? op.arg : op.arg + "_2d";
    if (op.shape != out2d) s << "    " << view[name] << " = " << op.arg << ".reshape((" << M << ", " << N << "))\n";
  }
  std::string mrow = "m * " + std::to_string(MT) + ":(m + 1) * " + std::to_string(MT);
  std::string nrow = "n * " + std::to_string(NT) + ":(n + 1) * " + std::to_string(NT);
  std::string krow = "k * " + std::to_string(KT) + ":(k + 1) * " + std::to_string(KT);
  s << "    for m in nl.affine_range(" << M / MT << "):\n";
  if (rms) {
    // RMSNorm(x) @ W.T = r * (x @ (g * W).T) with r = rsqrt(mean(x^2) + eps) per row.
    s << "        x_rows = nl.load(" << xv << "[" << mrow << ", :])\n";
    s << "        x32 = nl.copy(x_rows, dtype=nl.float32)\n";
    s << "        r = nl.rsqrt(nl.sum(x32 * x32, axis=1, keepdims=True) * (1.0 / " << K << ") + " << rms_eps << ")\n";
  }
  s << "        for n in nl.affine_range(" << N / NT << "):\n";
  s << "            acc = nl.zeros((" << MT << ", " << NT << "), dtype=nl.float32, buffer=nl.psum)\n";
  s << "            for k in nl.affine_range(" << K / KT << "):\n";
  s << "                lhs_t = nl.load_transpose2d(" << xv << "[" << mrow << ", " << krow << "])\n";
  std::string rhs = "rhs";
  if (NS == NT) {
    s << "                rhs = nl.load_transpose2d(" << args[w_idx] << "[" << nrow << ", " << krow << "])\n";
  } else {
    // [KT, NT] from NT / NS transposed blocks of NS weight rows, written into one SBUF tile.
    s << "                rhs = nl.ndarray((" << KT << ", " << NT << "), dtype=" << "nl." << dtype_name(all[w_idx].dtype)
      << ", buffer=nl.sbuf)\n";
    s << "                for j in nl.affine_range(" << NT / NS << "):\n";
    s << "                    rhs[:, j * " << NS << ":(j + 1) * " << NS << "] = nl.load_transpose2d(" << args[w_idx] << "[n * "
      << NT << " + j * " << NS << ":n * " << NT << " + (j + 1) * " << NS << ", " << krow << "])\n";
  }
  if (rms) {
    s << "                g_h = nl.load(" << args[g_idx] << ".reshape((" << K << ", 1))[" << krow << ", :])\n";
    s << "                g_k = nl.copy(g_h, dtype=nl.float32)\n";
    s << "                rhs_g = nl.multiply(rhs, g_k.broadcast_to((" << KT << ", " << NT << ")))\n";
    rhs = "rhs_g";
  }
  s << "                acc += nl.matmul(lhs_t, " << rhs << ", transpose_x=True)\n";
  s << "            lin = nl.copy(acc, dtype=nl.float32)\n";
  if (rms) s << "            lin = lin * r\n";
  if (b_idx >= 0) {
    s << "            b_row = nl.load(" << args[b_idx] << ".reshape((1, " << N << "))[0:1, " << nrow << "])\n";
    s << "            lin = nl.add(lin, nl.copy(b_row, dtype=nl.float32).broadcast_to((" << MT << ", " << NT << ")))\n";
  }
  for (const auto& [name, op] : ops) {
    if (!tl->used.count(name)) continue;
    if (op.access == Access::Full) {
      s << "            " << op.var << "_h = nl.load(" << view[name] << "[" << mrow << ", " << nrow << "])\n";
      s << "            " << op.var << " = nl.copy(" << op.var << "_h, dtype=nl.float32)\n";
    } else {
      int64_t len = op.access == Access::Row ? N : 1;
      std::string sl = op.access == Access::Row ? "[0:1, " + nrow + "]" : "";
      s << "            " << op.var << "_h = nl.load(" << op.arg << ".reshape((1, " << len << "))" << sl << ")\n";
      s << "            " << op.var << " = nl.copy(" << op.var << "_h, dtype=nl.float32).broadcast_to((" << MT << ", " << NT
        << "))\n";
    }
  }
  for (const std::string& l : tl->body) s << "            " << l << "\n";
  s << "            nl.store(" << ov << "[" << mrow << ", " << nrow << "], value=v)\n";
  s << "    return out\n";
  std::string layout = "x is viewed as [" + std::to_string(M) + ", " + std::to_string(K) + "]; out = x @ W.T" +
                       (b_idx >= 0 ? " + b" : "") + " in tiles of " + std::to_string(MT) + " x " + std::to_string(NT) +
                       ", K accumulated in chunks of " + std::to_string(KT) +
                       " in a float32 PSUM tile with both operands loaded transposed";
  out.push_back({rms ? "fused_linear:rmsnorm" : "fused_linear:plain", plan_text(layout, *tl), s.str()});
}

// ---------------------------------------------------------------------------------------------
// Linear chains (the builder is above, with the row translation it extends): forward() lines holding several nn.Linear calls (MLPs, gated FFNs, highway
// layers, RMSNorm -> projection -> epilogue). Every line is split into one statement per
// operation (torch_expr.h); element-wise and row statements go through the line rules above
// with the row length of their operands, and each projection runs on TensorE per 128-row tile:
// the tile's chunks of 128 features are transposed on TensorE (nc_transpose, SBUF -> PSUM) and
// accumulated against W.T, which is loaded transposed once before the row loop.

void add_linear_chain_templates(const TaskSpec& t, const std::vector<std::string>& args,
                                std::vector<TemplateKernel>& out) {
  if (t.outputs.size() != 1 || t.inputs.empty() || !is_float(t.outputs[0].dtype)) return;
  std::optional<Reference> ref = reference_from(t.dir);
  if (!ref || ref->args.empty() || ref->args.size() != t.inputs.size()) return;
  const TensorSpec& x = t.inputs[0];
  if (x.shape.size() < 2 || !is_float(x.dtype)) return;
  const int64_t K = x.shape.back(), M = product(x.shape) / K;
  // Row tiles stay inside one batch of x ([*batch, S, K]), so that a batched matrix operand is
  // one slice per tile.
  const int64_t S = x.shape.size() >= 3 ? x.shape[x.shape.size() - 2] : M;
  const int64_t MT = divisor_at_most(S, 128);
  if (MT < 8) return;
  std::vector<TensorSpec> all = t.kernel_args();
  std::map<std::string, ChainLinear> linears;
  std::set<int> weight_args;
  for (const auto& [name, md] : ref->modules) {
    if (md.type != "Linear") continue;
    ChainLinear L;
    L.module = name;
    for (size_t i = 0; i < all.size(); ++i) {
      if (all[i].name == name + ".weight") L.w_arg = static_cast<int>(i);
      if (all[i].name == name + ".bias") L.b_arg = static_cast<int>(i);
    }
    if (L.w_arg < 0 || all[L.w_arg].shape.size() != 2 || md.bias != (L.b_arg >= 0)) return;
    L.out = all[L.w_arg].shape[0];
    L.in = all[L.w_arg].shape[1];
    L.kt = divisor_at_most(L.in, 128);
    if (L.kt < 8 || L.out > 512 || L.out < 1 || (L.out > 128 && divisor_at_most(L.out, 128) < 8)) return;
    linears[name] = L;
    weight_args.insert(L.w_arg);
    if (L.b_arg >= 0) weight_args.insert(L.b_arg);
  }
  // The other arguments: [M, W] tiles, [W] rows, [M, 1] columns and scalars; any input of rank
  // >= 2 may also be the right operand of a product.
  std::map<std::string, Operand> ops;
  std::map<std::string, int64_t> widths;
  for (size_t i = 0; i < all.size(); ++i) {
    if (weight_args.count(static_cast<int>(i))) continue;
    const TensorSpec& s = all[i];
    if (!is_float(s.dtype) || s.shape.empty()) return;
    Operand op{args[i], var_name(args[i]), Access::Full, s.dtype, s.shape};
    const int64_t last = s.shape.back();
    if (i < t.inputs.size() && product(s.shape) == M * last && s.shape.size() >= 2 && (last != 1 || i == 0)) {
      op.access = Access::Full;
      widths[s.name] = last;
    } else if (product(s.shape) == 1) {
      op.access = Access::Scalar;
    } else if (product(s.shape) == M && last == 1) {
      op.access = Access::Column;
    } else if (s.shape.size() == 1) {
      op.access = Access::Row;
    } else {
      continue;  // a matrix operand only
    }
    ops[s.name] = op;
  }
  std::map<std::string, MatrixArg> matrices;
  std::map<std::string, double> constants;
  for (size_t i = 0; i < t.inputs.size(); ++i) {
    const TensorSpec& s = t.inputs[i];
    const int r = static_cast<int>(s.shape.size());
    for (int d = -r; d < r; ++d)
      constants[s.name + ".shape[" + std::to_string(d) + "]"] = static_cast<double>(s.shape[static_cast<size_t>(d < 0 ? d + r : d)]);
    if (r < 2 || !is_float(s.dtype)) continue;
    MatrixArg m{args[i], s.shape, product(s.shape) / (s.shape[r - 2] * s.shape[r - 1]), s.shape[r - 2], s.shape[r - 1]};
    matrices[s.name] = m;
  }
  ChainBuilder b(*ref, ops, linears, widths, MT, matrices, constants);
  if (!b.run()) return;
  if (linears.empty() && b.used_matrices().empty()) return;  // a row kernel: fused_row's
  const int64_t batches = b.matrix_batch();
  if (batches > 1 && (x.shape.size() < 3 || product(x.shape) / (S * K) != batches)) return;
  Translation& tl = b.translation();
  const TensorSpec& o = t.outputs[0];
  const int64_t ow = b.width_of("y");
  if (ow < 1 || product(o.shape) != M * ow || o.shape.back() != ow) return;
  if (tl.reduced != (ow == 1) && tl.reduced) return;

  std::ostringstream s;
  s << "import neuronxcc.nki as nki\nimport neuronxcc.nki.isa as nisa\nimport neuronxcc.nki.language as nl\n\n\n";
  s << "@nki.jit\ndef kernel(";
  for (size_t i = 0; i < args.size(); ++i) s << (i ? ", " : "") << args[i];
  s << "):\n";
  s << "    out = nl.ndarray(" << tuple_text(o.shape) << ", dtype=nl." << dtype_name(o.dtype) << ", buffer=nl.shared_hbm)\n";
  std::string ov = "out";
  if (o.shape != std::vector<int64_t>{M, ow}) {
    ov = "out_2d";
    s << "    out_2d = out.reshape((" << M << ", " << ow << "))\n";
  }
  // W.T of every projection, in chunks of kt input features on the partitions, float32.
  for (const auto& [name, L] : linears) {
    if (!b.used_linears().count(name)) return;  // a projection the lines never call
    const int64_t ns = L.out <= 128 ? L.out : divisor_at_most(L.out, 128);
    for (int64_t c = 0; c < L.in / L.kt; ++c) {
      std::string w = "wt_" + name + "_" + std::to_string(c);
      s << "    " << w << " = nl.ndarray((" << L.kt << ", " << L.out << "), dtype=nl.float32, buffer=nl.sbuf)\n";
      for (int64_t j = 0; j < L.out / ns; ++j) {
        s << "    " << w << "_h" << j << " = nl.load_transpose2d(" << args[L.w_arg] << "[" << j * ns << ":" << (j + 1) * ns << ", "
          << c * L.kt << ":" << (c + 1) * L.kt << "])\n";
        s << "    " << w << "[:, " << j * ns << ":" << (j + 1) * ns << "] = nl.copy(" << w << "_h" << j << ", dtype=nl.float32)\n";
      }
    }
    if (L.b_arg >= 0) {
      s << "    bias_" << name << "_h = nl.load(" << args[L.b_arg] << ".reshape((1, " << L.out << ")))\n";
      s << "    bias_" << name << " = nl.copy(bias_" << name << "_h, dtype=nl.float32).broadcast_to((" << MT << ", " << L.out << "))\n";
    }
  }
  for (const std::string& a : b.used_matrices()) {
    const MatrixArg* m = nullptr;
    for (const auto& [n, ma] : matrices)
      if (ma.arg == a) m = &ma;
    s << "    " << a << "_2d = " << a << ".reshape((" << m->batch * m->rows << ", " << m->cols << "))\n";
  }
  // x itself is read through the projection even when no rule named it.
  std::set<std::string> loads = tl.used;
  loads.insert(t.inputs[0].name);
  for (const auto& [name, op] : ops) {
    if (!loads.count(name)) continue;
    if (op.access == Access::Row) {
      s << "    " << op.var << "_h = nl.load(" << op.arg << ".reshape((1, " << op.shape[0] << ")))\n";
      s << "    " << op.var << " = nl.copy(" << op.var << "_h, dtype=nl.float32).broadcast_to((" << MT << ", " << op.shape[0] << "))\n";
    } else if (op.access == Access::Scalar) {
      s << "    " << op.var << "_h = nl.load(" << op.arg << ".reshape((1, 1)))\n";
      s << "    " << op.var << " = nl.copy(" << op.var << "_h, dtype=nl.float32).broadcast_to((" << MT << ", 1))\n";
    } else if (op.shape.size() != 2) {
      int64_t w = op.access == Access::Column ? 1 : op.shape.back();
      s << "    " << op.arg << "_2d = " << op.arg << ".reshape((" << M << ", " << w << "))\n";
    }
  }
  std::string mrow = "m * " + std::to_string(MT) + ":(m + 1) * " + std::to_string(MT), ind = "        ";
  if (batches > 1) {
    // One outer iteration per batch, so that the matrices' slices are affine in the indices.
    std::string b0 = "bb * " + std::to_string(S) + " + ";
    mrow = b0 + "mm * " + std::to_string(MT) + ":" + b0 + "(mm + 1) * " + std::to_string(MT);
    s << "    for bb in nl.affine_range(" << batches << "):\n";
    s << "        for mm in nl.affine_range(" << S / MT << "):\n";
    ind = "            ";
  } else {
    s << "    for m in nl.affine_range(" << M / MT << "):\n";
  }
  for (const auto& [name, op] : ops) {
    if (!loads.count(name) || (op.access != Access::Full && op.access != Access::Column)) continue;
    std::string view = op.shape.size() == 2 ? op.arg : op.arg + "_2d";
    s << ind << op.var << "_h = nl.load(" << view << "[" << mrow << ", :])\n";
    s << ind << op.var << " = nl.copy(" << op.var << "_h, dtype=nl.float32)\n";
  }
  for (const std::string& l : tl.body) s << ind << replace_all(l, "{BATCH}", "bb") << "\n";
  s << ind << "nl.store(" << ov << "[" << mrow << ", :], value=v)\n";
  s << "    return out\n";
  std::string layout = "x is viewed as [" + std::to_string(M) + ", " + std::to_string(K) + "] in tiles of " + std::to_string(MT) +
                       " rows; each nn.Linear multiplies the tile (transposed on TensorE in chunks of up to 128 features) "
                       "by its W.T, loaded transposed once before the loop, into float32 PSUM";
  if (!b.used_matrices().empty())
    layout += "; products with input matrices read the matrix (transposed where the line transposes it) per row tile";
  out.push_back({linears.empty() ? "matmul_chain:" + std::to_string(b.used_matrices().size())
                                 : "linear_chain:" + std::to_string(linears.size()),
                 plan_text(layout, tl), s.str()});
}

}  // namespace nki::train
