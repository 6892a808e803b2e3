// Python builtins available to kernels and helper code (issue 2: len, range, min, max, abs, int,
// float, bool, str, print, isinstance, enumerate, zip, sum, any, all, list, tuple, dict, round,
// divmod, pow, sorted, reversed, map, getattr, ...) and the `math` module.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <numeric>

#include "lang/interp.h"

namespace nki::py {

namespace {

Ref fn(const std::string& name, BuiltinFn::Impl impl) {
  return std::make_shared<BuiltinFn>(name, std::move(impl));
}

void expect_args(const CallArgs& a, size_t lo, size_t hi, const char* name) {
  if (a.pos.size() < lo || a.pos.size() > hi) {
    raise("TypeError", std::string(name) + "() takes " +
                           (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                           " arguments (" + std::to_string(a.pos.size()) + " given)");
  }
}

int64_t need_int(const Ref& r, const char* what) {
  auto v = as_int(r);
  if (!v) raise("TypeError", std::string("'") + r->type_name() + "' object cannot be interpreted as an integer (" + what + ")");
  return *v;
}

// As above; a symbolic value (an NKI loop index) explains why it is not an int.
int64_t need_int(Interp& in, const Ref& r, const char* what) {
  auto v = as_int(r);
  if (!v) r->require_concrete(in, std::string(what) + "()");
  if (!v) raise("TypeError", std::string("'") + r->type_name() + "' object cannot be interpreted as an integer (" + what + ")");
  return *v;
}

double need_number(const Ref& r, const char* what) {
  auto v = as_number(r);
  if (!v) raise("TypeError", std::string("must be real number, not ") + r->type_name() + " (" + what + ")");
  return *v;
}

Ref minmax(Interp& in, CallArgs& a, bool is_max) {
  Ref key = a.take("key");
  Ref dflt = a.take("default");
  std::vector<Ref> items;
  if (a.pos.size() == 1) items = a.pos[0]->iterate(in);
  else items = a.pos;
  if (items.empty()) {
    if (dflt) return dflt;
    raise("ValueError", std::string(is_max ? "max" : "min") + "() arg is an empty sequence");
  }
  // min(128, n - t * 128) on a loop index t has no Python value while the kernel is traced.
  const char* use = is_max ? "max()" : "min()";
  for (const Ref& x : items) x->require_concrete(in, use);
  Ref best = items[0];
  Ref best_key = best;
  auto keyof = [&](const Ref& x) {
    if (!key || is_none(key)) return x;
    CallArgs ka;
    ka.pos.push_back(x);
    return in.call(key, ka);
  };
  best_key = keyof(best);
  for (size_t i = 1; i < items.size(); ++i) {
    Ref k = keyof(items[i]);
    if (in.truthy(in.compare(is_max ? CmpOp::Gt : CmpOp::Lt, k, best_key))) {
      best = items[i];
      best_key = k;
    }
  }
  return best;
}

bool isinstance_of(Interp& in, const Ref& x, const Ref& cls) {
  if (auto* t = cast<TupleObj>(cls)) {
    for (const Ref& c : t->items)
      if (isinstance_of(in, x, c)) return true;
    return false;
  }
  if (auto* b = cast<BuiltinFn>(cls)) {
    const std::string& n = b->name;
    if (n == "int") return cast<IntObj>(x) != nullptr;
    if (n == "bool") return cast<BoolObj>(x) != nullptr;
    if (n == "float") return cast<FloatObj>(x) != nullptr;
    if (n == "str") return cast<StrObj>(x) != nullptr;
    if (n == "list") return cast<ListObj>(x) != nullptr;
    if (n == "tuple") return cast<TupleObj>(x) != nullptr;
    if (n == "dict") return cast<DictObj>(x) != nullptr;
    if (n == "set") return cast<SetObj>(x) != nullptr;
    if (n == "slice") return cast<SliceObj>(x) != nullptr;
    if (n == "range") return cast<RangeObj>(x) != nullptr;
    return x->type_name() == n;
  }
  if (auto* c = cast<ClassObj>(cls)) {
    auto* inst = cast<InstanceObj>(x);
    if (!inst) return false;
    std::vector<ClassObj*> todo{inst->cls.get()};
    while (!todo.empty()) {
      ClassObj* k = todo.back();
      todo.pop_back();
      if (k == c) return true;
      for (const Ref& b : k->bases)
        if (auto* bc = cast<ClassObj>(b)) todo.push_back(bc);
    }
    return false;
  }
  if (auto* ec = cast<ExcClassObj>(cls)) {
    auto* eo = cast<ExcObj>(x);
    return eo && eo->cls->is_subclass_of(ec->name);
  }
  // NKI objects may answer for their own type objects.
  try {
    Ref check = cls->getattr(in, "__instancecheck__");
    CallArgs a;
    a.pos.push_back(x);
    return in.truthy(in.call(check, a));
  } catch (PyError&) {
    return false;
  }
}

double round_half_even(double x) {
  double r = std::nearbyint(x);  // default rounding mode is to-nearest-even
  return r;
}

}  // namespace

void install_python_builtins(Interp& in) {
  in.set_builtin("None", none());
  in.set_builtin("True", make_bool(true));
  in.set_builtin("False", make_bool(false));
  in.set_builtin("Ellipsis", std::make_shared<EllipsisObj>());
  in.set_builtin("__debug__", make_bool(true));

  in.set_builtin("len", fn("len", [](Interp& in, CallArgs& a) {
    expect_args(a, 1, 1, "len");
    return make_int(a.pos[0]->len(in));
  }));
  in.set_builtin("range", fn("range", [](Interp& in, CallArgs& a) {
    expect_args(a, 1, 3, "range");
    auto r = std::make_shared<RangeObj>();
    if (a.pos.size() == 1) {
      r->stop = need_int(in, a.pos[0], "range");
    } else {
      r->start = need_int(in, a.pos[0], "range");
      r->stop = need_int(in, a.pos[1], "range");
      if (a.pos.size() == 3) r->step = need_int(in, a.pos[2], "range");
    }
    if (r->step == 0) raise("ValueError", "range() arg 3 must not be zero");
    return Ref(r);
  }));
  in.set_builtin("min", fn("min", [](Interp& in, CallArgs& a) { return minmax(in, a, false); }));
  in.set_builtin("max", fn("max", [](Interp& in, CallArgs& a) { return minmax(in, a, true); }));
  in.set_builtin("abs", fn("abs", [](Interp& in, CallArgs& a) {
    expect_args(a, 1, 1, "abs");
    if (auto i = as_int(a.pos[0])) return make_int(*i < 0 ? checked_sub(0, *i) : *i);
    if (auto* f = cast<FloatObj>(a.pos[0])) return make_float(std::fabs(f->value));
    try {
      Ref m = a.pos[0]->getattr(in, "__abs__");
      CallArgs none_args;
      return in.call(m, none_args);
    } catch (PyError&) {
      raise("TypeError", "bad operand type for abs(): '" + a.pos[0]->type_name() + "'");
    }
  }));
  in.set_builtin("int", fn("int", [](Interp& in, CallArgs& a) {
    if (a.pos.empty()) return make_int(0);
    const Ref& v = a.pos[0];
    if (auto i = as_int(v)) return make_int(*i);
    if (auto* f = cast<FloatObj>(v)) {
      if (!std::isfinite(f->value)) raise("ValueError", "cannot convert float NaN or infinity to integer");
      if (std::fabs(f->value) >= 9.2e18) raise("OverflowError", "int too large");
      return make_int(static_cast<int64_t>(std::trunc(f->value)));
    }
    if (auto* s = as_string(v)) {
      int base = a.pos.size() > 1 ? static_cast<int>(need_int(in, a.pos[1], "base")) : 10;
      try {
        size_t used = 0;
        std::string t = *s;
        t.erase(std::remove(t.begin(), t.end(), '_'), t.end());
        long long r = std::stoll(t, &used, base);
        if (used != t.size()) throw std::invalid_argument("x");
        return make_int(r);
      } catch (...) {
        raise("ValueError", "invalid literal for int() with base " + std::to_string(base) + ": " + v->repr());
      }
    }
    v->require_concrete(in, "int()");
    try {
      Ref m = v->getattr(in, "__int__");
      CallArgs none_args;
      return in.call(m, none_args);
    } catch (PyError&) {
      raise("TypeError", "int() argument must be a string or a number, not '" + v->type_name() + "'");
    }
  }));
  in.set_builtin("float", fn("float", [](Interp& in, CallArgs& a) {
    if (a.pos.empty()) return make_float(0.0);
    const Ref& v = a.pos[0];
    if (auto n = as_number(v)) return make_float(*n);
    if (auto* s = as_string(v)) {
      std::string t = *s;
      if (t == "inf" || t == "+inf" || t == "infinity") return make_float(INFINITY);
      if (t == "-inf" || t == "-infinity") return make_float(-INFINITY);
      if (t == "nan") return make_float(NAN);
      try {
        size_t used = 0;
        double d = std::stod(t, &used);
        if (used != t.size()) throw std::invalid_argument("x");
        return make_float(d);
      } catch (...) {
        raise("ValueError", "could not convert string to float: " + v->repr());
      }
    }
    try {
      Ref m = v->getattr(in, "__float__");
      CallArgs none_args;
      return in.call(m, none_args);
    } catch (PyError&) {
      raise("TypeError", "float() argument must be a string or a number, not '" + v->type_name() + "'");
    }
  }));
  in.set_builtin("bool", fn("bool", [](Interp& in, CallArgs& a) {
    if (a.pos.empty()) return make_bool(false);
    a.pos[0]->require_concrete(in, "bool()");
    return make_bool(in.truthy(a.pos[0]));
  }));
  in.set_builtin("str", fn("str", [](Interp&, CallArgs& a) {
    if (a.pos.empty()) return make_str("");
    return make_str(a.pos[0]->str());
  }));
  in.set_builtin("repr", fn("repr", [](Interp&, CallArgs& a) {
    expect_args(a, 1, 1, "repr");
    return make_str(a.pos[0]->repr());
  }));
  in.set_builtin("print", fn("print", [](Interp&, CallArgs& a) {
    Ref sep = a.take("sep");
    Ref end = a.take("end");
    a.take("flush");
    a.take("file");
    std::string s;
    std::string sp = sep && !is_none(sep) ? sep->str() : " ";
    for (size_t i = 0; i < a.pos.size(); ++i) s += (i ? sp : "") + a.pos[i]->str();
    s += end && !is_none(end) ? end->str() : "\n";
    std::cerr << s;  // compile-time prints; stdout is reserved for tool output
    return none();
  }));
  in.set_builtin("isinstance", fn("isinstance", [](Interp& in, CallArgs& a) {
    expect_args(a, 2, 2, "isinstance");
    return make_bool(isinstance_of(in, a.pos[0], a.pos[1]));
  }));
  in.set_builtin("callable", fn("callable", [](Interp&, CallArgs& a) {
    expect_args(a, 1, 1, "callable");
    const Ref& v = a.pos[0];
    return make_bool(cast<FunctionObj>(v) || cast<BuiltinFn>(v) || cast<ClassObj>(v) ||
                     cast<BoundMethod>(v));
  }));
  in.set_builtin("enumerate", fn("enumerate", [](Interp& in, CallArgs& a) {
    Ref start = a.take("start", 1);
    if (a.pos.empty() || !a.pos[0]) raise("TypeError", "enumerate() missing required argument");
    int64_t s = start ? need_int(start, "start") : 0;
    std::vector<Ref> out;
    for (const Ref& r : a.pos[0]->iterate(in)) out.push_back(make_tuple({make_int(s++), r}));
    return make_list(out);
  }));
  in.set_builtin("zip", fn("zip", [](Interp& in, CallArgs& a) {
    a.take("strict");
    std::vector<std::vector<Ref>> lists;
    size_t n = SIZE_MAX;
    for (const Ref& r : a.pos) {
      lists.push_back(r->iterate(in));
      n = std::min(n, lists.back().size());
    }
    if (lists.empty()) n = 0;
    std::vector<Ref> out;
    for (size_t i = 0; i < n; ++i) {
      std::vector<Ref> t;
      for (auto& l : lists) t.push_back(l[i]);
      out.push_back(make_tuple(t));
    }
    return make_list(out);
  }));
  in.set_builtin("sum", fn("sum", [](Interp& in, CallArgs& a) {
    Ref start = a.take("start", 1);
    if (a.pos.empty() || !a.pos[0]) raise("TypeError", "sum() takes at least 1 positional argument");
    Ref acc = start ? start : make_int(0);
    for (const Ref& r : a.pos[0]->iterate(in)) acc = in.binary(Operator::Add, acc, r);
    return acc;
  }));
  in.set_builtin("any", fn("any", [](Interp& in, CallArgs& a) {
    expect_args(a, 1, 1, "any");
    for (const Ref& r : a.pos[0]->iterate(in))
      if (in.truthy(r)) return make_bool(true);
    return make_bool(false);
  }));
  in.set_builtin("all", fn("all", [](Interp& in, CallArgs& a) {
    expect_args(a, 1, 1, "all");
    for (const Ref& r : a.pos[0]->iterate(in))
      if (!in.truthy(r)) return make_bool(false);
    return make_bool(true);
  }));
  in.set_builtin("list", fn("list", [](Interp& in, CallArgs& a) {
    if (a.pos.empty()) return make_list({});
    return make_list(a.pos[0]->iterate(in));
  }));
  in.set_builtin("tuple", fn("tuple", [](Interp& in, CallArgs& a) {
    if (a.pos.empty()) return make_tuple({});
    return make_tuple(a.pos[0]->iterate(in));
  }));
  in.set_builtin("set", fn("set", [](Interp& in, CallArgs& a) {
    auto s = std::make_shared<SetObj>();
    if (!a.pos.empty())
      for (const Ref& r : a.pos[0]->iterate(in)) s->add(r);
    return Ref(s);
  }));
  in.set_builtin("dict", fn("dict", [](Interp& in, CallArgs& a) {
    auto d = std::make_shared<DictObj>();
    if (!a.pos.empty()) {
      if (auto* src = cast<DictObj>(a.pos[0])) {
        d->entries = src->entries;
      } else {
        for (const Ref& pair : a.pos[0]->iterate(in)) {
          auto kv = pair->iterate(in);
          if (kv.size() != 2) raise("ValueError", "dictionary update sequence element has wrong length");
          d->set(kv[0], kv[1]);
        }
      }
    }
    for (auto& [k, v] : a.kw) d->set(make_str(k), v);
    return Ref(d);
  }));
  in.set_builtin("round", fn("round", [](Interp&, CallArgs& a) {
    expect_args(a, 1, 2, "round");
    if (auto i = as_int(a.pos[0]); i && a.pos.size() == 1) return make_int(*i);
    double x = need_number(a.pos[0], "round");
    if (a.pos.size() == 1 || is_none(a.pos[1])) {
      if (!std::isfinite(x)) raise("ValueError", "cannot convert float NaN or infinity to integer");
      return make_int(static_cast<int64_t>(round_half_even(x)));
    }
    int64_t nd = need_int(a.pos[1], "ndigits");
    double p = std::pow(10.0, static_cast<double>(nd));
    double r = round_half_even(x * p) / p;
    if (as_int(a.pos[0])) return make_int(static_cast<int64_t>(r));
    return make_float(r);
  }));
  in.set_builtin("divmod", fn("divmod", [](Interp& in, CallArgs& a) {
    expect_args(a, 2, 2, "divmod");
    return make_tuple({in.binary(Operator::FloorDiv, a.pos[0], a.pos[1]),
                       in.binary(Operator::Mod, a.pos[0], a.pos[1])});
  }));
  in.set_builtin("pow", fn("pow", [](Interp& in, CallArgs& a) {
    expect_args(a, 2, 3, "pow");
    if (a.pos.size() == 3) {
      int64_t b = need_int(a.pos[0], "pow"), e = need_int(a.pos[1], "pow"), m = need_int(a.pos[2], "pow");
      if (m == 0) raise("ValueError", "pow() 3rd argument cannot be 0");
      __int128 r = 1, base = floor_mod(b, m);
      for (; e > 0; e >>= 1) {
        if (e & 1) r = (r * base) % m;
        base = (base * base) % m;
      }
      return make_int(static_cast<int64_t>(r));
    }
    return in.binary(Operator::Pow, a.pos[0], a.pos[1]);
  }));
  in.set_builtin("sorted", fn("sorted", [](Interp& in, CallArgs& a) {
    Ref key = a.take("key");
    Ref rev = a.take("reverse");
    expect_args(a, 1, 1, "sorted");
    std::vector<Ref> items = a.pos[0]->iterate(in);
    in.sort_values(items, key, rev && in.truthy(rev));
    return make_list(items);
  }));
  in.set_builtin("reversed", fn("reversed", [](Interp& in, CallArgs& a) {
    expect_args(a, 1, 1, "reversed");
    std::vector<Ref> items = a.pos[0]->iterate(in);
    std::reverse(items.begin(), items.end());
    return make_list(items);
  }));
  in.set_builtin("map", fn("map", [](Interp& in, CallArgs& a) {
    if (a.pos.size() < 2) raise("TypeError", "map() must have at least two arguments.");
    std::vector<std::vector<Ref>> lists;
    size_t n = SIZE_MAX;
    for (size_t i = 1; i < a.pos.size(); ++i) {
      lists.push_back(a.pos[i]->iterate(in));
      n = std::min(n, lists.back().size());
    }
    std::vector<Ref> out;
    for (size_t i = 0; i < n; ++i) {
      CallArgs ca;
      for (auto& l : lists) ca.pos.push_back(l[i]);
      out.push_back(in.call(a.pos[0], ca));
    }
    return make_list(out);
  }));
  in.set_builtin("filter", fn("filter", [](Interp& in, CallArgs& a) {
    expect_args(a, 2, 2, "filter");
    std::vector<Ref> out;
    for (const Ref& r : a.pos[1]->iterate(in)) {
      bool keep;
      if (is_none(a.pos[0])) keep = in.truthy(r);
      else {
        CallArgs ca;
        ca.pos.push_back(r);
        keep = in.truthy(in.call(a.pos[0], ca));
      }
      if (keep) out.push_back(r);
    }
    return make_list(out);
  }));
  in.set_builtin("getattr", fn("getattr", [](Interp& in, CallArgs& a) {
    expect_args(a, 2, 3, "getattr");
    auto* name = as_string(a.pos[1]);
    if (!name) raise("TypeError", "attribute name must be string");
    try {
      return a.pos[0]->getattr(in, *name);
    } catch (PyError& e) {
      if (a.pos.size() == 3 && e.type == "AttributeError") return a.pos[2];
      throw;
    }
  }));
  in.set_builtin("hasattr", fn("hasattr", [](Interp& in, CallArgs& a) {
    expect_args(a, 2, 2, "hasattr");
    auto* name = as_string(a.pos[1]);
    if (!name) raise("TypeError", "attribute name must be string");
    try {
      a.pos[0]->getattr(in, *name);
      return make_bool(true);
    } catch (PyError& e) {
      if (e.type == "AttributeError") return make_bool(false);
      throw;
    }
  }));
  in.set_builtin("setattr", fn("setattr", [](Interp& in, CallArgs& a) {
    expect_args(a, 3, 3, "setattr");
    auto* name = as_string(a.pos[1]);
    if (!name) raise("TypeError", "attribute name must be string");
    a.pos[0]->setattr(in, *name, a.pos[2]);
    return none();
  }));
  in.set_builtin("slice", fn("slice", [](Interp&, CallArgs& a) {
    expect_args(a, 1, 3, "slice");
    auto s = std::make_shared<SliceObj>();
    s->lower = none();
    s->step = none();
    if (a.pos.size() == 1) {
      s->upper = a.pos[0];
    } else {
      s->lower = a.pos[0];
      s->upper = a.pos[1];
      if (a.pos.size() == 3) s->step = a.pos[2];
    }
    return Ref(s);
  }));
  in.set_builtin("type", fn("type", [](Interp& in, CallArgs& a) {
    expect_args(a, 1, 1, "type");
    return in.builtin(a.pos[0]->type_name()) ? in.builtin(a.pos[0]->type_name())
                                             : make_str(a.pos[0]->type_name());
  }));
  in.set_builtin("hash", fn("hash", [](Interp&, CallArgs& a) {
    expect_args(a, 1, 1, "hash");
    if (!a.pos[0]->hashable()) raise("TypeError", "unhashable type: '" + a.pos[0]->type_name() + "'");
    return make_int(static_cast<int64_t>(a.pos[0]->hash() >> 1));
  }));
  in.set_builtin("iter", fn("iter", [](Interp& in, CallArgs& a) {
    expect_args(a, 1, 1, "iter");
    return make_list(a.pos[0]->iterate(in));
  }));
  in.set_builtin("chr", fn("chr", [](Interp&, CallArgs& a) {
    expect_args(a, 1, 1, "chr");
    int64_t c = need_int(a.pos[0], "chr");
    if (c < 0 || c > 127) raise("ValueError", "chr() supports ASCII only in this evaluator");
    return make_str(std::string(1, static_cast<char>(c)));
  }));
  in.set_builtin("ord", fn("ord", [](Interp&, CallArgs& a) {
    expect_args(a, 1, 1, "ord");
    auto* s = as_string(a.pos[0]);
    if (!s || s->size() != 1) raise("TypeError", "ord() expected a character");
    return make_int(static_cast<unsigned char>((*s)[0]));
  }));

  // Exception hierarchy (subset).
  auto base = std::make_shared<ExcClassObj>("BaseException");
  auto exc = std::make_shared<ExcClassObj>("Exception", base);
  in.set_builtin("BaseException", base);
  in.set_builtin("Exception", exc);
  auto arith = std::make_shared<ExcClassObj>("ArithmeticError", exc);
  auto lookup = std::make_shared<ExcClassObj>("LookupError", exc);
  in.set_builtin("ArithmeticError", arith);
  in.set_builtin("LookupError", lookup);
  for (const char* n : {"ValueError", "TypeError", "NameError", "AttributeError", "AssertionError",
                        "RuntimeError", "NotImplementedError", "ImportError", "StopIteration",
                        "RecursionError", "MemoryError", "SyntaxError", "KeyboardInterrupt"}) {
    in.set_builtin(n, std::make_shared<ExcClassObj>(n, exc));
  }
  for (const char* n : {"ZeroDivisionError", "OverflowError"})
    in.set_builtin(n, std::make_shared<ExcClassObj>(n, arith));
  for (const char* n : {"IndexError", "KeyError"})
    in.set_builtin(n, std::make_shared<ExcClassObj>(n, lookup));
  in.set_builtin("object", std::make_shared<ClassObj>());
  cast<ClassObj>(in.builtin("object"))->name = "object";
}

std::shared_ptr<ModuleObj> make_math_module() {
  auto m = std::make_shared<ModuleObj>("math");
  m->set("pi", make_float(M_PI));
  m->set("e", make_float(M_E));
  m->set("inf", make_float(INFINITY));
  m->set("nan", make_float(NAN));
  m->set("tau", make_float(2 * M_PI));
  auto unary = [&](const char* name, double (*f)(double), bool domain_pos = false) {
    m->set(name, fn(name, [name, f, domain_pos](Interp&, CallArgs& a) {
      expect_args(a, 1, 1, name);
      double x = need_number(a.pos[0], name);
      if (domain_pos && x < 0) raise("ValueError", "math domain error");
      return make_float(f(x));
    }));
  };
  unary("sqrt", [](double x) { return std::sqrt(x); }, true);
  unary("exp", [](double x) { return std::exp(x); });
  unary("sin", [](double x) { return std::sin(x); });
  unary("cos", [](double x) { return std::cos(x); });
  unary("tan", [](double x) { return std::tan(x); });
  unary("atan", [](double x) { return std::atan(x); });
  unary("tanh", [](double x) { return std::tanh(x); });
  unary("erf", [](double x) { return std::erf(x); });
  unary("fabs", [](double x) { return std::fabs(x); });
  unary("log2", [](double x) { return std::log2(x); }, true);
  unary("log10", [](double x) { return std::log10(x); }, true);
  m->set("log", fn("log", [](Interp&, CallArgs& a) {
    expect_args(a, 1, 2, "log");
    double x = need_number(a.pos[0], "log");
    if (x <= 0) raise("ValueError", "math domain error");
    double r = std::log(x);
    if (a.pos.size() == 2) r /= std::log(need_number(a.pos[1], "log"));
    return make_float(r);
  }));
  auto to_int = [&](const char* name, double (*f)(double)) {
    m->set(name, fn(name, [name, f](Interp&, CallArgs& a) {
      expect_args(a, 1, 1, name);
      if (auto i = as_int(a.pos[0])) return make_int(*i);
      double x = need_number(a.pos[0], name);
      if (!std::isfinite(x)) raise("ValueError", "cannot convert float NaN or infinity to integer");
      return make_int(static_cast<int64_t>(f(x)));
    }));
  };
  to_int("ceil", [](double x) { return std::ceil(x); });
  to_int("floor", [](double x) { return std::floor(x); });
  to_int("trunc", [](double x) { return std::trunc(x); });
  m->set("pow", fn("pow", [](Interp&, CallArgs& a) {
    expect_args(a, 2, 2, "pow");
    return make_float(std::pow(need_number(a.pos[0], "pow"), need_number(a.pos[1], "pow")));
  }));
  m->set("isclose", fn("isclose", [](Interp&, CallArgs& a) {
    Ref rt = a.take("rel_tol");
    Ref at = a.take("abs_tol");
    expect_args(a, 2, 2, "isclose");
    double x = need_number(a.pos[0], "isclose"), y = need_number(a.pos[1], "isclose");
    double rel = rt ? need_number(rt, "rel_tol") : 1e-9, abs_tol = at ? need_number(at, "abs_tol") : 0.0;
    return make_bool(std::fabs(x - y) <= std::max(rel * std::max(std::fabs(x), std::fabs(y)), abs_tol));
  }));
  m->set("isnan", fn("isnan", [](Interp&, CallArgs& a) {
    expect_args(a, 1, 1, "isnan");
    return make_bool(std::isnan(need_number(a.pos[0], "isnan")));
  }));
  m->set("isinf", fn("isinf", [](Interp&, CallArgs& a) {
    expect_args(a, 1, 1, "isinf");
    return make_bool(std::isinf(need_number(a.pos[0], "isinf")));
  }));
  m->set("gcd", fn("gcd", [](Interp&, CallArgs& a) {
    int64_t g = 0;
    for (const Ref& r : a.pos) g = std::gcd(g, need_int(r, "gcd"));
    return make_int(g);
  }));
  m->set("lcm", fn("lcm", [](Interp&, CallArgs& a) {
    int64_t l = 1;
    for (const Ref& r : a.pos) l = std::lcm(l, need_int(r, "lcm"));
    return make_int(l);
  }));
  m->set("prod", fn("prod", [](Interp& in, CallArgs& a) {
    Ref start = a.take("start");
    expect_args(a, 1, 1, "prod");
    Ref acc = start ? start : make_int(1);
    for (const Ref& r : a.pos[0]->iterate(in)) acc = in.binary(Operator::Mult, acc, r);
    return acc;
  }));
  m->set("log1p", fn("log1p", [](Interp&, CallArgs& a) {
    expect_args(a, 1, 1, "log1p");
    return make_float(std::log1p(need_number(a.pos[0], "log1p")));
  }));
  m->set("isqrt", fn("isqrt", [](Interp&, CallArgs& a) {
    expect_args(a, 1, 1, "isqrt");
    int64_t n = need_int(a.pos[0], "isqrt");
    if (n < 0) raise("ValueError", "isqrt() argument must be nonnegative");
    int64_t r = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
    while (r * r > n) --r;
    while ((r + 1) * (r + 1) <= n) ++r;
    return make_int(r);
  }));
  return m;
}

}  // namespace nki::py
