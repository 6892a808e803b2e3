#include "check/direct_alloc.h"

#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "base/diag_codes.h"
#include "check/liveness.h"

namespace nki::check {

using ir::shape_str;

std::optional<Diagnostic> direct_alloc_error(const ir::Kernel& k, const std::vector<DirectTensor>& placed,
                                             const std::set<int>& folded_results, std::vector<Diagnostic>& warnings) {
  std::set<int> direct;
  for (const DirectTensor& d : placed) direct.insert(d.tensor);
  // Non-IO HBM tensors (nki_direct_allocation_guide.rst, Known Limitations #1; nki_known_issues.rst):
  // shared_hbm tensors must be returned, hbm / private_hbm tensors are not allowed. A returned
  // view (out.reshape(...)) is the output: its storage is the output tensor's.
  std::set<int> io_storage;
  for (int id : k.outputs) {
    int r = id;
    while (r >= 0 && k.tensors[static_cast<size_t>(r)].alias_of >= 0) r = k.tensors[static_cast<size_t>(r)].alias_of;
    io_storage.insert(r);
  }
  for (const ir::TensorDecl& d : k.tensors) {
    if (!ir::is_hbm(d.buffer) || d.alias_of != -1 || d.role != ir::TensorRole::Internal) continue;
    if (io_storage.count(d.id)) continue;
    return make_diagnostic(Severity::Error, diag::Code::non_io_hbm_tensor,
                           "Non IO HBM tensor is not supported in allocated NKI kernel: '" + d.name + "' (buffer " +
                               ir::buffer_name(d.buffer) + ")",
                           k.file, d.loc,
                           d.buffer == ir::Buffer::SharedHbm
                               ? "return the shared_hbm tensor from the kernel, or keep the data in allocated SBUF"
                               : "keep scratch data in allocated SBUF tiles; only kernel inputs and returned outputs may "
                                 "live in HBM");
  }
  // Mixing (sbuf.py / psum.py notes, guide "Common Errors" #1 and #2): every on-chip tensor that
  // the kernel uses, including an instruction's result that is not assigned into an allocated
  // tile, must be directly allocated.
  const Liveness live = on_chip_liveness(k);
  for (const LiveRange& r : live.ranges) {
    if (direct.count(r.tensor)) continue;
    // Written by its instruction and read by the assignment that follows it, nothing else.
    if (folded_results.count(r.tensor) && r.last <= r.first + 1) continue;
    const ir::TensorDecl& d = k.tensors[static_cast<size_t>(r.tensor)];
    return make_diagnostic(Severity::Error, diag::Code::mixed_allocation,
                           "'" + d.name + "' " + shape_str(d.shape) + " in " + ir::buffer_name(d.buffer) +
                               " is allocated automatically, but this kernel uses direct allocation; automatic "
                               "and direct allocation cannot be mixed",
                           k.file, d.loc,
                           "create the tile with nl.ndarray(..., buffer=ncc.sbuf.mod_alloc(...)) (or ncc.psum) and "
                           "assign the result into it: t[...] = ...");
  }
  // Lifetime conflicts (guide "Common Errors" #3): two tensors whose physical tiles overlap and
  // are live at the same time. The compiler's own checks are incomplete (guide, Known
  // Limitations #4), so this is a warning. Live ranges are the lower bounds of liveness.h.
  std::vector<const LiveRange*> range_of(k.tensors.size(), nullptr);
  for (const LiveRange& r : live.ranges) range_of[static_cast<size_t>(r.tensor)] = &r;
  auto unique_tiles = [](const DirectTensor& d) {
    std::set<std::tuple<int64_t, int64_t, int64_t>> s;
    for (const TilePlacement& p : d.tiles) s.insert({p.bank, p.start_partition, p.byte_addr});
    return s;
  };
  // Only tensors with a single logical tile (no block dimensions) are compared: the live range
  // of a tensor with several logical tiles is the union over its tiles, and another tensor may
  // legally reuse a physical tile between two of its logical tiles (the nki-samples
  // allocated_attention kernel shares PSUM banks this way).
  for (size_t a = 0; a < placed.size(); ++a) {
    const LiveRange* ra = range_of[static_cast<size_t>(placed[a].tensor)];
    if (!ra || placed[a].tiles.size() != 1 || k.tensors[static_cast<size_t>(placed[a].tensor)].partition_dim != 0)
      continue;
    const auto ta = unique_tiles(placed[a]);
    for (size_t b = a + 1; b < placed.size(); ++b) {
      const DirectTensor& A = placed[a];
      const DirectTensor& B = placed[b];
      const LiveRange* rb = range_of[static_cast<size_t>(B.tensor)];
      if (!rb || B.tiles.size() != 1 || k.tensors[static_cast<size_t>(B.tensor)].partition_dim != 0 ||
          A.buffer != B.buffer)
        continue;
      if (ra->last < rb->first || rb->last < ra->first) continue;
      bool overlap = false;
      for (const auto& [bank_b, sp_b, addr_b] : unique_tiles(B)) {
        for (const auto& [bank_a, sp_a, addr_a] : ta) {
          const bool parts = sp_a < sp_b + B.pdim_size && sp_b < sp_a + A.pdim_size;
          const bool bytes = A.buffer == ir::Buffer::Psum
                                 ? bank_a == bank_b
                                 : (addr_a < addr_b + B.fdim_bytes && addr_b < addr_a + A.fdim_bytes);
          if (parts && bytes) overlap = true;
        }
        if (overlap) break;
      }
      if (!overlap) continue;
      const ir::TensorDecl& da = k.tensors[static_cast<size_t>(A.tensor)];
      const ir::TensorDecl& db = k.tensors[static_cast<size_t>(B.tensor)];
      warnings.push_back(make_diagnostic(
          Severity::Warning, diag::Code::allocation_overlap,
          "'" + db.name + "' is placed on " + (B.buffer == ir::Buffer::Psum ? "a PSUM bank" : "SBUF memory") +
              " that '" + da.name + "' (line " + std::to_string(da.loc.line) +
              ") also uses while both are live; the hardware result would be wrong (the simulator keeps them apart)",
          k.file, db.loc, "give tensors that are live at the same time disjoint addresses / banks"));
    }
  }
  return std::nullopt;
}

}  // namespace nki::check
