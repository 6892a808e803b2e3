#include "base/memory_budget.h"

#include <malloc.h>

#include <cstdlib>
#include <limits>
#include <new>

namespace {

// Net bytes this thread has taken from the heap through operator new (all time), and the
// value of that counter past which allocation is refused (max = no budget open).
thread_local int64_t t_net = 0;
thread_local int64_t t_threshold = std::numeric_limits<int64_t>::max();
thread_local bool t_refused = false;
thread_local int64_t t_refused_bytes = 0;  // size of the last refused request, for the diagnostic

[[maybe_unused]] void* counted_alloc(std::size_t n) {
  if (t_threshold != std::numeric_limits<int64_t>::max() &&
      static_cast<int64_t>(n) > t_threshold - t_net) {
    t_refused = true;
    t_refused_bytes = static_cast<int64_t>(n);
    return nullptr;
  }
  void* p = std::malloc(n ? n : 1);
  if (p) t_net += static_cast<int64_t>(::malloc_usable_size(p));
  return p;
}

[[maybe_unused]] void counted_free(void* p) noexcept {
  if (!p) return;
  t_net -= static_cast<int64_t>(::malloc_usable_size(p));
  std::free(p);
}

}  // namespace

// AddressSanitizer brings its own operator new/delete (and its own allocation limits,
// -malloc_limit_mb / -rss_limit_mb): under it the budget counts nothing.
#if defined(__SANITIZE_ADDRESS__)
#define NKI_COUNT_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NKI_COUNT_ALLOCATIONS 0
#endif
#endif
#ifndef NKI_COUNT_ALLOCATIONS
#define NKI_COUNT_ALLOCATIONS 1
#endif

#if NKI_COUNT_ALLOCATIONS
// Global replacements ([new.delete.single], [new.delete.array]). The aligned forms are left to
// the library: they pair with their own deletes and nothing on an evaluation path uses them.
void* operator new(std::size_t n) {
  if (void* p = counted_alloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  if (void* p = counted_alloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counted_free(p); }
#endif

namespace nki {

MemoryBudget::MemoryBudget(int64_t limit_bytes)
    : limit_(limit_bytes), base_(t_net), saved_threshold_(t_threshold), saved_refused_(t_refused) {
  int64_t threshold = limit_bytes > std::numeric_limits<int64_t>::max() - base_
                          ? std::numeric_limits<int64_t>::max() - 1
                          : base_ + limit_bytes;
  if (threshold < t_threshold) t_threshold = threshold;  // nested budgets only tighten
  t_refused = false;
}

MemoryBudget::~MemoryBudget() {
  t_threshold = saved_threshold_;
  t_refused = saved_refused_;
}

int64_t MemoryBudget::used() const { return t_net - base_; }
bool MemoryBudget::refused() const { return t_refused; }
void MemoryBudget::reset_thread_after_fork() {
  t_net = 0;
  t_threshold = std::numeric_limits<int64_t>::max();
  t_refused = false;
  t_refused_bytes = 0;
}

int64_t MemoryBudget::refused_bytes() const { return t_refused ? t_refused_bytes : 0; }

}  // namespace nki
