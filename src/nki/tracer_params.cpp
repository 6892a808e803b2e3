// Binding the kernel's parameters from the command line (or a task): tensor specs given in
// parameter order, then parameters named with --arg NAME=VALUE or --const NAME=LITERAL, checked
// as Python would check the call, but before it, so that a wrong name is a usage error (exit 2,
// docs/cli-contract.md) instead of a failure inside the kernel.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>

#include "lang/parser.h"
#include "nki/tracer.h"

namespace nki::front {

namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// "128x512:float32", ":bf16": only digits and shape separators before the last ':' and a name
// after it. A literal such as 'a:b' or {1: 2} does not read as a tensor.
bool reads_as_tensor(const std::string& v) {
  size_t colon = v.rfind(':');
  if (colon == std::string::npos || colon + 1 == v.size()) return false;
  for (size_t i = 0; i < colon; ++i)
    if (!std::isdigit(static_cast<unsigned char>(v[i])) && !std::strchr("xX,*", v[i])) return false;
  return is_identifier(v.substr(colon + 1));
}

// The parameter called `name` that a keyword can bind (not positional-only), or null.
const py::arg* keyword_param(const py::arguments& p, const std::string& name) {
  for (const py::arg& a : p.args)
    if (a.arg_name == name) return &a;
  for (const py::arg& a : p.kwonlyargs)
    if (a.arg_name == name) return &a;
  return nullptr;
}

// `x: nt.mutable_tensor` (or a bare `mutable_tensor`): the kernel writes this argument in place.
bool annotated_mutable(const py::arg& a) {
  if (!a.annotation) return false;
  if (auto* at = py::as<py::Attribute>(a.annotation.get()); at && at->attr == "mutable_tensor") return true;
  auto* nm = py::as<py::Name>(a.annotation.get());
  return nm && nm->id == "mutable_tensor";
}

std::string parameter_list(const py::arguments& p) {
  std::string s;
  for (const auto* list : {&p.posonlyargs, &p.args, &p.kwonlyargs})
    for (const py::arg& a : *list) s += (s.empty() ? "" : ", ") + a.arg_name;
  return s.empty() ? "none" : s;
}

}  // namespace

std::optional<NamedArg> parse_named_arg(const std::string& text, std::string* error) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || !is_identifier(text.substr(0, eq))) return std::nullopt;
  NamedArg a;
  std::string value = text.substr(eq + 1);
  if (reads_as_tensor(value)) {
    auto spec = parse_arg_spec(value, error);
    if (!spec) return NamedArg{};
    a.tensor = *spec;
  } else {
    a.literal = value;
  }
  a.name = text.substr(0, eq);
  return a;
}

py::CallArgs Tracer::bind_parameters(const py::FunctionObj& fn, bool pass_by_reference) {
  const py::arguments& p = fn.params();
  std::vector<const py::arg*> positional;
  for (const py::arg& x : p.posonlyargs) positional.push_back(&x);
  for (const py::arg& x : p.args) positional.push_back(&x);
  const std::string kernel = "kernel '" + fn.name + "'";
  // "--arg" or "--input": the option whose NAME=VALUE form gave a named value.
  const std::string named_option = opts_.tensor_source.substr(0, opts_.tensor_source.find(' '));
  if (opts_.args.size() > positional.size())
    throw IoError(kernel + " takes " + std::to_string(positional.size()) + " positional parameters but " +
                  std::to_string(opts_.args.size()) + " " + opts_.tensor_source + "s were given");

  // Who bound each parameter, for the message when a second value names it.
  std::map<std::string, std::string> bound_by;
  auto claim = [&](const std::string& name, const std::string& source) {
    if (!keyword_param(p, name) && !p.kwarg) {
      bool posonly = std::any_of(p.posonlyargs.begin(), p.posonlyargs.end(),
                                 [&](const py::arg& a) { return a.arg_name == name; });
      throw IoError(source + ": " + kernel + (posonly ? " takes '" + name + "' only by position"
                                                      : " has no parameter '" + name + "'") +
                    " (its parameters: " + parameter_list(p) + ")");
    }
    auto [it, fresh] = bound_by.emplace(name, source);
    if (!fresh) throw IoError("kernel parameter '" + name + "' is given twice: by " + it->second + " and by " + source);
  };

  py::CallArgs call;
  call.loc = fn.def ? fn.def->span.begin : SourceLoc{};
  int index = 0;  // kernel arguments (tensors) in the order the caller gives their data
  for (size_t i = 0; i < opts_.args.size(); ++i) {
    bound_by.emplace(positional[i]->arg_name, opts_.tensor_source + " #" + std::to_string(i + 1));
    call.pos.push_back(make_param(opts_.args[i], positional[i]->arg_name, index++,
                                  annotated_mutable(*positional[i]) || pass_by_reference));
  }
  // A compile-time value: one Python literal, evaluated alone (no names of the kernel file).
  auto literal_value = [&](const std::string& source, const std::string& literal) {
    py::Module lit;
    try {
      lit = py::parse_module_text("__v = " + literal, source);
    } catch (const DiagnosticError&) {  // a syntax error: the value, not the kernel, is wrong
      throw IoError(source + ": not a Python literal: " + literal);
    }
    py::Interp scratch(file());
    scratch.load_module(lit);
    Ref* v = scratch.module_env()->lookup_local("__v");
    if (!v || py::cast<py::LazyErrorObj>(*v)) throw IoError(source + ": not a Python literal: " + literal);
    return *v;
  };
  for (const NamedArg& a : opts_.named_args) {
    const std::string source = named_option + " " + a.name;
    claim(a.name, source);
    if (a.tensor) {
      const py::arg* param = keyword_param(p, a.name);
      call.kw.emplace_back(a.name, make_param(*a.tensor, a.name, index++,
                                              (param && annotated_mutable(*param)) || pass_by_reference));
    } else {
      call.kw.emplace_back(a.name, literal_value(source, a.literal));
    }
  }
  for (const auto& [name, literal] : opts_.consts) {
    claim(name, "--const " + name);
    call.kw.emplace_back(name, literal_value("--const " + name, literal));
  }

  std::string missing;
  const size_t first_default = positional.size() - std::min(positional.size(), fn.defaults.size());
  for (size_t i = opts_.args.size(); i < first_default; ++i)
    if (!bound_by.count(positional[i]->arg_name)) missing += (missing.empty() ? "'" : ", '") + positional[i]->arg_name + "'";
  for (size_t i = 0; i < p.kwonlyargs.size(); ++i) {
    bool has_default = i < fn.kw_defaults.size() && fn.kw_defaults[i];
    if (!has_default && !bound_by.count(p.kwonlyargs[i].arg_name))
      missing += (missing.empty() ? "'" : ", '") + p.kwonlyargs[i].arg_name + "'";
  }
  if (!missing.empty())
    throw IoError(kernel + " has no " + opts_.tensor_source + " or other value for parameter " + missing +
                  " (no default): give a " + opts_.tensor_source + " in parameter order, " + named_option +
                  (named_option == "--input" ? " NAME=PATH" : " NAME=VALUE") + " or --const NAME=LITERAL");
  return call;
}

}  // namespace nki::front
