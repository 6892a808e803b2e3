// Host storage for every tensor of a kernel run.
//
// Each tensor that owns storage (alias_of == -1) gets one byte buffer at its *storage dtype*:
// the declared dtype in Precise mode; fp32 for bf16/fp8/tf32 in LegacySim mode (unless a view
// reinterprets its bits as another dtype, which needs the real layout). Alias tensors
// (reshape/view) address their root's buffer with their own shape.
//
// Lifetimes (spec §2.5, §7.3): parameters, outputs, constants and shared-HBM tensors live for the
// whole run (all SPMD instances); private HBM, SBUF and PSUM tensors are refilled per instance.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/diag_codes.h"
#include "base/dtype.h"
#include "ir/ir.h"
#include "machine/executor.h"

namespace nki::machine {

// Never-written memory (spec §7.2/§7.3): float elements hold NaN (the all-ones bit pattern,
// a NaN in every float format); integer elements hold this sentinel (as the NKI 0.3+ simulator).
inline constexpr int64_t kUninitIntSentinel = 4;

struct Storage {
  DType dtype = DType::Float32;   // dtype of the elements held in `bytes`
  int64_t elements = 0;
  std::vector<uint8_t> bytes;     // owned elements (empty when borrowed)
  uint8_t* ptr = nullptr;          // the elements: bytes.data() or a borrowed host buffer
  bool borrowed = false;
  bool fresh_nan = false;          // just allocated with the all-ones (NaN) pattern
  std::vector<uint8_t> written;   // warn_uninit shadow: 1 per element once written
};

class Memory {
 public:
  // Validates aliases and sizes; allocates nothing yet.
  Memory(const ir::Kernel& k, const RunOptions& opt);

  // Uses a caller-owned buffer (already at the storage dtype) for a root tensor the kernel never
  // writes, instead of a copy. Must precede allocate_persistent().
  void borrow(int tensor, const uint8_t* data);
  // Moves a root tensor's owned bytes out (after the run), or returns an empty vector when the
  // storage is borrowed.
  std::vector<uint8_t> take_bytes(int tensor);
  // Allocates and initialises the tensors that persist across SPMD instances.
  void allocate_persistent();
  // Allocates (first call) and re-initialises every per-instance tensor.
  void begin_instance();
  // Applies a tensor's creation-time initialisation (Zeros/Fill, or the uninitialised pattern).
  void initialise(int tensor);

  bool is_persistent(int tensor) const;
  int root(int tensor) const { return root_[tensor]; }
  // Dtype of the elements as addressed through `tensor` (its alias view included).
  DType storage_dtype(int tensor) const { return view_dtype_[tensor]; }
  uint8_t* data(int tensor) { return store_[root_[tensor]].ptr; }
  Storage& storage(int tensor) { return store_[root_[tensor]]; }
  // Shadow bytes for `tensor`, or nullptr when not tracked (warn_uninit off, or a view that
  // reinterprets its root at another element width).
  uint8_t* shadow(int tensor);
  bool tracks_uninit() const { return track_; }

  // Deferred DMA copies (copy elision). A DMA that copies a contiguous run of `src_root` over the
  // whole of an on-chip root `dst_root`, with no conversion, does not copy: `dst_root` records
  // that its contents *are* those source elements, and readers use the source storage directly.
  // The copy happens (materialise) only before something writes either side, so results are
  // bit-identical to copying eagerly. Off when uninitialised reads are tracked (the shadow
  // bytes belong to the destination).
  bool elision_enabled() const { return elide_ && !track_; }
  void alias_to(int dst_root, int src_root, int64_t src_base);
  // Call before writing through `tensor`: materialises its root if deferred, and every deferred
  // root whose source is that root.
  void prepare_write(int tensor);
  // Storage to read `tensor` from, and the element offset to add to its addresses: the source
  // of a deferred copy, or its own storage (shift 0). `*store_root` gets the root whose storage
  // is returned.
  uint8_t* read_data(int tensor, int64_t* shift, int* store_root);
  // Performs every deferred copy (before results are read back).
  void materialize_all();

  // Reserves `bytes` of scratch against the limit for one instruction; throws when over.
  void check_scratch(int64_t bytes, const std::string& what) const;
  int64_t bytes_in_use() const { return in_use_; }

 private:
  void allocate(int tensor);
  void fill_uninit(Storage& s);
  void materialize(int root);
  void materialize_readers_of(int root);

  struct Deferred {
    int src = -1;        // root whose storage holds the elements, or -1
    int64_t base = 0;    // element offset of this root's element 0 in the source storage
  };

  const ir::Kernel& k_;
  Numerics numerics_;
  bool track_ = false;
  bool elide_ = true;
  int64_t max_bytes_;
  int64_t in_use_ = 0;
  std::vector<int> root_;
  std::vector<DType> view_dtype_;
  std::vector<Storage> store_;      // indexed by tensor id; only roots used
  std::vector<bool> allocated_;
  std::vector<Deferred> deferred_;  // per root
  std::vector<int> deferred_roots_;  // roots with a pending copy (few at a time)
};

// Thrown (as DiagnosticError) with this code when the memory limit is hit.
inline constexpr const char* kMemoryLimitCode = diag::name(diag::Code::sim_memory_limit);

}  // namespace nki::machine
