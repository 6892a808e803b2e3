#include "train/kernel_facts.h"

#include <memory>

#include "base/diagnostic.h"
#include "base/source.h"
#include "lang/ast.h"
#include "lang/lexer.h"
#include "lang/parser.h"
#include "task/sha256.h"

namespace nki::train {

namespace {

// "jit" for nki.jit, jit, nki.jit(...) and the like.
bool names_jit(const py::Expr* e) {
  if (!e) return false;
  if (auto* c = py::as<py::Call>(e)) return names_jit(c->func.get());
  if (auto* a = py::as<py::Attribute>(e)) return a->attr == "jit";
  if (auto* n = py::as<py::Name>(e)) return n->id == "jit";
  return false;
}

}  // namespace

std::optional<KernelSignature> kernel_signature(const std::string& source) {
  try {
    py::Module m = py::parse_module_text(source, "kernel.py");
    for (const py::StmtPtr& s : m.body) {
      auto* f = py::as<py::FunctionDef>(s.get());
      if (!f) continue;
      bool jit = false;
      for (const py::ExprPtr& d : f->decorator_list) jit = jit || names_jit(d.get());
      if (!jit) continue;
      KernelSignature sig;
      sig.name = f->name;
      for (const py::arg& a : f->args.posonlyargs) sig.params.push_back(a.arg_name);
      for (const py::arg& a : f->args.args) sig.params.push_back(a.arg_name);
      return sig;
    }
  } catch (const std::exception&) {
    // A kernel that does not parse has no signature; the caller reports it.
  }
  return std::nullopt;
}

std::string normalized_kernel_hash(const std::string& source) {
  std::string norm;
  try {
    auto file = std::make_shared<SourceFile>("kernel.py", source);
    py::Lexer lex(file, source);
    std::vector<py::Token> toks;
    for (;;) {
      py::Token t = lex.next();
      toks.push_back(t);
      if (t.kind == py::Tok::EndMarker) break;
    }
    for (size_t i = 0; i < toks.size(); ++i) {
      const py::Token& t = toks[i];
      // A string alone on its logical line is a docstring or a no-op: not part of the kernel.
      if (t.kind == py::Tok::String) {
        py::Tok prev = i == 0 ? py::Tok::Newline : toks[i - 1].kind;
        py::Tok next = i + 1 < toks.size() ? toks[i + 1].kind : py::Tok::Newline;
        bool line_start = prev == py::Tok::Newline || prev == py::Tok::Indent || prev == py::Tok::Dedent;
        if (line_start && next == py::Tok::Newline) {
          ++i;  // and its NEWLINE
          continue;
        }
      }
      switch (t.kind) {
        case py::Tok::Indent: norm += "<IN>"; break;
        case py::Tok::Dedent: norm += "<DE>"; break;
        case py::Tok::Newline: norm += "<NL>"; break;
        default: norm.append(t.text.data(), t.text.size());
      }
      norm += '\x1f';
    }
  } catch (const std::exception&) {
    norm = source;
  }
  return sha256_hex(norm);
}

}  // namespace nki::train
