#include "lang/value.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "base/diag_codes.h"
#include "lang/interp.h"
#include "lang/stdlib_modules.h"

namespace nki::py {

namespace {
// How many copies `seq * n` makes: none of an empty sequence (`"" * 10**12` must not spin for
// 10**12 iterations), and a MemoryError, as in CPython, when the result could not be indexed.
int64_t repeat_times(int64_t n, size_t item_count) {
  if (n <= 0 || item_count == 0) return 0;
  int64_t total;
  if (__builtin_mul_overflow(n, static_cast<int64_t>(item_count), &total) || total > (int64_t{1} << 48))
    raise("MemoryError", "repeated sequence of " + std::to_string(n) + " x " + std::to_string(item_count) +
                             " items is too large");
  return n;
}

// Values whose destruction an inner release_ref handed to the loop of the outermost one on
// this thread; null while no release_ref runs.
thread_local std::vector<Ref>* t_deferred_releases = nullptr;

// repr, ==, hash and ordering recurse into the items of containers. Past Python's default
// recursion limit they raise RecursionError, as CPython does, instead of overflowing the C++
// stack on a value nested 100,000 deep.
constexpr int kMaxValueNesting = 1000;
thread_local int t_value_nesting = 0;

struct NestingGuard {
  NestingGuard() {
    if (t_value_nesting >= kMaxValueNesting)
      raise("RecursionError", "maximum recursion depth exceeded in a nested value (repr, comparison or hash)");
    ++t_value_nesting;
  }
  ~NestingGuard() { --t_value_nesting; }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;
};

// Containers whose repr is being built on this thread: one met again holds itself and prints
// as `[...]` / `{...}`, as in CPython (`a = []; a.append(a)` recursed forever).
thread_local std::vector<const Obj*> t_repr_active;

struct ReprGuard {
  explicit ReprGuard(const Obj* o) : cycle(std::find(t_repr_active.begin(), t_repr_active.end(), o) != t_repr_active.end()) {
    if (!cycle) t_repr_active.push_back(o);
  }
  ~ReprGuard() {
    if (!cycle) t_repr_active.pop_back();
  }
  ReprGuard(const ReprGuard&) = delete;
  ReprGuard& operator=(const ReprGuard&) = delete;
  NestingGuard depth;
  const bool cycle;
};
}  // namespace

void release_ref(Ref& r) noexcept {
  if (!r) return;
  if (r.use_count() > 1) {  // not the last reference: nothing is destroyed
    r.reset();
    return;
  }
  if (t_deferred_releases) {
    try {
      t_deferred_releases->push_back(std::move(r));
      return;
    } catch (...) {
      // No memory for the queue (the evaluation's heap budget): destroy in place, recursively.
    }
    r.reset();
    return;
  }
  std::vector<Ref> deferred;
  t_deferred_releases = &deferred;
  r.reset();
  while (!deferred.empty()) {
    Ref next = std::move(deferred.back());
    deferred.pop_back();
    next.reset();  // its destructor queues what it held
  }
  t_deferred_releases = nullptr;
}

void release_refs(std::vector<Ref>& refs) noexcept {
  for (Ref& r : refs) release_ref(r);
}
void release_refs(std::vector<std::pair<std::string, Ref>>& refs) noexcept {
  for (auto& kv : refs) release_ref(kv.second);
}
void release_refs(std::vector<std::pair<Ref, Ref>>& refs) noexcept {
  for (auto& kv : refs) {
    release_ref(kv.first);
    release_ref(kv.second);
  }
}

void raise(std::string type, std::string message) {
  PyError e;
  e.type = std::move(type);
  e.message = std::move(message);
  throw e;
}

void raise_code(std::string code, std::string message, std::string hint) {
  PyError e;
  e.type = "NkiError";
  e.code = std::move(code);
  e.message = std::move(message);
  e.hint = std::move(hint);
  throw e;
}

Ref CallArgs::take(const std::string& name, int index) {
  for (auto it = kw.begin(); it != kw.end(); ++it) {
    if (it->first == name) {
      Ref v = it->second;
      kw.erase(it);
      return v;
    }
  }
  if (index >= 0 && index < static_cast<int>(pos.size())) {
    Ref v = pos[index];
    pos[index] = nullptr;
    return v;
  }
  return nullptr;
}

Ref CallArgs::take_or(const std::string& name, int index, Ref fallback) {
  Ref v = take(name, index);
  return v ? v : fallback;
}

// ------------------------------------------------------------------ Obj defaults
std::string Obj::repr() const { return "<" + type_name() + " object>"; }
Ref Obj::getattr(Interp&, const std::string& name) {
  raise("AttributeError", "'" + type_name() + "' object has no attribute '" + name + "'");
}
void Obj::setattr(Interp&, const std::string& name, Ref) {
  raise("AttributeError", "'" + type_name() + "' object attribute '" + name + "' is read-only");
}
Ref Obj::call(Interp&, CallArgs&) { raise("TypeError", "'" + type_name() + "' object is not callable"); }
Ref Obj::getitem(Interp&, const Ref&) {
  raise("TypeError", "'" + type_name() + "' object is not subscriptable");
}
void Obj::setitem(Interp&, const Ref&, Ref) {
  raise("TypeError", "'" + type_name() + "' object does not support item assignment");
}
Ref Obj::binop(Interp&, Operator, const Ref&, bool) { return nullptr; }
Ref Obj::unaryop(Interp&, UnaryOpKind op) {
  if (op == UnaryOpKind::Not) return nullptr;  // handled generically through truthy()
  raise("TypeError", "bad operand type for unary operator: '" + type_name() + "'");
}
Ref Obj::compare(Interp&, CmpOp, const Ref&, bool) { return nullptr; }
bool Obj::truthy(Interp&) { return true; }
std::vector<Ref> Obj::iterate(Interp&) {
  raise("TypeError", "'" + type_name() + "' object is not iterable");
}
int64_t Obj::len(Interp&) { raise("TypeError", "object of type '" + type_name() + "' has no len()"); }
bool Obj::contains(Interp& in, const Ref& item) {
  for (const Ref& r : iterate(in)) {
    if (r->equals(*item)) return true;
  }
  return false;
}

// ------------------------------------------------------------------ constructors
Ref none() {
  static Ref n = std::make_shared<NoneObj>();
  return n;
}
Ref make_bool(bool b) {
  static Ref t = std::make_shared<BoolObj>(true);
  static Ref f = std::make_shared<BoolObj>(false);
  return b ? t : f;
}
Ref make_int(int64_t v) { return std::make_shared<IntObj>(v); }
Ref make_float(double v) { return std::make_shared<FloatObj>(v); }
Ref make_str(std::string s) { return std::make_shared<StrObj>(std::move(s)); }
Ref make_tuple(std::vector<Ref> v) { return std::make_shared<TupleObj>(std::move(v)); }
Ref make_list(std::vector<Ref> v) { return std::make_shared<ListObj>(std::move(v)); }

bool is_none(const Ref& r) { return !r || dynamic_cast<NoneObj*>(r.get()) != nullptr; }
std::optional<int64_t> as_int(const Ref& r) {
  if (auto* i = dynamic_cast<IntObj*>(r.get())) return i->value;
  return std::nullopt;
}
std::optional<double> as_number(const Ref& r) {
  if (auto* i = dynamic_cast<IntObj*>(r.get())) return static_cast<double>(i->value);
  if (auto* f = dynamic_cast<FloatObj*>(r.get())) return f->value;
  return std::nullopt;
}
const std::string* as_string(const Ref& r) {
  if (auto* s = dynamic_cast<StrObj*>(r.get())) return &s->value;
  return nullptr;
}

int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) raise("OverflowError", "integer overflow (beyond 64 bits)");
  return r;
}
int64_t checked_sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) raise("OverflowError", "integer overflow (beyond 64 bits)");
  return r;
}
int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) raise("OverflowError", "integer overflow (beyond 64 bits)");
  return r;
}
int64_t floor_div(int64_t a, int64_t b) {
  if (b == 0) raise("ZeroDivisionError", "integer division or modulo by zero");
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t floor_mod(int64_t a, int64_t b) {
  if (b == 0) raise("ZeroDivisionError", "integer division or modulo by zero");
  int64_t m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

// ------------------------------------------------------------------ numbers
namespace {

double float_floordiv(double a, double b) {
  if (b == 0.0) raise("ZeroDivisionError", "float floor division by zero");
  return std::floor(a / b);
}
double float_mod(double a, double b) {
  if (b == 0.0) raise("ZeroDivisionError", "float modulo");
  double m = std::fmod(a, b);
  if (m != 0.0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

Ref int_pow(int64_t a, int64_t b) {
  if (b < 0) return make_float(std::pow(static_cast<double>(a), static_cast<double>(b)));
  int64_t r = 1;
  for (int64_t i = 0; i < b; ++i) r = checked_mul(r, a);
  return make_int(r);
}

Ref float_arith(Operator op, double a, double b) {
  switch (op) {
    case Operator::Add: return make_float(a + b);
    case Operator::Sub: return make_float(a - b);
    case Operator::Mult: return make_float(a * b);
    case Operator::Div:
      if (b == 0.0) raise("ZeroDivisionError", "float division by zero");
      return make_float(a / b);
    case Operator::FloorDiv: return make_float(float_floordiv(a, b));
    case Operator::Mod: return make_float(float_mod(a, b));
    case Operator::Pow:
      if (a == 0.0 && b < 0) raise("ZeroDivisionError", "0.0 cannot be raised to a negative power");
      return make_float(std::pow(a, b));
    default: return nullptr;
  }
}

bool cmp_result(CmpOp op, int c) {
  switch (op) {
    case CmpOp::Eq: return c == 0;
    case CmpOp::NotEq: return c != 0;
    case CmpOp::Lt: return c < 0;
    case CmpOp::LtE: return c <= 0;
    case CmpOp::Gt: return c > 0;
    case CmpOp::GtE: return c >= 0;
    default: return false;
  }
}

CmpOp swap_cmp(CmpOp op) {
  switch (op) {
    case CmpOp::Lt: return CmpOp::Gt;
    case CmpOp::LtE: return CmpOp::GtE;
    case CmpOp::Gt: return CmpOp::Lt;
    case CmpOp::GtE: return CmpOp::LtE;
    default: return op;
  }
}

}  // namespace

Ref IntObj::binop(Interp&, Operator op, const Ref& other, bool reflected) {
  if (auto bi = as_int(other)) {
    int64_t a = reflected ? *bi : value, b = reflected ? value : *bi;
    switch (op) {
      case Operator::Add: return make_int(checked_add(a, b));
      case Operator::Sub: return make_int(checked_sub(a, b));
      case Operator::Mult: return make_int(checked_mul(a, b));
      case Operator::FloorDiv: return make_int(floor_div(a, b));
      case Operator::Mod: return make_int(floor_mod(a, b));
      case Operator::Div:
        if (b == 0) raise("ZeroDivisionError", "division by zero");
        return make_float(static_cast<double>(a) / static_cast<double>(b));
      case Operator::Pow: return int_pow(a, b);
      case Operator::LShift:
        if (b < 0) raise("ValueError", "negative shift count");
        if (b >= 63 || (a != 0 && (a > (INT64_MAX >> b) || a < (INT64_MIN >> b))))
          raise("OverflowError", "integer overflow (beyond 64 bits)");
        return make_int(a << b);
      case Operator::RShift:
        if (b < 0) raise("ValueError", "negative shift count");
        return make_int(b >= 63 ? (a < 0 ? -1 : 0) : (a >> b));
      case Operator::BitAnd: return make_int(a & b);
      case Operator::BitOr: return make_int(a | b);
      case Operator::BitXor: return make_int(a ^ b);
      default: return nullptr;
    }
  }
  if (auto* f = dynamic_cast<FloatObj*>(other.get())) {
    double a = reflected ? f->value : static_cast<double>(value);
    double b = reflected ? static_cast<double>(value) : f->value;
    return float_arith(op, a, b);
  }
  return nullptr;
}

Ref IntObj::unaryop(Interp&, UnaryOpKind op) {
  switch (op) {
    case UnaryOpKind::USub: return make_int(checked_sub(0, value));
    case UnaryOpKind::UAdd: return make_int(value);
    case UnaryOpKind::Invert: return make_int(~value);
    default: return nullptr;
  }
}

Ref IntObj::compare(Interp&, CmpOp op, const Ref& other, bool reflected) {
  if (reflected) op = swap_cmp(op);
  if (auto b = as_int(other)) return make_bool(cmp_result(op, value < *b ? -1 : value > *b ? 1 : 0));
  if (auto* f = dynamic_cast<FloatObj*>(other.get())) {
    double a = static_cast<double>(value);
    if (std::isnan(f->value)) return make_bool(op == CmpOp::NotEq);
    return make_bool(cmp_result(op, a < f->value ? -1 : a > f->value ? 1 : 0));
  }
  if (op == CmpOp::Eq) return make_bool(false);
  if (op == CmpOp::NotEq) return make_bool(true);
  return nullptr;
}

bool IntObj::equals(const Obj& o) const {
  if (auto* i = dynamic_cast<const IntObj*>(&o)) return i->value == value;
  if (auto* f = dynamic_cast<const FloatObj*>(&o)) return f->value == static_cast<double>(value);
  return false;
}

Ref IntObj::getattr(Interp& in, const std::string& name) {
  if (name == "real" || name == "numerator") return make_int(value);
  if (name == "imag") return make_int(0);
  if (name == "denominator") return make_int(1);
  if (name == "bit_length") {
    int64_t v = value;
    return std::make_shared<BuiltinFn>("bit_length", [v](Interp&, CallArgs&) {
      uint64_t u = v < 0 ? static_cast<uint64_t>(-(v + 1)) + 1 : static_cast<uint64_t>(v);
      int n = 0;
      while (u) { ++n; u >>= 1; }
      return make_int(n);
    });
  }
  return Obj::getattr(in, name);
}

std::string FloatObj::repr() const {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, value);
    if (std::strtod(buf, nullptr) == value) break;
  }
  std::string s = buf;
  if (s.find_first_of(".eninf") == std::string::npos) s += ".0";
  return s;
}

Ref FloatObj::binop(Interp&, Operator op, const Ref& other, bool reflected) {
  auto o = as_number(other);
  if (!o) return nullptr;
  double a = reflected ? *o : value, b = reflected ? value : *o;
  return float_arith(op, a, b);
}

Ref FloatObj::unaryop(Interp&, UnaryOpKind op) {
  switch (op) {
    case UnaryOpKind::USub: return make_float(-value);
    case UnaryOpKind::UAdd: return make_float(value);
    case UnaryOpKind::Invert: raise("TypeError", "bad operand type for unary ~: 'float'");
    default: return nullptr;
  }
}

Ref FloatObj::compare(Interp&, CmpOp op, const Ref& other, bool reflected) {
  if (reflected) op = swap_cmp(op);
  auto o = as_number(other);
  if (!o) {
    if (op == CmpOp::Eq) return make_bool(false);
    if (op == CmpOp::NotEq) return make_bool(true);
    return nullptr;
  }
  if (std::isnan(value) || std::isnan(*o)) return make_bool(op == CmpOp::NotEq);
  return make_bool(cmp_result(op, value < *o ? -1 : value > *o ? 1 : 0));
}

size_t FloatObj::hash() const {
  if (value == std::floor(value) && std::fabs(value) < 9e18)
    return std::hash<int64_t>()(static_cast<int64_t>(value));
  return std::hash<double>()(value);
}

bool FloatObj::equals(const Obj& o) const {
  if (auto* f = dynamic_cast<const FloatObj*>(&o)) return f->value == value;
  if (auto* i = dynamic_cast<const IntObj*>(&o)) return static_cast<double>(i->value) == value;
  return false;
}

Ref FloatObj::getattr(Interp& in, const std::string& name) {
  if (name == "real") return make_float(value);
  if (name == "imag") return make_float(0.0);
  if (name == "is_integer") {
    double v = value;
    return std::make_shared<BuiltinFn>("is_integer", [v](Interp&, CallArgs&) {
      return make_bool(std::isfinite(v) && v == std::floor(v));
    });
  }
  return Obj::getattr(in, name);
}

// ------------------------------------------------------------------ str
std::string StrObj::repr() const {
  std::string out = "'";
  for (char c : value) {
    switch (c) {
      case '\'': out += "\\'"; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
  return out + "'";
}

Ref StrObj::binop(Interp&, Operator op, const Ref& other, bool reflected) {
  if (op == Operator::Add) {
    if (auto* s = as_string(other)) return make_str(reflected ? *s + value : value + *s);
    return nullptr;
  }
  if (op == Operator::Mult) {
    if (auto n = as_int(other)) {
      const int64_t times = repeat_times(*n, value.size());
      std::string r;
      r.reserve(static_cast<size_t>(times) * value.size());  // over budget: fails here, at once
      for (int64_t i = 0; i < times; ++i) r += value;
      return make_str(r);
    }
  }
  if (op == Operator::Mod && !reflected) {
    // printf-style formatting: support %s %d %r %f with a value or tuple.
    std::vector<Ref> args;
    if (auto* t = cast<TupleObj>(other)) args = t->items; else args.push_back(other);
    std::string out;
    size_t ai = 0;
    for (size_t i = 0; i < value.size(); ++i) {
      if (value[i] != '%' || i + 1 >= value.size()) { out += value[i]; continue; }
      char c = value[++i];
      if (c == '%') { out += '%'; continue; }
      if (ai >= args.size()) raise("TypeError", "not enough arguments for format string");
      Ref a = args[ai++];
      if (c == 'r') out += a->repr();
      else if (c == 'd' || c == 'i') {
        auto n = as_number(a);
        if (!n) raise("TypeError", "%d format: a number is required");
        out += std::to_string(static_cast<int64_t>(*n));
      } else if (c == 'f') {
        auto n = as_number(a);
        if (!n) raise("TypeError", "%f format: a number is required");
        char buf[64];
        std::snprintf(buf, sizeof buf, "%f", *n);
        out += buf;
      } else out += a->str();
    }
    return make_str(out);
  }
  return nullptr;
}

Ref StrObj::compare(Interp&, CmpOp op, const Ref& other, bool reflected) {
  if (reflected) op = swap_cmp(op);
  if (auto* s = as_string(other)) {
    int c = value.compare(*s);
    return make_bool(cmp_result(op, c < 0 ? -1 : c > 0 ? 1 : 0));
  }
  if (op == CmpOp::Eq) return make_bool(false);
  if (op == CmpOp::NotEq) return make_bool(true);
  return nullptr;
}

bool StrObj::equals(const Obj& o) const {
  auto* s = dynamic_cast<const StrObj*>(&o);
  return s && s->value == value;
}

std::vector<Ref> StrObj::iterate(Interp&) {
  std::vector<Ref> out;
  for (char c : value) out.push_back(make_str(std::string(1, c)));
  return out;
}

bool StrObj::contains(Interp&, const Ref& item) {
  auto* s = as_string(item);
  if (!s) raise("TypeError", "'in <string>' requires string as left operand");
  return value.find(*s) != std::string::npos;
}

// Normalises a Python index against a length (negative indices count from the end).
static int64_t norm_index(int64_t i, int64_t n, const char* what) {
  if (i < 0) i += n;
  if (i < 0 || i >= n) raise("IndexError", std::string(what) + " index out of range");
  return i;
}

// Resolves slice bounds like Python's slice.indices().
static void slice_indices(Interp& in, const SliceObj& s, int64_t n, int64_t& start, int64_t& stop,
                          int64_t& step) {
  step = is_none(s.step) ? 1 : as_int(s.step).value_or(0);
  if (!is_none(s.step) && !as_int(s.step)) raise("TypeError", "slice indices must be integers");
  if (step == 0) raise("ValueError", "slice step cannot be zero");
  auto bound = [&](const Ref& r, int64_t dflt) -> int64_t {
    if (is_none(r)) return dflt;
    auto v = as_int(r);
    if (!v) r->require_concrete(in, "a slice bound of a Python sequence");
    if (!v) raise("TypeError", "slice indices must be integers or None");
    int64_t x = *v;
    if (x < 0) x += n;
    if (step > 0) return std::clamp<int64_t>(x, 0, n);
    return std::clamp<int64_t>(x, -1, n - 1);
  };
  start = bound(s.lower, step > 0 ? 0 : n - 1);
  stop = bound(s.upper, step > 0 ? n : -1);
}

Ref StrObj::getitem(Interp& in, const Ref& key) {
  int64_t n = static_cast<int64_t>(value.size());
  if (auto i = as_int(key)) return make_str(std::string(1, value[norm_index(*i, n, "string")]));
  if (auto* s = cast<SliceObj>(key)) {
    int64_t a, b, st;
    slice_indices(in, *s, n, a, b, st);
    std::string r;
    for (int64_t i = a; st > 0 ? i < b : i > b; i += st) r += value[i];
    return make_str(r);
  }
  key->require_concrete(in, "a string index");
  raise("TypeError", "string indices must be integers");
}

// ------------------------------------------------------------------ sequences
Ref SeqObj::getitem(Interp& in, const Ref& key) {
  int64_t n = static_cast<int64_t>(items.size());
  if (auto i = as_int(key)) return items[norm_index(*i, n, type_name().c_str())];
  if (auto* s = cast<SliceObj>(key)) {
    int64_t a, b, st;
    slice_indices(in, *s, n, a, b, st);
    std::vector<Ref> r;
    for (int64_t i = a; st > 0 ? i < b : i > b; i += st) r.push_back(items[i]);
    return make(std::move(r));
  }
  key->require_concrete(in, "a " + type_name() + " index");
  raise("TypeError", type_name() + " indices must be integers or slices, not " + key->type_name());
}

bool SeqObj::contains(Interp&, const Ref& item) {
  for (const Ref& r : items) {
    if (r.get() == item.get() || r->equals(*item)) return true;
  }
  return false;
}

Ref SeqObj::compare(Interp& in, CmpOp op, const Ref& other, bool reflected) {
  NestingGuard depth;
  auto* o = dynamic_cast<SeqObj*>(other.get());
  if (!o || o->type_name() != type_name()) {
    if (op == CmpOp::Eq) return make_bool(false);
    if (op == CmpOp::NotEq) return make_bool(true);
    return nullptr;
  }
  if (reflected) op = swap_cmp(op);
  size_t n = std::min(items.size(), o->items.size());
  for (size_t i = 0; i < n; ++i) {
    if (items[i]->equals(*o->items[i])) continue;
    if (op == CmpOp::Eq) return make_bool(false);
    if (op == CmpOp::NotEq) return make_bool(true);
    return in.compare(op, items[i], o->items[i]);
  }
  int c = items.size() < o->items.size() ? -1 : items.size() > o->items.size() ? 1 : 0;
  return make_bool(cmp_result(op, c));
}

static std::string seq_repr(const Obj* self, const std::vector<Ref>& items, const char* open,
                            const char* close, bool tuple) {
  ReprGuard guard(self);
  if (guard.cycle) return std::string(open) + "..." + close;
  std::string s = open;
  for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + items[i]->repr();
  if (tuple && items.size() == 1) s += ",";
  return s + close;
}

std::string TupleObj::repr() const { return seq_repr(this, items, "(", ")", true); }
std::string ListObj::repr() const { return seq_repr(this, items, "[", "]", false); }

Ref TupleObj::binop(Interp&, Operator op, const Ref& other, bool reflected) {
  if (op == Operator::Add) {
    auto* t = cast<TupleObj>(other);
    if (!t) return nullptr;
    std::vector<Ref> r = reflected ? t->items : items;
    const auto& tail = reflected ? items : t->items;
    r.insert(r.end(), tail.begin(), tail.end());
    return make_tuple(std::move(r));
  }
  if (op == Operator::Mult) {
    auto n = as_int(other);
    if (!n) return nullptr;
    const int64_t times = repeat_times(*n, items.size());
    std::vector<Ref> r;
    r.reserve(static_cast<size_t>(times) * items.size());
    for (int64_t i = 0; i < times; ++i) r.insert(r.end(), items.begin(), items.end());
    return make_tuple(std::move(r));
  }
  return nullptr;
}

Ref TupleObj::getattr(Interp& in, const std::string& name) {
  auto self = std::static_pointer_cast<TupleObj>(shared_from_this());
  if (name == "index") {
    return std::make_shared<BuiltinFn>("index", [self](Interp&, CallArgs& a) {
      for (size_t i = 0; i < self->items.size(); ++i)
        if (!a.pos.empty() && self->items[i]->equals(*a.pos[0])) return make_int(static_cast<int64_t>(i));
      raise("ValueError", "tuple.index(x): x not in tuple");
    });
  }
  if (name == "count") {
    return std::make_shared<BuiltinFn>("count", [self](Interp&, CallArgs& a) {
      int64_t c = 0;
      for (const Ref& r : self->items) c += (!a.pos.empty() && r->equals(*a.pos[0]));
      return make_int(c);
    });
  }
  return Obj::getattr(in, name);
}

bool TupleObj::hashable() const {
  NestingGuard depth;
  for (const Ref& r : items)
    if (!r->hashable()) return false;
  return true;
}
size_t TupleObj::hash() const {
  NestingGuard depth;
  size_t h = 0x345678;
  for (const Ref& r : items) h = h * 1000003 ^ r->hash();
  return h;
}
bool TupleObj::equals(const Obj& o) const {
  NestingGuard depth;
  auto* t = dynamic_cast<const TupleObj*>(&o);
  if (!t || t->items.size() != items.size()) return false;
  for (size_t i = 0; i < items.size(); ++i)
    if (!items[i]->equals(*t->items[i])) return false;
  return true;
}

Ref ListObj::binop(Interp&, Operator op, const Ref& other, bool reflected) {
  if (op == Operator::Add) {
    auto* t = cast<ListObj>(other);
    if (!t) return nullptr;
    std::vector<Ref> r = reflected ? t->items : items;
    const auto& tail = reflected ? items : t->items;
    r.insert(r.end(), tail.begin(), tail.end());
    return make_list(std::move(r));
  }
  if (op == Operator::Mult) {
    auto n = as_int(other);
    if (!n) return nullptr;
    const int64_t times = repeat_times(*n, items.size());
    std::vector<Ref> r;
    r.reserve(static_cast<size_t>(times) * items.size());
    for (int64_t i = 0; i < times; ++i) r.insert(r.end(), items.begin(), items.end());
    return make_list(std::move(r));
  }
  return nullptr;
}

void ListObj::setitem(Interp& in, const Ref& key, Ref value) {
  int64_t n = static_cast<int64_t>(items.size());
  if (auto i = as_int(key)) {
    items[norm_index(*i, n, "list assignment")] = std::move(value);
    return;
  }
  if (auto* s = cast<SliceObj>(key)) {
    int64_t a, b, st;
    slice_indices(in, *s, n, a, b, st);
    std::vector<Ref> vals = value->iterate(in);
    if (st != 1) raise("ValueError", "extended slice assignment is not supported");
    if (b < a) b = a;
    items.erase(items.begin() + a, items.begin() + b);
    items.insert(items.begin() + a, vals.begin(), vals.end());
    return;
  }
  raise("TypeError", "list indices must be integers or slices");
}

Ref ListObj::getattr(Interp& in, const std::string& name) {
  auto self = std::static_pointer_cast<ListObj>(shared_from_this());
  auto fn = [&](BuiltinFn::Impl f) { return std::make_shared<BuiltinFn>(name, std::move(f)); };
  if (name == "append")
    return fn([self](Interp&, CallArgs& a) {
      if (a.pos.size() != 1) raise("TypeError", "append() takes exactly one argument");
      self->items.push_back(a.pos[0]);
      return none();
    });
  if (name == "extend")
    return fn([self](Interp& in, CallArgs& a) {
      if (a.pos.size() != 1) raise("TypeError", "extend() takes exactly one argument");
      for (const Ref& r : a.pos[0]->iterate(in)) self->items.push_back(r);
      return none();
    });
  if (name == "insert")
    return fn([self](Interp&, CallArgs& a) {
      if (a.pos.size() != 2 || !as_int(a.pos[0])) raise("TypeError", "insert() takes an index and a value");
      int64_t n = static_cast<int64_t>(self->items.size());
      int64_t i = *as_int(a.pos[0]);
      if (i < 0) i = std::max<int64_t>(0, i + n);
      i = std::min(i, n);
      self->items.insert(self->items.begin() + i, a.pos[1]);
      return none();
    });
  if (name == "pop")
    return fn([self](Interp&, CallArgs& a) {
      if (self->items.empty()) raise("IndexError", "pop from empty list");
      int64_t n = static_cast<int64_t>(self->items.size());
      int64_t i = a.pos.empty() ? n - 1 : norm_index(as_int(a.pos[0]).value_or(0), n, "pop");
      Ref r = self->items[i];
      self->items.erase(self->items.begin() + i);
      return r;
    });
  if (name == "index")
    return fn([self](Interp&, CallArgs& a) {
      for (size_t i = 0; i < self->items.size(); ++i)
        if (!a.pos.empty() && self->items[i]->equals(*a.pos[0])) return make_int(static_cast<int64_t>(i));
      raise("ValueError", "list.index(x): x not in list");
    });
  if (name == "count")
    return fn([self](Interp&, CallArgs& a) {
      int64_t c = 0;
      for (const Ref& r : self->items) c += (!a.pos.empty() && r->equals(*a.pos[0]));
      return make_int(c);
    });
  if (name == "reverse")
    return fn([self](Interp&, CallArgs&) {
      std::reverse(self->items.begin(), self->items.end());
      return none();
    });
  if (name == "copy") return fn([self](Interp&, CallArgs&) { return make_list(self->items); });
  if (name == "clear")
    return fn([self](Interp&, CallArgs&) {
      self->items.clear();
      return none();
    });
  if (name == "remove")
    return fn([self](Interp&, CallArgs& a) {
      for (auto it = self->items.begin(); it != self->items.end(); ++it) {
        if (!a.pos.empty() && (*it)->equals(*a.pos[0])) {
          self->items.erase(it);
          return none();
        }
      }
      raise("ValueError", "list.remove(x): x not in list");
    });
  if (name == "sort")
    return fn([self](Interp& in, CallArgs& a) {
      Ref key = a.take("key");
      Ref rev = a.take("reverse");
      in.sort_values(self->items, key, rev && rev->truthy(in));
      return none();
    });
  return Obj::getattr(in, name);
}

// ------------------------------------------------------------------ dict / set
Ref DictObj::find(const Ref& key) const {
  for (const auto& [k, v] : entries)
    if (k.get() == key.get() || k->equals(*key)) return v;
  return nullptr;
}

void DictObj::set(const Ref& key, Ref value) {
  if (!key->hashable()) raise("TypeError", "unhashable type: '" + key->type_name() + "'");
  for (auto& e : entries) {
    if (e.first.get() == key.get() || e.first->equals(*key)) {
      e.second = std::move(value);
      return;
    }
  }
  entries.emplace_back(key, std::move(value));
}

std::string DictObj::repr() const {
  ReprGuard guard(this);
  if (guard.cycle) return "{...}";
  std::string s = "{";
  for (size_t i = 0; i < entries.size(); ++i)
    s += (i ? ", " : "") + entries[i].first->repr() + ": " + entries[i].second->repr();
  return s + "}";
}

Ref DictObj::getitem(Interp& in, const Ref& key) {
  if (!key->hashable()) key->require_concrete(in, "a dict key");
  Ref v = find(key);
  if (!v) raise("KeyError", key->repr());
  return v;
}
void DictObj::setitem(Interp& in, const Ref& key, Ref value) {
  if (!key->hashable()) key->require_concrete(in, "a dict key");
  set(key, std::move(value));
}
std::vector<Ref> DictObj::iterate(Interp&) {
  std::vector<Ref> keys;
  for (const auto& e : entries) keys.push_back(e.first);
  return keys;
}
bool DictObj::contains(Interp&, const Ref& item) { return find(item) != nullptr; }

Ref DictObj::getattr(Interp& in, const std::string& name) {
  auto self = std::static_pointer_cast<DictObj>(shared_from_this());
  auto fn = [&](BuiltinFn::Impl f) { return std::make_shared<BuiltinFn>(name, std::move(f)); };
  if (name == "get")
    return fn([self](Interp&, CallArgs& a) {
      if (a.pos.empty()) raise("TypeError", "get expected at least 1 argument");
      Ref v = self->find(a.pos[0]);
      return v ? v : (a.pos.size() > 1 ? a.pos[1] : none());
    });
  if (name == "keys")
    return fn([self](Interp& in, CallArgs&) { return make_list(self->iterate(in)); });
  if (name == "values")
    return fn([self](Interp&, CallArgs&) {
      std::vector<Ref> v;
      for (auto& e : self->entries) v.push_back(e.second);
      return make_list(v);
    });
  if (name == "items")
    return fn([self](Interp&, CallArgs&) {
      std::vector<Ref> v;
      for (auto& e : self->entries) v.push_back(make_tuple({e.first, e.second}));
      return make_list(v);
    });
  if (name == "setdefault")
    return fn([self](Interp&, CallArgs& a) {
      if (a.pos.empty()) raise("TypeError", "setdefault expected at least 1 argument");
      Ref v = self->find(a.pos[0]);
      if (v) return v;
      Ref d = a.pos.size() > 1 ? a.pos[1] : none();
      self->set(a.pos[0], d);
      return d;
    });
  if (name == "update")
    return fn([self](Interp&, CallArgs& a) {
      if (!a.pos.empty()) {
        if (auto* d = cast<DictObj>(a.pos[0]))
          for (auto& e : d->entries) self->set(e.first, e.second);
      }
      for (auto& [k, v] : a.kw) self->set(make_str(k), v);
      return none();
    });
  if (name == "pop")
    return fn([self](Interp&, CallArgs& a) {
      if (a.pos.empty()) raise("TypeError", "pop expected at least 1 argument");
      for (auto it = self->entries.begin(); it != self->entries.end(); ++it) {
        if (it->first->equals(*a.pos[0])) {
          Ref v = it->second;
          self->entries.erase(it);
          return v;
        }
      }
      if (a.pos.size() > 1) return a.pos[1];
      raise("KeyError", a.pos[0]->repr());
    });
  if (name == "copy")
    return fn([self](Interp&, CallArgs&) {
      auto d = std::make_shared<DictObj>();
      d->entries = self->entries;
      return Ref(d);
    });
  return Obj::getattr(in, name);
}

std::string SetObj::repr() const {
  if (items.empty()) return "set()";
  return seq_repr(this, items, "{", "}", false);
}
bool SetObj::contains(Interp&, const Ref& item) {
  for (const Ref& r : items)
    if (r->equals(*item)) return true;
  return false;
}
void SetObj::add(const Ref& v) {
  if (!v->hashable()) raise("TypeError", "unhashable type: '" + v->type_name() + "'");
  for (const Ref& r : items)
    if (r->equals(*v)) return;
  items.push_back(v);
}
Ref SetObj::getattr(Interp& in, const std::string& name) {
  auto self = std::static_pointer_cast<SetObj>(shared_from_this());
  if (name == "add")
    return std::make_shared<BuiltinFn>("add", [self](Interp&, CallArgs& a) {
      if (a.pos.size() != 1) raise("TypeError", "add() takes exactly one argument");
      self->add(a.pos[0]);
      return none();
    });
  return Obj::getattr(in, name);
}

// ------------------------------------------------------------------ slice / range
std::string SliceObj::repr() const {
  return "slice(" + lower->repr() + ", " + upper->repr() + ", " + step->repr() + ")";
}
Ref SliceObj::getattr(Interp& in, const std::string& name) {
  if (name == "start") return lower;
  if (name == "stop") return upper;
  if (name == "step") return step;
  return Obj::getattr(in, name);
}

std::string RangeObj::repr() const {
  std::string s = "range(" + std::to_string(start) + ", " + std::to_string(stop);
  if (step != 1) s += ", " + std::to_string(step);
  return s + ")";
}
int64_t RangeObj::len(Interp&) { return range_length(start, stop, step); }
std::vector<Ref> RangeObj::iterate(Interp& in) {
  int64_t n = len(in);
  if (n > 10'000'000) raise("MemoryError", "range too large to iterate at compile time");
  std::vector<Ref> out;
  out.reserve(n);
  for (int64_t i = 0; i < n; ++i) out.push_back(make_int(start + i * step));
  return out;
}
Ref RangeObj::getitem(Interp& in, const Ref& key) {
  auto i = as_int(key);
  if (!i) key->require_concrete(in, "a range index");
  if (!i) raise("TypeError", "range indices must be integers");
  return make_int(start + norm_index(*i, len(in), "range object") * step);
}
bool RangeObj::contains(Interp& in, const Ref& item) {
  auto v = as_int(item);
  if (!v) return false;
  if (step > 0 ? (*v < start || *v >= stop) : (*v > start || *v <= stop)) return false;
  (void)in;
  return (*v - start) % step == 0;
}

// ------------------------------------------------------------------ modules & placeholders
Ref ModuleObj::find(const std::string& attr) const {
  for (const auto& [k, v] : attrs)
    if (k == attr) return v;
  return nullptr;
}
void ModuleObj::set(const std::string& attr, Ref value) {
  for (auto& e : attrs) {
    if (e.first == attr) {
      e.second = std::move(value);
      return;
    }
  }
  attrs.emplace_back(attr, std::move(value));
}
Ref ModuleObj::getattr(Interp&, const std::string& attr) {
  if (Ref v = find(attr)) return v;
  raise("AttributeError", "module '" + name + "' has no attribute '" + attr + "'");
}
void ModuleObj::setattr(Interp&, const std::string& attr, Ref value) { set(attr, std::move(value)); }

Ref PlaceholderObj::getattr(Interp&, const std::string& attr) {
  return std::make_shared<PlaceholderObj>(name + "." + attr);
}
Ref PlaceholderObj::call(Interp&, CallArgs&) { fail(); }
void PlaceholderObj::fail() const {
  PyError e;
  e.type = "ImportError";
  e.code = diag::Code::unavailable_module;
  e.message = "'" + name + "' is not available inside a kernel in this simulator";
  e.hint = "kernels may use neuronxcc.nki, numpy (dtypes and constants) and math";
  throw e;
}

// ------------------------------------------------------------------ env
Ref* Env::lookup_local(const std::string& name) {
  for (auto& e : vars)
    if (e.first == name) return &e.second;
  return nullptr;
}
void Env::set_local(const std::string& name, Ref value) {
  if (Ref* r = lookup_local(name)) {
    *r = std::move(value);
    return;
  }
  vars.emplace_back(name, std::move(value));
}
bool Env::erase_local(const std::string& name) {
  for (auto it = vars.begin(); it != vars.end(); ++it) {
    if (it->first == name) {
      vars.erase(it);
      return true;
    }
  }
  return false;
}

// ------------------------------------------------------------------ functions & classes
const arguments& FunctionObj::params() const { return def ? def->args : lambda->args; }

Ref FunctionObj::call(Interp& in, CallArgs& args) {
  return in.call_function(std::static_pointer_cast<FunctionObj>(shared_from_this()), args);
}

Ref FunctionObj::getattr(Interp& in, const std::string& attr) {
  if (attr == "__name__") return make_str(name);
  for (auto& [k, v] : attrs)
    if (k == attr) return v;
  return Obj::getattr(in, attr);
}
void FunctionObj::setattr(Interp&, const std::string& attr, Ref value) {
  for (auto& e : attrs) {
    if (e.first == attr) {
      e.second = std::move(value);
      return;
    }
  }
  attrs.emplace_back(attr, std::move(value));
}

Ref ClassObj::lookup(const std::string& attr) const {
  for (const auto& [k, v] : attrs)
    if (k == attr) return v;
  for (const Ref& b : bases) {
    if (auto* c = cast<ClassObj>(b)) {
      if (Ref v = c->lookup(attr)) return v;
    }
  }
  return nullptr;
}
Ref ClassObj::getattr(Interp& in, const std::string& attr) {
  if (attr == "__name__") return make_str(name);
  if (Ref v = lookup(attr)) return v;
  return Obj::getattr(in, attr);
}
void ClassObj::setattr(Interp&, const std::string& attr, Ref value) {
  for (auto& e : attrs) {
    if (e.first == attr) {
      e.second = std::move(value);
      return;
    }
  }
  attrs.emplace_back(attr, std::move(value));
}
Ref ClassObj::call(Interp& in, CallArgs& args) {
  auto inst = std::make_shared<InstanceObj>();
  inst->cls = std::static_pointer_cast<ClassObj>(shared_from_this());
  if (is_dataclass && !lookup("__init__")) return construct_dataclass(in, *this, inst, args);
  if (Ref init = lookup("__init__")) {
    CallArgs a = args;
    a.pos.insert(a.pos.begin(), inst);
    init->call(in, a);
  }
  return inst;
}

Ref InstanceObj::getattr(Interp& in, const std::string& attr) {
  for (auto& [k, v] : attrs)
    if (k == attr) return v;
  if (Ref v = cls->lookup(attr)) {
    if (cast<FunctionObj>(v)) {
      auto m = std::make_shared<BoundMethod>();
      m->self = shared_from_this();
      m->func = v;
      return m;
    }
    return v;
  }
  return Obj::getattr(in, attr);
}
void InstanceObj::setattr(Interp&, const std::string& attr, Ref value) {
  for (auto& e : attrs) {
    if (e.first == attr) {
      e.second = std::move(value);
      return;
    }
  }
  attrs.emplace_back(attr, std::move(value));
}

Ref BoundMethod::call(Interp& in, CallArgs& args) {
  CallArgs a = args;
  a.pos.insert(a.pos.begin(), self);
  return func->call(in, a);
}

bool ExcClassObj::is_subclass_of(const std::string& other) const {
  for (const ExcClassObj* c = this; c; c = c->base.get())
    if (c->name == other) return true;
  return false;
}
Ref ExcClassObj::call(Interp&, CallArgs& args) {
  auto e = std::make_shared<ExcObj>();
  e->cls = std::static_pointer_cast<ExcClassObj>(shared_from_this());
  if (!args.pos.empty() && args.pos[0]) e->message = args.pos[0]->str();
  return e;
}
Ref ExcObj::getattr(Interp& in, const std::string& name) {
  if (name == "args") return make_tuple({make_str(message)});
  return Obj::getattr(in, name);
}

}  // namespace nki::py

namespace nki::py {

// str methods used by kernels and their helpers (formatting names, messages).
Ref StrObj::getattr(Interp& in, const std::string& name) {
  std::string v = value;
  auto fn = [&](BuiltinFn::Impl f) { return std::make_shared<BuiltinFn>(name, std::move(f)); };
  if (name == "join")
    return fn([v](Interp& in, CallArgs& a) {
      if (a.pos.size() != 1) raise("TypeError", "join() takes exactly one argument");
      std::string out;
      bool first = true;
      for (const Ref& r : a.pos[0]->iterate(in)) {
        auto* s = as_string(r);
        if (!s) raise("TypeError", "sequence item: expected str instance, " + r->type_name() + " found");
        if (!first) out += v;
        out += *s;
        first = false;
      }
      return make_str(out);
    });
  if (name == "upper" || name == "lower")
    return fn([v, up = name == "upper"](Interp&, CallArgs&) {
      std::string s = v;
      for (char& c : s) c = static_cast<char>(up ? std::toupper(static_cast<unsigned char>(c)) : std::tolower(static_cast<unsigned char>(c)));
      return make_str(s);
    });
  if (name == "startswith" || name == "endswith")
    return fn([v, start = name == "startswith"](Interp&, CallArgs& a) {
      auto* p = a.pos.empty() ? nullptr : as_string(a.pos[0]);
      if (!p) raise("TypeError", "startswith/endswith expects a str");
      if (p->size() > v.size()) return make_bool(false);
      return make_bool(start ? v.compare(0, p->size(), *p) == 0 : v.compare(v.size() - p->size(), p->size(), *p) == 0);
    });
  if (name == "strip" || name == "lstrip" || name == "rstrip")
    return fn([v, name](Interp&, CallArgs&) {
      size_t b = 0, e = v.size();
      if (name != "rstrip") while (b < e && std::isspace(static_cast<unsigned char>(v[b]))) ++b;
      if (name != "lstrip") while (e > b && std::isspace(static_cast<unsigned char>(v[e - 1]))) --e;
      return make_str(v.substr(b, e - b));
    });
  if (name == "replace")
    return fn([v](Interp&, CallArgs& a) {
      auto* from = a.pos.size() >= 2 ? as_string(a.pos[0]) : nullptr;
      auto* to = a.pos.size() >= 2 ? as_string(a.pos[1]) : nullptr;
      if (!from || !to) raise("TypeError", "replace() takes two str arguments");
      if (from->empty()) return make_str(v);
      std::string out;
      size_t i = 0;
      while (true) {
        size_t j = v.find(*from, i);
        if (j == std::string::npos) break;
        out += v.substr(i, j - i) + *to;
        i = j + from->size();
      }
      return make_str(out + v.substr(i));
    });
  if (name == "split")
    return fn([v](Interp&, CallArgs& a) {
      std::vector<Ref> parts;
      auto* sep = a.pos.empty() || is_none(a.pos[0]) ? nullptr : as_string(a.pos[0]);
      if (!sep) {
        std::string cur;
        for (char c : v) {
          if (std::isspace(static_cast<unsigned char>(c))) {
            if (!cur.empty()) parts.push_back(make_str(cur));
            cur.clear();
          } else {
            cur += c;
          }
        }
        if (!cur.empty()) parts.push_back(make_str(cur));
        return make_list(parts);
      }
      if (sep->empty()) raise("ValueError", "empty separator");
      size_t i = 0;
      while (true) {
        size_t j = v.find(*sep, i);
        if (j == std::string::npos) break;
        parts.push_back(make_str(v.substr(i, j - i)));
        i = j + sep->size();
      }
      parts.push_back(make_str(v.substr(i)));
      return make_list(parts);
    });
  if (name == "format")
    return fn([v](Interp& in, CallArgs& a) {
      // {} / {0} / {name} replacement fields without format specs beyond str().
      std::string out;
      size_t auto_idx = 0;
      for (size_t i = 0; i < v.size(); ++i) {
        char c = v[i];
        if (c == '{' && i + 1 < v.size() && v[i + 1] == '{') { out += '{'; ++i; continue; }
        if (c == '}' && i + 1 < v.size() && v[i + 1] == '}') { out += '}'; ++i; continue; }
        if (c != '{') { out += c; continue; }
        size_t close = v.find('}', i);
        if (close == std::string::npos) raise("ValueError", "Single '{' encountered in format string");
        std::string field = v.substr(i + 1, close - i - 1);
        std::string spec;
        if (auto colon = field.find(':'); colon != std::string::npos) {
          spec = field.substr(colon + 1);
          field = field.substr(0, colon);
        }
        Ref val;
        if (field.empty()) {
          if (auto_idx >= a.pos.size()) raise("IndexError", "Replacement index out of range");
          val = a.pos[auto_idx++];
        } else if (std::isdigit(static_cast<unsigned char>(field[0]))) {
          size_t k = std::stoul(field);
          if (k >= a.pos.size()) raise("IndexError", "Replacement index out of range");
          val = a.pos[k];
        } else {
          for (auto& [k, x] : a.kw)
            if (k == field) val = x;
          if (!val) raise("KeyError", "'" + field + "'");
        }
        (void)in;
        out += spec.empty() ? val->str() : val->str();
        i = close;
      }
      return make_str(out);
    });
  return Obj::getattr(in, name);
}

}  // namespace nki::py
