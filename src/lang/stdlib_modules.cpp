// The small parts of Python's standard library that real NKI kernel files use at trace time:
// `functools.reduce/partial`, the `operator` arithmetic functions and `dataclasses.dataclass`
// (the nki-samples attention kernels build shapes with functools.reduce(operator.mul, ...) and
// take a frozen @dataclass config object; allocated kernels pass functools.partial address
// callbacks to ncc.sbuf/psum.alloc). Any other stdlib module stays a loud placeholder.
#include "lang/stdlib_modules.h"

#include <algorithm>

#include "lang/interp.h"

namespace nki::py {

namespace {

Ref fn(const std::string& name, BuiltinFn::Impl impl) {
  return std::make_shared<BuiltinFn>(name, std::move(impl));
}

// A functools.partial object: calls `func` with the stored arguments first.
// Later keywords override earlier ones, as in Python.
void merge_keywords(std::vector<std::pair<std::string, Ref>>& into,
                    const std::vector<std::pair<std::string, Ref>>& later) {
  for (auto& [k, v] : later) {
    // Named capture: clang before 16 cannot capture a structured binding (the fuzz build).
    auto it = std::find_if(into.begin(), into.end(), [&key = k](auto& e) { return e.first == key; });
    if (it != into.end()) it->second = v;
    else into.emplace_back(k, v);
  }
}

struct PartialObj : Obj {
  ~PartialObj() override {
    release_ref(func);
    release_refs(pos);
    release_refs(kw);
  }
  Ref func;  // never a PartialObj: partial(partial(f, a), b) is stored as partial(f, a, b)
  std::vector<Ref> pos;
  std::vector<std::pair<std::string, Ref>> kw;
  std::string type_name() const override { return "functools.partial"; }
  Ref call(Interp& in, CallArgs& args) override {
    CallArgs a;
    a.loc = args.loc;
    a.pos = pos;
    a.pos.insert(a.pos.end(), args.pos.begin(), args.pos.end());
    a.kw = kw;
    merge_keywords(a.kw, args.kw);
    return in.call(func, a);
  }
};

Ref binary_fn(const std::string& name, Operator op) {
  return fn(name, [name, op](Interp& in, CallArgs& a) -> Ref {
    if (a.pos.size() != 2 || !a.kw.empty()) raise("TypeError", "operator." + name + " expects 2 arguments");
    return in.binary(op, a.pos[0], a.pos[1]);
  });
}

// Fields of a dataclass, base classes first: annotated class attributes in definition order.
void collect_fields(const ClassObj& cls, std::vector<std::pair<std::string, Ref>>& out) {
  for (const Ref& b : cls.bases)
    if (auto* base = cast<ClassObj>(b); base && base->is_dataclass) collect_fields(*base, out);
  for (const std::string& name : cls.annotations) {
    Ref dflt;
    for (const auto& [k, v] : cls.attrs)
      if (k == name) dflt = v;
    auto it = std::find_if(out.begin(), out.end(), [&](auto& e) { return e.first == name; });
    if (it != out.end()) it->second = dflt;
    else out.emplace_back(name, dflt);
  }
}

Ref make_dataclass(const Ref& cls_ref) {
  auto* cls = cast<ClassObj>(cls_ref);
  if (!cls) raise("TypeError", "dataclass() should be applied to a class");
  cls->is_dataclass = true;
  cls->dataclass_fields.clear();
  collect_fields(*cls, cls->dataclass_fields);
  bool seen_default = false;
  for (const auto& [name, dflt] : cls->dataclass_fields) {
    if (dflt) seen_default = true;
    else if (seen_default) raise("TypeError", "non-default argument '" + name + "' follows default argument");
  }
  return cls_ref;
}

}  // namespace

std::shared_ptr<ModuleObj> make_functools_module() {
  auto m = std::make_shared<ModuleObj>("functools");
  m->set("reduce", fn("reduce", [](Interp& in, CallArgs& a) -> Ref {
    if (a.pos.size() < 2 || a.pos.size() > 3) raise("TypeError", "reduce expected 2 or 3 arguments");
    std::vector<Ref> items = a.pos[1]->iterate(in);
    size_t i = 0;
    Ref acc;
    if (a.pos.size() == 3) acc = a.pos[2];
    else if (items.empty()) raise("TypeError", "reduce() of empty iterable with no initial value");
    else acc = items[i++];
    for (; i < items.size(); ++i) {
      CallArgs c;
      c.loc = a.loc;
      c.pos = {acc, items[i]};
      acc = in.call(a.pos[0], c);
    }
    return acc;
  }));
  m->set("partial", fn("partial", [](Interp&, CallArgs& a) -> Ref {
    if (a.pos.empty()) raise("TypeError", "partial expected at least 1 argument");
    auto p = std::make_shared<PartialObj>();
    // A partial of a partial is flattened, as CPython does: a chain of 100,000 partials built
    // in a loop would otherwise call itself that deep in C++, outside the call-depth limit.
    if (auto* inner = cast<PartialObj>(a.pos[0])) {
      p->func = inner->func;
      p->pos = inner->pos;
      p->kw = inner->kw;
    } else {
      p->func = a.pos[0];
    }
    p->pos.insert(p->pos.end(), a.pos.begin() + 1, a.pos.end());
    merge_keywords(p->kw, a.kw);
    return p;
  }));
  return m;
}

std::shared_ptr<ModuleObj> make_operator_module() {
  auto m = std::make_shared<ModuleObj>("operator");
  m->set("add", binary_fn("add", Operator::Add));
  m->set("sub", binary_fn("sub", Operator::Sub));
  m->set("mul", binary_fn("mul", Operator::Mult));
  m->set("truediv", binary_fn("truediv", Operator::Div));
  m->set("floordiv", binary_fn("floordiv", Operator::FloorDiv));
  m->set("mod", binary_fn("mod", Operator::Mod));
  m->set("pow", binary_fn("pow", Operator::Pow));
  m->set("and_", binary_fn("and_", Operator::BitAnd));
  m->set("or_", binary_fn("or_", Operator::BitOr));
  m->set("xor", binary_fn("xor", Operator::BitXor));
  return m;
}

std::shared_ptr<ModuleObj> make_dataclasses_module() {
  auto m = std::make_shared<ModuleObj>("dataclasses");
  // @dataclass and @dataclass(frozen=True, ...): the options do not change what a kernel
  // computes (frozen only forbids assignment), so they are accepted and ignored.
  m->set("dataclass", fn("dataclass", [](Interp&, CallArgs& a) -> Ref {
    if (a.pos.size() == 1 && a.kw.empty()) return make_dataclass(a.pos[0]);
    if (!a.pos.empty()) raise("TypeError", "dataclass() takes a class or only keyword options");
    return fn("dataclass", [](Interp&, CallArgs& b) -> Ref {
      if (b.pos.size() != 1) raise("TypeError", "dataclass() should be applied to a class");
      return make_dataclass(b.pos[0]);
    });
  }));
  return m;
}

Ref construct_dataclass(Interp& in, ClassObj& cls, const std::shared_ptr<InstanceObj>& inst, CallArgs& args) {
  (void)in;
  const auto& fields = cls.dataclass_fields;
  if (args.pos.size() > fields.size())
    raise("TypeError", cls.name + ".__init__() takes " + std::to_string(fields.size()) + " positional arguments but " +
                           std::to_string(args.pos.size()) + " were given");
  std::vector<Ref> values(fields.size());
  for (size_t i = 0; i < args.pos.size(); ++i) values[i] = args.pos[i];
  for (auto& [k, v] : args.kw) {
    auto it = std::find_if(fields.begin(), fields.end(), [&key = k](auto& e) { return e.first == key; });
    if (it == fields.end()) raise("TypeError", cls.name + ".__init__() got an unexpected keyword argument '" + k + "'");
    size_t i = static_cast<size_t>(it - fields.begin());
    if (values[i]) raise("TypeError", cls.name + ".__init__() got multiple values for argument '" + k + "'");
    values[i] = v;
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!values[i]) values[i] = fields[i].second;
    if (!values[i]) raise("TypeError", cls.name + ".__init__() missing required argument: '" + fields[i].first + "'");
    inst->attrs.emplace_back(fields[i].first, values[i]);
  }
  return inst;
}

}  // namespace nki::py
