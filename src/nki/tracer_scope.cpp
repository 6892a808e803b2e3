// Scope of tiles created inside a traced block, when they escape through Python containers.
//
// "A tensor defined in if/else/for control blocks are not allowed to be used outside of the
// scope" (general/nki/api/nki.errors.rst at SDK 2.24, err_local_variable_used_out_of_scope).
// Tracer::poison_scope enforces that for names; a tile appended to a list, stored in a dict or
// in an attribute inside the block escapes as well, and because the body is traced once, the
// container holds ONE tile for all iterations (`tiles.append(nl.load(...))` in an affine_range
// leaves a single element), so using it after the block would silently compute something else.
// Such elements are replaced by values that raise err_local_variable_used_out_of_scope when used.
#include <unordered_set>

#include "base/diag_codes.h"
#include "nki/lowering.h"
#include "nki/tracer.h"

namespace nki::front {

namespace {

struct Pending {
  py::Obj* container;
  std::string path;  // how the program reaches it, for the message: "tiles", "state['acc']"
};

std::string key_text(const Ref& key) {
  if (auto* s = py::as_string(key)) return "['" + *s + "']";
  if (auto i = py::as_int(key)) return "[" + std::to_string(*i) + "]";
  return "[...]";
}

}  // namespace

void Tracer::poison_containers(size_t watermark) {
  // Values reachable from the running frame (its locals and enclosing function scopes) and the
  // module: every container the block could have stored a tile in.
  std::vector<Pending> todo;
  std::unordered_set<const py::Obj*> seen;
  auto push_root = [&](const Ref& v, const std::string& name) {
    if (v && seen.insert(v.get()).second) todo.push_back({v.get(), name});
  };
  for (py::Env* e = env_.get(); e; e = e->parent.get())
    for (auto& [name, v] : e->vars) push_root(v, name);
  if (module_env() && module_env() != env_)
    for (auto& [name, v] : module_env()->vars) push_root(v, name);

  auto poison = [&](Ref& slot, const std::string& path) {
    auto* t = as_tensor(slot);
    if (!t) return false;
    int id = t->view.tensor;
    if (static_cast<size_t>(id) < watermark) return false;  // created before the block: still in scope
    const ir::TensorDecl& d = kernel_->tensors[static_cast<size_t>(id)];
    if (!ir::is_on_chip(d.buffer) && d.buffer != ir::Buffer::PrivateHbm) return false;
    auto lazy = std::make_shared<py::LazyErrorObj>();
    lazy->error.type = "NkiError";
    lazy->error.code = diag::Code::err_local_variable_used_out_of_scope;
    lazy->error.message = "'" + path + "' holds a tensor created on line " + std::to_string(d.loc.line) +
                          " inside a loop or if block, which is used out of its scope; the block is traced once, "
                          "so the container holds one tile for all iterations";
    lazy->error.hint = "declare one tensor before the block (e.g. nl.ndarray((n, nl.par_dim(128), 512), ...)) and "
                       "write each iteration's tile into it with t[i, ...] = ..., or use the tile inside the block";
    lazy->verbatim = true;
    slot = lazy;
    return true;
  };

  while (!todo.empty()) {
    Pending p = todo.back();
    todo.pop_back();
    tick();  // bounded: a kernel may build huge Python structures
    auto visit = [&](Ref& slot, const std::string& path) {
      if (!slot || poison(slot, path)) return;
      if (as_tensor(slot)) return;
      if (seen.insert(slot.get()).second) todo.push_back({slot.get(), path});
    };
    if (auto* seq = dynamic_cast<py::SeqObj*>(p.container)) {
      for (size_t i = 0; i < seq->items.size(); ++i) visit(seq->items[i], p.path + "[" + std::to_string(i) + "]");
    } else if (auto* dict = dynamic_cast<py::DictObj*>(p.container)) {
      for (auto& [k, v] : dict->entries) visit(v, p.path + key_text(k));
    } else if (auto* inst = dynamic_cast<py::InstanceObj*>(p.container)) {
      for (auto& [name, v] : inst->attrs) visit(v, p.path + "." + name);
    } else if (auto* bm = dynamic_cast<py::BoundMethod*>(p.container)) {
      visit(bm->self, p.path + ".__self__");
    }
  }
}

}  // namespace nki::front
