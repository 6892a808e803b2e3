// Imports from the kernel's own package (docs/python.md, "Kernels split over modules"): the
// file-system half. The evaluator (interp.cpp) runs the modules found here.
//
// Containment: only regular `.py` files whose real path lies under the package root are read:
// the directory above the outermost package (folder with __init__.py) holding the kernel file,
// or the kernel's own directory when it is in no package. Module names come from the parser, so
// they are identifiers: no path syntax reaches the file system. Nothing is written.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lang/ast.h"
#include "lang/value.h"

namespace nki::py {

// Process-wide switch, off by default (the CLI keeps kernels single-file); the Python drop-in
// (_nkisim) turns it on when it loads.
void set_package_imports(bool on);
bool package_imports_enabled();

// Per-evaluation state, stored in the kernel module's environment (and in every module it
// imports) under kPackageStateName.
struct PackageState : Obj {
  std::string root;        // package root (canonical)
  std::string kernel_dir;  // the kernel file's directory (canonical), searched first
  struct Loaded {
    std::string name;
    std::shared_ptr<Module> ast;      // kept alive: functions point into it
    EnvPtr env;                       // the module's globals
    std::shared_ptr<ModuleObj> obj;   // null while the module is still loading
  };
  std::vector<Loaded> loaded;
  std::string type_name() const override { return "package import state"; }
};
inline constexpr const char* kPackageStateName = "__nkisim_package_state__";
inline constexpr size_t kMaxPackageModules = 256;

// The state for a kernel at `kernel_path`, and the kernel module's own package (dotted, empty
// when the kernel is in no package). Null when the path cannot be resolved.
std::shared_ptr<PackageState> make_package_state(const std::string& kernel_path, std::string& kernel_package);

// The .py file of absolute module `dotted` under the package root ("" when there is none);
// `is_package` tells an __init__.py.
std::string find_package_module(const PackageState& st, const std::string& dotted, bool& is_package);

// The absolute name of a relative import (PEP 328) made from a module of `package`; raises
// ImportError when it would leave the kernel's top-level package.
std::string absolute_import_name(const std::string& package, const std::string& dotted, int level);

}  // namespace nki::py
