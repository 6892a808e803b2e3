#include "machine/capacity.h"

#include <algorithm>
#include <map>
#include <string>

#include "machine/interpreter.h"

namespace nki::machine {

namespace {

using Block = const std::vector<ir::Stmt>*;

std::string kib(int64_t bytes) {
  if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
  return std::to_string(bytes) + " bytes";
}

const char* target_name(Target t) { return t == Target::Trn2 ? "trn2" : "trn1"; }

// Worst block for one buffer kind: the live tensors and their total.
struct Worst {
  int64_t total = -1;
  std::vector<int> tensors;
};

Worst worst_block(const ir::Kernel& k, const ScopeInfo& scopes, ir::Buffer buf) {
  std::map<Block, std::vector<int>> own;
  for (size_t t = 0; t < k.tensors.size(); ++t) {
    const ir::TensorDecl& d = k.tensors[t];
    if (d.alias_of >= 0 || d.buffer != buf) continue;
    own[scopes.block_of[t]].push_back(static_cast<int>(t));
  }
  Worst worst;
  for (const auto& [block, parent] : scopes.parent) {
    Worst w;
    w.total = 0;
    for (Block b = block; b != nullptr;) {
      auto it = own.find(b);
      if (it != own.end())
        for (int t : it->second) {
          w.tensors.push_back(t);
          w.total += partition_bytes(k.tensors[static_cast<size_t>(t)]);
        }
      auto p = scopes.parent.find(b);
      b = p == scopes.parent.end() ? nullptr : p->second;
    }
    if (w.total > worst.total) worst = std::move(w);
  }
  return worst;
}

Diagnostic over_capacity(const ir::Kernel& k, const Worst& w, const char* code,
                         const std::string& what, int64_t cap, Target target) {
  std::vector<int> by_size = w.tensors;
  std::stable_sort(by_size.begin(), by_size.end(), [&](int a, int b) {
    return partition_bytes(k.tensors[static_cast<size_t>(a)]) >
           partition_bytes(k.tensors[static_cast<size_t>(b)]);
  });
  std::string names;
  for (size_t i = 0; i < by_size.size() && i < 3; ++i) {
    const ir::TensorDecl& d = k.tensors[static_cast<size_t>(by_size[i])];
    names += (i ? ", " : "") + ("'" + d.name + "' (" + kib(partition_bytes(d)) + ")");
  }
  const ir::TensorDecl& big = k.tensors[static_cast<size_t>(by_size.front())];
  return make_diagnostic(Severity::Error, code,
                         what + " needs " + kib(w.total) + " per partition at once, over the " +
                             target_name(target) + " capacity of " + kib(cap) +
                             "; biggest tensors: " + names,
                         k.file, big.loc,
                         "use smaller tiles, or create tiles inside the loop that uses them");
}

}  // namespace

int64_t sbuf_partition_bytes(Target t) { return t == Target::Trn2 ? 224 * 1024 : 192 * 1024; }

int64_t partition_bytes(const ir::TensorDecl& d) {
  int64_t n = 1;
  for (size_t i = 0; i < d.shape.size(); ++i)
    if (static_cast<int>(i) != d.partition_dim) n *= d.shape[i];
  return n * static_cast<int64_t>(dtype_size(d.dtype));
}

std::vector<Diagnostic> check_capacity(const ir::Kernel& k, Target target) {
  std::vector<Diagnostic> out;
  const ScopeInfo scopes = analyse_scopes(k);
  // One PSUM tile (a single block index) must fit in one 2 KiB bank.
  for (const ir::TensorDecl& d : k.tensors) {
    if (d.alias_of >= 0 || d.buffer != ir::Buffer::Psum) continue;
    int64_t tile = static_cast<int64_t>(dtype_size(d.dtype));
    for (size_t i = static_cast<size_t>(std::max(d.partition_dim, 0)) + 1; i < d.shape.size(); ++i)
      tile *= d.shape[i];
    if (tile > kPsumBankBytes)
      out.push_back(make_diagnostic(
          Severity::Error, "psum_capacity_exceeded",
          "PSUM tile '" + d.name + "' needs " + kib(tile) +
              " per partition, more than one 2 KiB PSUM bank (512 fp32 values)",
          k.file, d.loc, "split the free dimension into tiles of at most 512 fp32 elements"));
  }
  Worst s = worst_block(k, scopes, ir::Buffer::Sbuf);
  if (s.total > sbuf_partition_bytes(target))
    out.push_back(over_capacity(k, s, "sbuf_capacity_exceeded", "SBUF",
                                sbuf_partition_bytes(target), target));
  Worst p = worst_block(k, scopes, ir::Buffer::Psum);
  if (p.total > kPsumPartitionBytes)
    out.push_back(over_capacity(k, p, "psum_capacity_exceeded", "PSUM", kPsumPartitionBytes,
                                target));
  return out;
}

}  // namespace nki::machine
