// The file-system half of imports from the kernel's own package (lang/package_import.h).
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <system_error>

#include "lang/package_import.h"

namespace nki::py {
namespace fs = std::filesystem;

namespace {

constexpr uintmax_t kMaxModuleBytes = 4u << 20;  // a helper module, not a data file
std::atomic<bool> g_enabled{false};

bool is_package_dir(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "__init__.py", ec);
}

std::vector<std::string> split_dotted(const std::string& dotted) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= dotted.size()) {
    size_t dot = dotted.find('.', start);
    if (dot == std::string::npos) dot = dotted.size();
    parts.push_back(dotted.substr(start, dot - start));
    start = dot + 1;
  }
  return parts;
}

std::string join_dotted(const std::vector<std::string>& parts) {
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : ".") + p;
  return s;
}

// True when canonical `p` is `root` or below it.
bool is_under(const fs::path& p, const fs::path& root) {
  auto r = std::mismatch(root.begin(), root.end(), p.begin(), p.end()).first;
  return r == root.end();
}

}  // namespace

void set_package_imports(bool on) { g_enabled.store(on); }
bool package_imports_enabled() { return g_enabled.load(); }

std::shared_ptr<PackageState> make_package_state(const std::string& kernel_path, std::string& kernel_package) {
  std::error_code ec;
  fs::path kernel = fs::weakly_canonical(fs::path(kernel_path), ec);
  if (ec || kernel.empty() || !kernel.has_parent_path()) return nullptr;
  auto st = std::make_shared<PackageState>();
  fs::path dir = kernel.parent_path();
  st->kernel_dir = dir.string();
  std::vector<std::string> package;
  while (is_package_dir(dir) && dir.has_parent_path() && dir.parent_path() != dir) {
    package.insert(package.begin(), dir.filename().string());
    dir = dir.parent_path();
  }
  st->root = dir.string();
  kernel_package = join_dotted(package);
  return st;
}

std::string find_package_module(const PackageState& st, const std::string& dotted, bool& is_package) {
  std::vector<std::string> parts = split_dotted(dotted);
  for (const std::string& part : parts)
    if (part.empty()) return {};
  fs::path root(st.root);
  // The kernel's directory is on sys.path when the kernel runs as a script; the package root
  // holds its top package.
  for (const std::string& base : {st.kernel_dir, st.root}) {
    fs::path p(base);
    for (const std::string& part : parts) p /= part;
    for (int pkg = 0; pkg < 2; ++pkg) {
      fs::path cand = pkg ? p / "__init__.py" : fs::path(p.string() + ".py");
      std::error_code ec;
      if (!fs::is_regular_file(cand, ec)) continue;
      fs::path real = fs::canonical(cand, ec);  // symlinks resolved: no escape from the root
      if (ec || !is_under(real, root) || real.extension() != ".py") continue;
      uintmax_t size = fs::file_size(real, ec);
      if (ec || size > kMaxModuleBytes) continue;
      is_package = pkg == 1;
      return real.string();
    }
  }
  return {};
}

std::string absolute_import_name(const std::string& package, const std::string& dotted, int level) {
  std::vector<std::string> parts = package.empty() ? std::vector<std::string>{} : split_dotted(package);
  if (parts.empty()) raise("ImportError", "attempted relative import with no known parent package");
  if (static_cast<size_t>(level - 1) >= parts.size())
    raise("ImportError", "attempted relative import beyond top-level package");
  parts.resize(parts.size() - static_cast<size_t>(level - 1));
  std::string base = join_dotted(parts);
  return dotted.empty() ? base : base + "." + dotted;
}

}  // namespace nki::py
