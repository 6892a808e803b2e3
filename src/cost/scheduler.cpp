#include "cost/scheduler.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <cstdio>
#include <cstdlib>

#include "check/liveness.h"
#include "ir/walk.h"

namespace nki::cost {

namespace {
constexpr double kNever = -1;
constexpr size_t kMaxEntriesPerRegion = 1024;
constexpr int64_t kWarmupInstructionBudget = 256;

int64_t tile_bytes_per_partition(const ir::TensorDecl& t) {
  int64_t n = 1;
  for (size_t d = 0; d < t.shape.size(); ++d)
    if (static_cast<int>(d) != t.partition_dim) n *= std::max<int64_t>(t.shape[d], 1);
  return n * static_cast<int64_t>(dtype_size(t.dtype));
}
// PSUM banks one tile of `t` occupies in each partition: at least one.
int64_t psum_banks_of(const ir::TensorDecl& t, int64_t bank_bytes) {
  return std::max<int64_t>(1, (tile_bytes_per_partition(t) + bank_bytes - 1) / bank_bytes);
}
// ir::for_each_access's order (dst, sources, reduce_res; each followed by its indirect index
// tensors) without its std::function: the scheduler visits the operands of every scheduled and
// replayed instruction, and a capturing lambda wrapped in std::function allocates each time.
template <typename F>
void visit_accesses(const ir::Instr& in, F&& f) {
  auto visit = [&f](auto&& self, const ir::Access& a, bool written) -> void {
    if (a.tensor < 0) return;
    f(a, written);
    if (a.indirect && a.indirect->index) self(self, *a.indirect->index, false);
  };
  visit(visit, in.dst, true);
  for (const ir::Operand& o : in.srcs)
    if (!o.is_imm) visit(visit, o.access, false);
  if (in.reduce_res) visit(visit, *in.reduce_res, true);
}
}  // namespace

void Totals::add_scaled(const Totals& a, const Totals& b, int64_t n) {
  const double f = static_cast<double>(n);
  for (int u = 0; u < kNumUnits; ++u) {
    busy[u] += f * (a.busy[u] - b.busy[u]);
    count[u] += n * (a.count[u] - b.count[u]);
  }
  dma_engine_busy += f * (a.dma_engine_busy - b.dma_engine_busy);
  hbm_busy += f * (a.hbm_busy - b.hbm_busy);
  mm_flops += f * (a.mm_flops - b.mm_flops);
  transpose_flops += f * (a.transpose_flops - b.transpose_flops);
  vector_flops += f * (a.vector_flops - b.vector_flops);
  hbm_read += n * (a.hbm_read - b.hbm_read);
  hbm_write += n * (a.hbm_write - b.hbm_write);
  dma_bytes += n * (a.dma_bytes - b.dma_bytes);
  dma_count += n * (a.dma_count - b.dma_count);
  instructions += n * (a.instructions - b.instructions);
}

Scheduler::Scheduler(const ir::Kernel& k, const CostTable& t, const CostOptions& o)
    : k_(k), t_(t), hw_(nki::describe(t.target)), o_(o), env_(k, ir::OnOverflow::Saturate) {
  const size_t nt = k.tensors.size();
  root_.resize(nt);
  instances_.assign(nt, 1);
  instance_.assign(nt, 0);
  for (size_t i = 0; i < nt; ++i) {
    int r = static_cast<int>(i), guard = 0;
    while (k.tensors[static_cast<size_t>(r)].alias_of >= 0 && guard++ < 64) r = k.tensors[static_cast<size_t>(r)].alias_of;
    root_[i] = r;
  }
  // Where each tensor is created: the block at its scope depth on the path of its first use
  // (the simulator's rule, machine/interpreter.h). Tiles created inside a loop body get a new
  // (rotating) instance per iteration, as the compiler allocates them (TP §3.6).
  // Rotation follows iterations, not `if` arms: a tile created in an arm belongs to the nearest
  // enclosing loop body (or the kernel body), so wrapping a loop body in an `if` neither gives
  // its tiles extra buffers nor takes them away.
  std::vector<const std::vector<ir::Stmt>*> stack = {&k.body};
  std::vector<bool> repeats = {true};  // per stack entry: a loop body (or the kernel body)
  std::vector<bool> seen(nt, false);
  std::vector<const std::vector<ir::Stmt>*> block_of(nt, &k.body);
  in_loop_block_.assign(nt, 0);
  ir::WalkCallbacks cb;
  cb.instr = [&](const ir::Instr& in, int) {
    ir::for_each_access(in, [&](const ir::Access& a, bool) {
      size_t ti = static_cast<size_t>(a.tensor);
      if (ti >= nt || seen[ti]) return;
      seen[ti] = true;
      int depth = k.tensors[ti].scope_depth;
      size_t d = depth <= 0 ? 0 : std::min(static_cast<size_t>(depth), stack.size() - 1);
      while (d > 0 && !repeats[d]) --d;
      block_of[ti] = stack[d];
    });
  };
  cb.enter_loop = [&](const ir::Loop& l, int) {
    stack.push_back(&l.body);
    repeats.push_back(true);
    return true;
  };
  cb.exit_loop = [&](const ir::Loop&, int) {
    stack.pop_back();
    repeats.pop_back();
  };
  cb.enter_branch = [&](const ir::If& c, bool then_branch, int) {
    stack.push_back(then_branch ? &c.then_body : &c.else_body);
    repeats.push_back(false);
    return true;
  };
  cb.exit_branch = [&](const ir::If&, bool, int) {
    stack.pop_back();
    repeats.pop_back();
  };
  ir::walk(k, cb);
  for (size_t i = 0; i < nt; ++i) {
    const ir::TensorDecl& d = k.tensors[i];
    if (root_[i] != static_cast<int>(i)) continue;
    if (ir::is_hbm(d.buffer) || d.role != ir::TensorRole::Internal || block_of[i] == &k.body) continue;
    created_in_[block_of[i]].push_back(static_cast<int>(i));
    in_loop_block_[i] = 1;
    int n = static_cast<int>(t.buffer_instances);
    if (d.buffer == ir::Buffer::Psum) {
      // A tile uses at least one of the PSUM banks of a partition [A1].
      n = static_cast<int>(std::clamp<int64_t>(hw_.psum_banks / psum_banks_of(d, hw_.psum_bank_bytes), 1, n));
    }
    instances_[i] = std::max(n, 1);
  }
  limit_sbuf_instances();
  limit_psum_instances();
  if (t.hoist_invariant_compute > 0) find_invariant_compute();
  find_partition_broadcasts();
  // Regions by (tensor, rotating instance), numbered densely once the instance counts are final.
  region_base_.assign(nt, 0);
  int64_t regions = 0;
  for (size_t i = 0; i < nt; ++i) {
    region_base_[i] = regions;
    regions += std::max(instances_[i], 1);
  }
  regions_.assign(static_cast<size_t>(regions), {});
  last_.fill(-1);
  dma_engine_.assign(static_cast<size_t>(t.dma_engines), GapResource{});
  act_seen_.assign(64, false);
}

// Rotating instances must fit in SBUF: one partition holds sbuf_partition_bytes [A1] [A2]. Every
// SBUF tensor needs one instance; extra instances of loop-allocated tiles are handed out one at a
// time (smallest first, round by round) while they still fit, so a kernel whose blocks fill SBUF gets no
// double buffering, as the compiler's allocator could not give it any (TP §3.6).
// PSUM has 8 banks per partition [A1]; a tile occupies whole banks. Tiles that are live at the
// same time (check/liveness.h: the shortest lifetimes the IR allows) share them: every PSUM tile
// gets one instance, and extra (rotating) instances are granted, smallest tile first, only where
// the banks live over the tile's range still fit. A loop tile left with one buffer makes the next
// iteration's matmul wait until this one's result was copied out of PSUM (perf_psum_banks).
void Scheduler::limit_psum_instances() {
  const check::Liveness live = check::on_chip_liveness(k_);
  const int64_t cap = hw_.psum_banks;
  std::vector<int64_t> demand(static_cast<size_t>(std::max<int64_t>(live.positions, 0)) + 1, 0);
  struct Tile {
    size_t tensor;
    int64_t banks, first, last;
    int want;
  };
  std::vector<Tile> tiles;
  for (const check::LiveRange& r : live.ranges) {
    const size_t i = static_cast<size_t>(r.tensor);
    if (i >= k_.tensors.size() || k_.tensors[i].buffer != ir::Buffer::Psum || root_[i] != static_cast<int>(i)) continue;
    const int64_t first = std::clamp<int64_t>(r.first, 0, static_cast<int64_t>(demand.size()) - 1);
    const int64_t last = std::clamp<int64_t>(r.last, first, static_cast<int64_t>(demand.size()) - 1);
    tiles.push_back(Tile{i, psum_banks_of(k_.tensors[i], hw_.psum_bank_bytes) * std::max<int64_t>(r.tiles, 1), first, last,
                         instances_[i]});
    instances_[i] = 1;
  }
  auto peak = [&](const Tile& t) {
    int64_t m = 0;
    for (int64_t p = t.first; p <= t.last; ++p) m = std::max(m, demand[static_cast<size_t>(p)]);
    return m;
  };
  auto add = [&](const Tile& t) {
    for (int64_t p = t.first; p <= t.last; ++p) demand[static_cast<size_t>(p)] += t.banks;
  };
  for (const Tile& t : tiles) add(t);
  int64_t needed = 0;
  for (int64_t d : demand) needed = std::max(needed, d);
  psum_banks_ = needed;
  std::stable_sort(tiles.begin(), tiles.end(), [](const Tile& a, const Tile& b) { return a.banks < b.banks; });
  for (bool granted = true; granted;) {
    granted = false;
    for (const Tile& t : tiles) {
      if (instances_[t.tensor] >= t.want || peak(t) + t.banks > cap) continue;
      add(t);
      ++instances_[t.tensor];
      granted = true;
    }
  }
  for (const Tile& t : tiles)
    if (instances_[t.tensor] < std::min(t.want, 2)) psum_starved_.insert(static_cast<int>(t.tensor));
}

void Scheduler::limit_sbuf_instances() {
  const size_t nt = k_.tensors.size();
  int64_t used = 0;
  std::vector<int> want(nt, 1);
  for (size_t i = 0; i < nt; ++i) {
    const ir::TensorDecl& d = k_.tensors[i];
    if (root_[i] != static_cast<int>(i) || d.buffer != ir::Buffer::Sbuf) continue;
    used += tile_bytes_per_partition(d);
    want[i] = instances_[i];
    instances_[i] = 1;
  }
  const int64_t cap = static_cast<int64_t>(t_.sbuf_partition_bytes);
  // Smallest tiles first: an extra instance of a small tile costs least SBUF.
  std::vector<size_t> order(nt);
  for (size_t i = 0; i < nt; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return tile_bytes_per_partition(k_.tensors[a]) < tile_bytes_per_partition(k_.tensors[b]);
  });
  for (bool granted = true; granted;) {
    granted = false;
    for (size_t i : order) {
      if (instances_[i] >= want[i] || k_.tensors[i].buffer != ir::Buffer::Sbuf) continue;
      const int64_t b = tile_bytes_per_partition(k_.tensors[i]);
      if (used + b > cap) continue;
      used += b;
      ++instances_[i];
      granted = true;
    }
  }
  if (std::getenv("NKI_COST_DEBUG"))
    for (size_t i = 0; i < nt; ++i)
      if (k_.tensors[i].buffer == ir::Buffer::Sbuf && root_[i] == static_cast<int>(i))
        std::fprintf(stderr, "sbuf tensor %zu '%s': %lld B/partition, %d of %d instances (%lld of %lld B used)\n", i,
                     k_.tensors[i].name.c_str(), static_cast<long long>(tile_bytes_per_partition(k_.tensors[i])),
                     instances_[i], want[i], static_cast<long long>(used), static_cast<long long>(cap));
}

namespace {
bool expr_uses(const ir::Kernel& k, const ir::ScalarExpr& e, int loop, int depth = 0);
bool atom_uses(const ir::Kernel& k, int id, int loop, int depth) {
  if (id < 0 || id >= static_cast<int>(k.atoms.size()) || depth > 64) return true;
  const ir::Atom& a = k.atoms[static_cast<size_t>(id)];
  switch (a.kind) {
    case ir::AtomKind::LoopVar: return a.loop == loop;
    case ir::AtomKind::ProgramId: return false;
    default: return expr_uses(k, a.operand, loop, depth + 1);
  }
}
bool expr_uses(const ir::Kernel& k, const ir::ScalarExpr& e, int loop, int depth) {
  for (const auto& [id, c] : e.terms)
    if (c != 0 && atom_uses(k, id, loop, depth)) return true;
  return false;
}
}  // namespace

// An instruction directly in a loop body is invariant when none of its indices or mask terms
// use the induction variable, nothing in the loop writes what it reads, and it is the only
// writer of its (on-chip) destination in the loop. Compute only: loads are left in place.
void Scheduler::find_invariant_compute() {
  ir::WalkCallbacks loops;
  loops.enter_loop = [&](const ir::Loop& lp, int) {
    std::map<int, int> writers;
    ir::WalkCallbacks cb;
    cb.instr = [&](const ir::Instr& in, int) {
      ir::for_each_access(in, [&](const ir::Access& a, bool written) {
        if (written || in.op == ir::Opcode::Custom) ++writers[root_[static_cast<size_t>(a.tensor)]];
      });
    };
    ir::walk(lp.body, cb);
    for (const ir::Stmt& c : lp.body) {
      const auto* in = std::get_if<ir::Instr>(&c.node);
      if (!in || in->dst.tensor < 0 || in->op == ir::Opcode::Custom || in->op == ir::Opcode::Matmul ||
          in->accumulate || in->rmw || in->reduce_op || in->reduce_res || is_dma_instr(k_, *in))
        continue;
      if (!ir::is_on_chip(k_.tensors[static_cast<size_t>(in->dst.tensor)].buffer)) continue;
      bool invariant = writers[root_[static_cast<size_t>(in->dst.tensor)]] == 1;
      ir::for_each_access(*in, [&](const ir::Access& a, bool written) {
        if (a.indirect) invariant = false;
        for (const ir::ScalarExpr& e : a.offset) invariant &= !expr_uses(k_, e, lp.id);
        if (!written && writers.count(root_[static_cast<size_t>(a.tensor)])) invariant = false;
      });
      if (in->mask)
        for (const ir::Predicate& p : in->mask->terms) invariant &= !expr_uses(k_, p.rest, lp.id);
      if (!invariant) continue;
      hoisted_.insert(in);
      instances_[static_cast<size_t>(root_[static_cast<size_t>(in->dst.tensor)])] = 1;
    }
    return true;  // and the loops nested in it
  };
  ir::walk(k_, loops);
}

// A tile whose every writer is an on-chip copy from a [1, F] tile onto more partitions is a
// partition broadcast: the compiler emits a ones-matmul into PSUM and the consumers read PSUM
// (TP §2.2 [A1]; §3.4 maps broadcast_to across partitions to PE, not to a copy engine).
void Scheduler::find_partition_broadcasts() {
  const size_t nt = k_.tensors.size();
  std::vector<int> writers(nt, 0), broadcast_writers(nt, 0);
  std::vector<const ir::Instr*> copies;
  ir::WalkCallbacks cb;
  cb.instr = [&](const ir::Instr& in, int) {
    if (in.dst.tensor < 0) return;
    const size_t root = static_cast<size_t>(root_[static_cast<size_t>(in.dst.tensor)]);
    ++writers[root];
    if (in.op != ir::Opcode::Copy || in.accumulate || in.rmw || in.mask || is_dma_instr(k_, in)) return;
    if (k_.tensors[root].buffer != ir::Buffer::Sbuf) return;
    if (compute_cost(k_, in, t_).pe_broadcast_ns <= 0) return;
    ++broadcast_writers[root];
    copies.push_back(&in);
  };
  ir::walk(k_, cb);
  psum_resident_.assign(nt, 0);
  for (size_t i = 0; i < nt; ++i) {
    const size_t root = static_cast<size_t>(root_[i]);
    psum_resident_[i] = writers[root] > 0 && writers[root] == broadcast_writers[root];
  }
  for (const ir::Instr* in : copies)
    if (psum_resident_[static_cast<size_t>(in->dst.tensor)]) broadcast_copies_.insert(in);
}

void Scheduler::append_clocks(std::vector<double>& out) const {
  out.insert(out.end(), free_.begin(), free_.end());
  for (const GapResource& g : dma_engine_) out.push_back(g.last_end());
  out.push_back(hbm_.last_end());
  out.push_back(frontier_);
}

void Scheduler::append_work(std::vector<double>& out) const {
  out.insert(out.end(), tot_.busy.begin(), tot_.busy.begin() + 4);  // PE, DVE, ACT, POOL
  for (const GapResource& g : dma_engine_) out.push_back(g.reserved());
  out.push_back(hbm_.reserved());
}

int Scheduler::push(const Rec& r) {
  recs_.push_back(r);
  if (r.done > frontier_) {
    frontier_ = r.done;
    frontier_rec_ = static_cast<int>(recs_.size()) - 1;
  }
  return static_cast<int>(recs_.size()) - 1;
}

void Scheduler::run() {
  const int64_t instances = std::max<int64_t>(ir::element_count(k_.grid), 1);
  std::vector<int64_t> pid(k_.grid.size(), 0);
  // SPMD instances run one after another on one NeuronCore (LNC=1).
  auto set_pid = [&](int64_t i) {
    int64_t rest = i;
    for (size_t d = k_.grid.size(); d-- > 0;) {
      pid[d] = rest % std::max<int64_t>(k_.grid[d], 1);
      rest /= std::max<int64_t>(k_.grid[d], 1);
    }
    env_.set_program_ids(pid);
  };
  iterate(
      instances, 0, nullptr,
      [&](int64_t i) {
        set_pid(i);
        run_block(k_.body, 0, true);
      },
      [&](int64_t i, double offset, int rec) {
        set_pid(i);
        replay_block(k_.body, offset, rec, true);
      });
}

// Instructions one iteration of `body` schedules (nested loops by their trip counts), capped.
int64_t Scheduler::body_size(const std::vector<ir::Stmt>& body) {
  auto it = body_size_.find(&body);
  if (it != body_size_.end()) return it->second;
  int64_t n = 0;
  for (const ir::Stmt& s : body) {
    ir::visit_stmt(
        s, [&](const ir::Instr&) { ++n; },
        [&](const ir::Loop& lp) { n += std::max<int64_t>(lp.trip_count(), 1) * body_size(lp.body); },
        [&](const ir::If& c) { n += std::max(body_size(c.then_body), body_size(c.else_body)); });
    n = std::min<int64_t>(n, int64_t{1} << 40);
  }
  body_size_[&body] = n;
  return n;
}

void Scheduler::iterate(int64_t trips, int depth, const ir::Loop* loop, const std::function<void(int64_t)>& body,
                        const std::function<void(int64_t, double, int)>& replay_iteration) {
  if (trips <= 0) return;
  // Deeper loops warm up with fewer iterations so that the scheduling work stays bounded.
  // At least enough iterations for loads to run ahead by every rotating instance and then be
  // throttled by the WAR on the oldest one: before that no timeline advances at its steady rate.
  int warm = std::max(static_cast<int>(t_.buffer_instances) + 3, o_.max_warmup_iterations >> std::min(depth, 8));
  // Small bodies are cheap to schedule: give them more iterations to reach the steady state
  // (DMA engines filling gaps converge slowly), within a budget of scheduled instructions.
  if (loop) {
    const int64_t size = std::max<int64_t>(1, body_size(loop->body));
    const int64_t budget = kWarmupInstructionBudget >> std::min(std::max(depth - 1, 0), 16);
    warm = static_cast<int>(std::max<int64_t>(warm, std::min<int64_t>(budget / size, 1 << 16)));
  }

  const int first_rec = static_cast<int>(recs_.size());
  // History of the clocks and work after each iteration (entry 0: before the first), flat with
  // a stride of nc / nw. Buffers are kept per depth (nested calls have larger depths), so that
  // no iteration allocates.
  while (scratch_.size() <= static_cast<size_t>(depth)) scratch_.emplace_back();
  IterScratch& sc = scratch_[static_cast<size_t>(depth)];
  const size_t nc = kNumUnits + dma_engine_.size() + 2, nw = 4 + dma_engine_.size() + 1;
  sc.hist_clocks.clear();
  sc.hist_work.clear();
  append_clocks(sc.hist_clocks);
  append_work(sc.hist_work);
  std::vector<double>& delta = sc.delta;
  std::vector<double>& work_delta = sc.work_delta;
  std::vector<double>& prev_delta = sc.prev_delta;
  std::vector<double>& prev_work_delta = sc.prev_work_delta;
  prev_delta.clear();
  prev_work_delta.clear();
  Totals prev_tot = tot_;
  // Only iterations that issue the same instructions are extrapolated together: a body that
  // branches on the loop's own index is cut into segments at every change of outcome, and the
  // iterations where an outcome changes with an inner loop's index are all scheduled.
  const std::vector<IterationSegment> segments = o_.extrapolate ? segmenter_.segments(env_, loop, trips)
                                                                 : std::vector<IterationSegment>{};
  size_t seg = 0;
  int64_t seg_begin = 0;  // first iteration of the current segment: the steady-state search restarts there
  for (int64_t i = 0; i < trips; ++i) {
    if (!segments.empty() && i >= segments[seg].end) {
      while (i >= segments[seg].end) ++seg;
      seg_begin = i;
      sc.hist_clocks.clear();
      sc.hist_work.clear();
      append_clocks(sc.hist_clocks);
      append_work(sc.hist_work);
      prev_delta.clear();
      prev_work_delta.clear();
      prev_tot = tot_;
    }
    const size_t iteration_first = recs_.size();
    body(i);
    if (trips - i - 1 == 0) return;
    if (!o_.extrapolate || !segments[seg].regular) continue;
    const int64_t left = segments[seg].end - i - 1;  // iterations of this segment still to come
    const int64_t n = i - seg_begin;                 // this segment's iterations scheduled so far, minus one
    // Per-iteration advance averaged over a window of recent iterations: with rotating buffers
    // and gap-filling DMA engines the queues advance in an irregular pattern, and one
    // iteration's advance can be far from the average.
    append_clocks(sc.hist_clocks);
    append_work(sc.hist_work);
    const size_t entries = sc.hist_clocks.size() / nc;  // n + 2
    // The window is the later half of the iterations so far (at least buffer_instances).
    const size_t win = std::min<size_t>(std::max<size_t>(static_cast<size_t>(std::max(1.0, t_.buffer_instances)),
                                                         static_cast<size_t>(n + 1) / 2),
                                        static_cast<size_t>(n + 1));
    const double* now = &sc.hist_clocks[(entries - 1) * nc];
    const double* c0 = &sc.hist_clocks[(entries - 1 - win) * nc];
    const double* now_work = &sc.hist_work[(entries - 1) * nw];
    const double* w0 = &sc.hist_work[(entries - 1 - win) * nw];
    delta.resize(nc);
    work_delta.resize(nw);
    for (size_t j = 0; j < nc; ++j) delta[j] = (now[j] - c0[j]) / static_cast<double>(win);
    for (size_t j = 0; j < nw; ++j) work_delta[j] = (now_work[j] - w0[j]) / static_cast<double>(win);
    bool steady = !prev_delta.empty();
    // One iteration's advance: the resource that moved furthest, and at least the work one
    // iteration puts on any single resource (an iteration whose DMAs filled idle gaps did not
    // move the engines' clocks, but the remaining iterations will once the gaps are used up).
    double step = 0;
    for (double d : delta) step = std::max(step, d);
    for (double d : work_delta) step = std::max(step, d);
    for (size_t j = 0; steady && j < delta.size(); ++j)
      steady = std::fabs(delta[j] - prev_delta[j]) <= 1e-6 * std::max(1.0, std::fabs(step)) + 1e-3;
    for (size_t j = 0; steady && j < work_delta.size(); ++j)
      steady = std::fabs(work_delta[j] - prev_work_delta[j]) <= 1e-6 * std::max(1.0, std::fabs(step)) + 1e-3;
    // Two equal advances before every rotating instance has been reused once are not a steady
    // state yet (the loads are still running ahead of the compute that frees their buffers).
    const bool wrapped = n >= static_cast<int64_t>(t_.buffer_instances) + 1;
    if (left >= 2 && ((steady && wrapped) || n + 1 >= warm)) {
      // Steady state (or warm-up budget spent): the remaining `left` iterations advance every
      // timeline by the same per-iteration step and add the same work.
      const double by = static_cast<double>(left) * std::max(step, 0.0);
      if (std::getenv("NKI_COST_DEBUG"))
        std::fprintf(stderr, "loop @%d depth %d: %lld of %lld iterations scheduled, step %.1f ns, frontier %.1f -> +%.1f\n",
                     loop ? loop->loc.line : 0, depth, static_cast<long long>(i + 1), static_cast<long long>(segments[seg].end), step,
                     frontier_, by);
      if (std::getenv("NKI_COST_DEBUG"))
        for (size_t j = 0; j < delta.size(); ++j)
          if (delta[j] == step || (j < work_delta.size() && work_delta[j] == step))
            std::fprintf(stderr, "   clock %zu delta %.1f work %.1f\n", j, delta[j], j < work_delta.size() ? work_delta[j] : 0.0);
      Totals before_shift = tot_;
      Rec lr;
      lr.loop = loop;
      lr.loop_iterations = left;
      // The remaining iterations end `by` after the last scheduled one did.
      double last_done = 0;
      int last_rec = -1;
      for (size_t r = iteration_first; r < recs_.size(); ++r)
        if (last_rec < 0 || recs_[r].done > last_done) {
          last_done = recs_[r].done;
          last_rec = static_cast<int>(r);
        }
      if (last_rec < 0) {
        last_done = frontier_;
        last_rec = frontier_rec_;
      }
      lr.start = last_done;
      lr.end = lr.done = last_done + by;
      lr.pred = last_rec;
      // The unit that worked most in the last iteration carries the loop on the critical path.
      int best = 0;
      for (int u = 1; u < kNumUnits; ++u)
        if (tot_.busy[u] - prev_tot.busy[u] > tot_.busy[best] - prev_tot.busy[best]) best = u;
      lr.unit = static_cast<Unit>(best);
      tot_.add_scaled(before_shift, prev_tot, left);
      int rec = push(lr);
      shift(by, left, rec, delta, work_delta, first_rec, last_done);
      ++extrapolated_;
      // What the remaining iterations read and write, so later instructions depend on them.
      const int64_t end = segments[seg].end;
      for (int64_t j = i + 1; j < end; ++j) {
        charge_replayed_iteration();
        replay_iteration(j, static_cast<double>(j - i) * std::max(step, 0.0), rec);
      }
      if (end >= trips) return;
      i = end - 1;  // the next segment starts with scheduled iterations
      continue;
    }
    prev_delta.swap(delta);
    prev_work_delta.swap(work_delta);
    prev_tot = tot_;
  }
}

// Moves what the loop's iterations advanced (the resources that moved or worked in the last
// simulated iteration, the regions its instructions touched) `by` later, and puts the remaining
// iterations' work on the DMA engines and HBM; the rest keeps its times.
void Scheduler::shift(double by, int64_t left, int loop_rec, const std::vector<double>& delta,
                      const std::vector<double>& work_delta, int first_rec, double last_done) {
  if (by <= 0) return;
  const double n = static_cast<double>(left);
  for (int u = 0; u < kNumUnits; ++u) {
    if (u < 4) {
      // A compute engine that worked in the loop keeps pace with it: it is free `by` after the
      // last scheduled iteration ended, and not before it has done the remaining work.
      double w = work_delta[static_cast<size_t>(u)];
      if (w <= 0) continue;
      free_[u] = std::max(free_[u] + n * w, std::min(free_[u], last_done) + by);
    } else {
      // A DMA queue only issues: it advances by its own per-iteration step.
      double d = delta[static_cast<size_t>(u)];
      if (d <= 0) continue;
      free_[u] += n * d;
      covered_[u] = std::max(covered_[u], last_done + by);
    }
    last_[u] = loop_rec;
  }
  if (t_.dve_pool_share_sbuf > 0) {
    const int dve = static_cast<int>(Unit::DVE), pool = static_cast<int>(Unit::POOL);
    free_[dve] = free_[pool] = std::max(free_[dve], free_[pool]);
  }
  for (size_t e = 0; e < dma_engine_.size(); ++e) dma_engine_[e].extend(n * work_delta[4 + e]);
  hbm_.extend(n * work_delta.back());
  (void)first_rec;
  // frontier_ was set by the loop record itself.
}

void Scheduler::run_block(const std::vector<ir::Stmt>& body, int depth, bool first_iteration) {
  for (const ir::Stmt& s : body) {
    ir::visit_stmt(
        s, [&](const ir::Instr& in) { if (first_iteration || !hoisted_.count(&in)) exec(in); },
        [&](const ir::Loop& lp) {
          // A loop whose body holds no instruction (at any depth) schedules nothing, however many
          // times it runs; walking its iterations would only spend time (an untrusted kernel can
          // ask for 2^36 of them).
          if (body_size(lp.body) == 0) return;
          // The callbacks capture one pointer, so std::function keeps them without allocating.
          struct LoopCtx {
            Scheduler* s;
            const ir::Loop* lp;
            int depth;
          } ctx{this, &lp, depth};
          const LoopCtx* c = &ctx;
          iterate(
              lp.trip_count(), depth + 1, &lp,
              [c](int64_t i) {
                c->s->env_.set_loop(c->lp->id, c->lp->start + i * c->lp->step);
                c->s->enter_block(c->lp->body);
                c->s->run_block(c->lp->body, c->depth + 1, i == 0);
              },
              [c](int64_t i, double offset, int rec) {
                c->s->env_.set_loop(c->lp->id, c->lp->start + i * c->lp->step);
                c->s->enter_block(c->lp->body, false);
                c->s->replay_block(c->lp->body, offset, rec, i == 0);
              });
        },
        [&](const ir::If& cond) {
          const auto& branch = ir::branch_body(cond, env_.holds(cond.cond));
          enter_block(branch);
          run_block(branch, depth + 1, true);
        });
  }
}

void Scheduler::replay_block(const std::vector<ir::Stmt>& body, double offset, int loop_rec, bool first_iteration) {
  for (const ir::Stmt& s : body) {
    ir::visit_stmt(
        s, [&](const ir::Instr& in) { if (first_iteration || !hoisted_.count(&in)) replay(in, offset, loop_rec); },
        [&](const ir::Loop& lp) {
          if (body_size(lp.body) == 0) return;
          const int64_t trips = lp.trip_count();
          for (int64_t i = 0; i < trips; ++i) {
            charge_replayed_iteration();
            env_.set_loop(lp.id, lp.start + i * lp.step);
            enter_block(lp.body, false);
            replay_block(lp.body, offset, loop_rec, i == 0);
          }
        },
        [&](const ir::If& cond) {
          const auto& branch = ir::branch_body(cond, env_.holds(cond.cond));
          enter_block(branch, false);
          replay_block(branch, offset, loop_rec, true);
        });
  }
}

// Replaying extrapolated iterations is bounded like scheduling: every instruction and every loop
// iteration walked counts, so an empty or tiny body with an enormous trip count ends in
// CostBudgetError instead of running for hours.
void Scheduler::charge_replayed_iteration() {
  if (++replayed_ > 20 * o_.max_scheduled_ops)
    throw CostBudgetError("the cost model walked more than " + std::to_string(20 * o_.max_scheduled_ops) +
                          " instructions and loop iterations of extrapolated loops");
}

void Scheduler::replay(const ir::Instr& in, double offset, int loop_rec) {
  charge_replayed_iteration();
  auto it = last_time_.find(&in);
  if (it == last_time_.end() || in.dst.tensor < 0) return;
  const double end = it->second.first + offset, done = it->second.second + offset;
  const InstrInfo& inf = info(in);
  Unit u = inf.dma ? inf.dc.queue : inf.cc.unit;
  const int ui = static_cast<int>(u);
  visit_accesses(in, [&](const ir::Access& a, bool written) {
    Access acc = resolve(a);
    if (written) {
      auto& entries = regions_[static_cast<size_t>(acc.key)];
      entries.erase(std::remove_if(entries.begin(), entries.end(), [&](const Entry& e) { return covers(acc.box, e.box); }),
                    entries.end());
      if (entries.size() >= kMaxEntriesPerRegion) {
        Entry m = entries[0];
        m.box = bounding(m.box, entries[1].box);
        m.wdone = std::max(m.wdone, entries[1].wdone);
        m.rdone = std::max(m.rdone, entries[1].rdone);
        entries.erase(entries.begin(), entries.begin() + 2);
        entries.insert(entries.begin(), m);
      }
      entries.push_back(Entry{acc.box, done, kNever, ui, -1, loop_rec, -1});
    } else {
      std::vector<Entry>& region = regions_[static_cast<size_t>(acc.key)];
      for (Entry& e : region)
        if (overlaps(e.box, acc.box) && end >= e.rdone) {
          e.rdone = end;
          e.runit = ui;
          e.rrec = loop_rec;
        }
    }
  });
}

void Scheduler::enter_block(const std::vector<ir::Stmt>& body, bool schedule) {
  auto it = created_in_.find(&body);
  if (it == created_in_.end()) return;
  for (int t : it->second) {
    size_t ti = static_cast<size_t>(t);
    instance_[ti] = (instance_[ti] + 1) % instances_[ti];
    // nl.zeros / nl.full are explicit memset instructions in the IR (the tracer emits one where
    // the tensor is created), so entering the block only rotates the instance.
    (void)schedule;
  }
}

Scheduler::Access Scheduler::resolve(const ir::Access& a) {
  Access r;
  int root = root_[static_cast<size_t>(a.tensor)];
  r.key = region_base_[static_cast<size_t>(root)] + instance_[static_cast<size_t>(root)];
  r.box = root == a.tensor ? access_box(k_, a, env_) : Box::whole_tensor();
  return r;
}

double Scheduler::sync(int from, Unit to) const {
  if (from < 0 || from == static_cast<int>(to)) return 0;
  const bool from_dma = is_dma(static_cast<Unit>(from));
  if (from_dma && is_dma(to)) return 0;
  if (from_dma) return t_.dma_to_compute_ns;
  return t_.engine_sync_ns;
}

void Scheduler::memset_tile(int tensor) {
  const ir::TensorDecl& d = k_.tensors[static_cast<size_t>(tensor)];
  const double n = static_cast<double>(tile_bytes_per_partition(d) / std::max<size_t>(dtype_size(d.dtype), 1));
  const double ii = std::max(t_.min_ii, n) / t_.dve_ghz;
  ir::Access whole;
  whole.tensor = tensor;
  Access acc{region_base_[static_cast<size_t>(tensor)] + instance_[static_cast<size_t>(tensor)], Box::whole_tensor()};
  auto& entries = regions_[static_cast<size_t>(acc.key)];
  double ready = 0;
  int pred = last_[static_cast<int>(Unit::DVE)];
  for (const Entry& e : entries) {
    double t = std::max(e.rdone + sync(e.runit, Unit::DVE), e.wdone + sync(e.wunit, Unit::DVE));
    if (t > ready) {
      ready = t;
      pred = e.rdone > e.wdone ? e.rrec : e.wrec;
    }
  }
  Rec r;
  r.unit = Unit::DVE;
  r.start = std::max(free_[static_cast<int>(Unit::DVE)], ready);
  if (r.start == free_[static_cast<int>(Unit::DVE)]) pred = last_[static_cast<int>(Unit::DVE)];
  r.end = r.done = r.start + ii;
  r.pred = pred;
  int id = push(r);
  free_[static_cast<int>(Unit::DVE)] = r.end;
  last_[static_cast<int>(Unit::DVE)] = id;
  tot_.busy[static_cast<int>(Unit::DVE)] += ii;
  ++tot_.count[static_cast<int>(Unit::DVE)];
  ++tot_.instructions;
  entries.clear();
  entries.push_back(Entry{Box::whole_tensor(), r.done, kNever, static_cast<int>(Unit::DVE), -1, id, -1});
}

void Scheduler::lint(const ir::Instr& in, const std::string& code, const std::string& msg, const std::string& hint) {
  if (!linted_.emplace(std::make_pair(code, in.loc.line), true).second || lints_.size() >= 64) return;
  lints_.push_back(Lint{code, msg, hint, in.loc.line, in.loc.col});
}

// perf_no_overlap: a load that waits for a compute engine to finish reading the tile it
// overwrites, and does so again in a later iteration (it is in a loop), into a tile with a
// single buffer: loads and compute take turns instead of overlapping (TP §3.6, §4 D6). Giving
// the tile rotating buffers (allocating it in the loop body, which the model grants while SBUF
// holds them) lets the next iteration's load run during this one's compute.
void Scheduler::single_buffered_load_lint(const ir::Instr& in) {
  const size_t root = static_cast<size_t>(root_[static_cast<size_t>(in.dst.tensor)]);
  if (instances_[root] > 1 || !last_time_.count(&in)) return;  // rotating, or not repeated yet
  if (in_loop_block_[root])
    lint(in, "perf_no_overlap",
         "the load into '" + k_.tensors[root].name + "' waits for compute to finish reading its only buffer: SBUF is too "
         "full for a second one, so loads and compute take turns",
         "use smaller tiles (or keep fewer tiles live) so this tile can be double buffered");
  else
    lint(in, "perf_no_overlap",
         "the load into '" + k_.tensors[root].name + "' waits for the previous iteration's compute to finish reading "
         "it: the tile has one buffer, so loads and compute take turns",
         "allocate the tile inside the loop body (assign the load's result there) so that the next iteration's load "
         "runs during this iteration's compute");
}

// Lints that look at one instruction and the state of its operands (TP §4; docs/cost-model.md).
void Scheduler::perf_lints(const ir::Instr& in, bool dma, const std::vector<Access>& reads) {
  const ir::Access* src = nullptr;
  for (const ir::Operand& o : in.srcs)
    if (!o.is_imm && o.access.tensor >= 0) { src = &o.access; break; }
  if (!src) return;
  const ir::TensorDecl& sd = k_.tensors[static_cast<size_t>(src->tensor)];
  if (dma) {
    // The same HBM region loaded again while nothing wrote it: keep the tile in SBUF instead.
    if (!ir::is_hbm(sd.buffer) || ir::is_hbm(k_.tensors[static_cast<size_t>(in.dst.tensor)].buffer)) return;
    if (sd.role == ir::TensorRole::Constant) constant_tiles_.insert(root_[static_cast<size_t>(in.dst.tensor)]);
    if (sd.role != ir::TensorRole::Internal && !reads.empty() && !src->indirect && loaded_.size() < 200000) {
      const LoadedRegion key{root_[static_cast<size_t>(src->tensor)], access_box(k_, *src, env_)};
      if (!key.box.whole && !loaded_.insert(key).second && !hbm_written_.count(key.root))
        lint(in, "perf_redundant_reload", "this load reads an HBM region that an earlier load already brought into SBUF",
             "load the tile once outside the loop (or in an outer loop) and reuse it; nothing writes that region in between");
    }
    return;
  }
  // A TensorE transpose of a tile that came straight from HBM: a transposing load would do it.
  bool pe_transpose = false;
  const std::string& n = in.name;
  // (nc_transpose / nl.transpose on TensorE are traced as copies or custom ops on the Tensor engine.)
  if ((in.op == ir::Opcode::Custom || in.op == ir::Opcode::Copy) && n.find("transpose") != std::string::npos &&
      info(in).cc.unit == Unit::PE)
    pe_transpose = true;
  if (in.op == ir::Opcode::Matmul) {
    int seen = 0;
    for (const ir::Operand& o : in.srcs)
      if (!o.is_imm && o.access.tensor >= 0 && seen++ == 1)
        pe_transpose = k_.tensors[static_cast<size_t>(o.access.tensor)].role == ir::TensorRole::Constant ||
                       constant_tiles_.count(root_[static_cast<size_t>(o.access.tensor)]);  // an identity matrix
  }
  if (pe_transpose) {
    const Access a = resolve(*src);
    const std::vector<Entry>& region = regions_[static_cast<size_t>(a.key)];
    // Only where the transposing load costs the DMA engines no more than the plain load did: the
    // DMA transpose path moves bytes at dma_transpose_efficiency of the engine rate (element-
    // granular, TP §2.10), so on trn1 it is usually the slower way, and the hint would not pay.
    bool from_load = false, pays = false;
    for (const Entry& e : region) {
      if (!overlaps(e.box, a.box) || e.wunit != static_cast<int>(Unit::DmaLoad) || e.wrec < 0) continue;
      from_load = true;
      const ir::Instr* load = recs_[static_cast<size_t>(e.wrec)].instr;
      if (!load) continue;
      const DmaCost& plain = info(*load).dc;
      const double transposed = static_cast<double>(plain.bytes) / std::max(plain.engines, 1) /
                                (t_.dma_engine_bytes_per_ns * t_.dma_transpose_efficiency);
      pays |= transposed <= plain.engine_ns;
    }
    if (from_load && pays)
      lint(in, "perf_pe_transpose", "TensorE transposes a tile that was just loaded from HBM",
           "load it already transposed (nl.load_transpose2d, nisa.dma_transpose on trn2, or index the HBM tensor transposed) "
           "and keep TensorE for matmuls");
  }
  // PSUM: a matmul output wider than one bank, or more PSUM tiles than there are banks.
  if (in.op == ir::Opcode::Matmul && in.dst.tensor >= 0) {
    const ir::TensorDecl& d = k_.tensors[static_cast<size_t>(root_[static_cast<size_t>(in.dst.tensor)])];
    if (d.buffer == ir::Buffer::Psum) {
      const Layout l = layout_of(k_, in.dst);
      const int64_t bytes = l.free_elems * 4;  // PSUM accumulates in 32-bit words [A1]
      const std::string bank = std::to_string(hw_.psum_bank_bytes / 1024) + " KiB";
      if (bytes > hw_.psum_bank_bytes)
        lint(in, "perf_psum_banks", "matmul output uses " + std::to_string(bytes) + " bytes per partition: more than one " + bank + " PSUM bank",
             "split the moving free size to at most " + std::to_string(hw_.psum_fmax) + " fp32 elements per matmul (one bank)");
      else if (psum_banks_ > hw_.psum_banks || psum_starved_.count(static_cast<int>(&d - k_.tensors.data())))
        lint(in, "perf_psum_banks",
             psum_banks_ > hw_.psum_banks
                 ? "the PSUM tiles live at the same time need " + std::to_string(psum_banks_) + " banks of " + bank +
                       "; a partition has " + std::to_string(hw_.psum_banks)
                 : "PSUM tiles live at the same time leave '" + d.name + "' no second bank: the next matmul into it waits "
                       "until this result has been copied out",
             "copy results out of PSUM sooner, or keep fewer / smaller PSUM tiles live at once, so matmuls do not wait "
             "for a free bank");
    }
  }
}

const Scheduler::InstrInfo& Scheduler::info(const ir::Instr& in) {
  auto it = info_.find(&in);
  if (it != info_.end()) return it->second;
  InstrInfo x;
  x.dma = in.dst.tensor >= 0 && is_dma_instr(k_, in);
  if (x.dma) {
    x.dc = dma_cost(k_, in, t_);
  } else if (broadcast_copies_.count(&in)) {
    // The ones-matmul is the instruction: TensorE time, result in PSUM after the PE latency.
    x.cc = compute_cost(k_, in, t_);
    x.cc.unit = Unit::PE;
    x.cc.ii_ns = x.cc.pe_broadcast_ns;
    x.cc.lat_ns = x.cc.ii_ns + t_.pe_latency_cycles / t_.pe_ghz;
    x.cc.dep_extra_ns = 0;
    x.cc.pe_broadcast_ns = 0;
  } else if (in.dst.tensor >= 0) {
    x.cc = compute_cost(k_, in, t_, -1, &psum_resident_);
    for (Unit c : auto_candidates(in, t_))
      x.alternatives.emplace_back(c, compute_cost(k_, in, t_, static_cast<int>(c), &psum_resident_));
    if (x.cc.pe_broadcast_ns > 0)
      for (size_t i = 0; i < in.srcs.size(); ++i) {
        const ir::Operand& o = in.srcs[i];
        if (o.is_imm || o.access.tensor < 0) continue;
        const Layout l = layout_of(k_, o.access);
        if (!l.broadcast_free && !l.hbm && l.partitions == 1) x.broadcast_srcs.push_back(static_cast<int>(i));
      }
  }
  return info_.emplace(&in, std::move(x)).first->second;
}

void Scheduler::exec(const ir::Instr& in) {
  if (++scheduled_ > o_.max_scheduled_ops)
    throw CostBudgetError("the cost model scheduled more than " + std::to_string(o_.max_scheduled_ops) +
                          " instructions without reaching a steady state");
  if (in.dst.tensor < 0) return;
  // Zeroing a PSUM accumulator (nl.zeros in PSUM before `+=` matmuls) is not an instruction on
  // hardware: the first matmul of the accumulation group overwrites the bank ([MM] tutorial,
  // the PSUM accumulation pattern).
  if (in.op == ir::Opcode::Memset && k_.tensors[static_cast<size_t>(in.dst.tensor)].buffer == ir::Buffer::Psum) return;
  const InstrInfo& inf = info(in);
  const bool dma = inf.dma;
  ComputeCost cc;
  const DmaCost& dc = inf.dc;
  Unit u;
  if (dma) {
    u = dc.queue;
  } else {
    cc = inf.cc;
    u = cc.unit;
    if (cc.ii_ns == 0 && cc.mm_flops == 0) return;  // device_print and the like: no device work
  }
  // Operands at the current loop values.
  // Scratch vectors kept across calls (exec does not recurse): no allocation per instruction.
  std::vector<Access>& reads = reads_;
  std::vector<Access>& writes = writes_;
  reads.clear();
  writes.clear();
  visit_accesses(in, [&](const ir::Access& a, bool written) { (written ? writes : reads).push_back(resolve(a)); });
  const bool reads_dst = in.accumulate || in.rmw.has_value() || in.mask.has_value();
  perf_lints(in, dma, reads);

  // Earliest start on unit `v` allowed by the operands' last writers and readers.
  // war_out: whether the latest of them is a write-after-read on another engine's reader.
  bool war_out = false;
  auto deps = [&](Unit v, double dep_extra, int& pred_out) {
    const int vi = static_cast<int>(v);
    double ready = 0;
    pred_out = -1;
    war_out = false;
    auto need = [&](double t, int rec, bool war = false) {
      if (t > ready) {
        ready = t;
        pred_out = rec;
        war_out = war;
      }
    };
    for (const Access& a : reads) {
      const std::vector<Entry>& region = regions_[static_cast<size_t>(a.key)];
      for (const Entry& e : region) {
        if (!overlaps(e.box, a.box) || e.wunit < 0) continue;
        double t = e.wdone + sync(e.wunit, v);
        if (e.wunit == vi) t += dep_extra;  // dependent instruction on the same engine [A1]
        need(t, e.wrec);
      }
    }
    for (const Access& a : writes) {
      const std::vector<Entry>& region = regions_[static_cast<size_t>(a.key)];
      for (const Entry& e : region) {
        if (!overlaps(e.box, a.box)) continue;
        // PSUM accumulation groups are pipelined inside TensorE: no wait for the previous
        // partial sum's latency (in-order issue orders them).
        bool pe_accumulate = in.accumulate && e.wunit == vi && v == Unit::PE;
        if (reads_dst && !pe_accumulate && e.wunit >= 0) need(e.wdone + sync(e.wunit, v), e.wrec);
        if (e.runit >= 0 && e.runit != vi) need(e.rdone + sync(e.runit, v), e.rrec, true);  // WAR
        if (e.wunit >= 0 && e.wunit != vi && !pe_accumulate) need(e.wdone, e.wrec);  // WAW
      }
    }
    return ready;
  };
  // When an engine is free: on NC-v2 VectorE and GpSimdE take turns on SBUF [A1].
  auto shared = [&](Unit v) { return t_.dve_pool_share_sbuf > 0 && (v == Unit::DVE || v == Unit::POOL); };
  auto free_at = [&](Unit v) {
    return shared(v) ? std::max(free_[static_cast<int>(Unit::DVE)], free_[static_cast<int>(Unit::POOL)])
                     : free_[static_cast<int>(v)];
  };
  auto last_on = [&](Unit v) {
    if (!shared(v)) return last_[static_cast<int>(v)];
    int a = last_[static_cast<int>(Unit::DVE)], b = last_[static_cast<int>(Unit::POOL)];
    return free_[static_cast<int>(Unit::DVE)] >= free_[static_cast<int>(Unit::POOL)] ? a : b;
  };

  double ready = 0;
  int pred = -1;
  if (!dma) {
    // The compiler's engine choice: the candidate that finishes first (TP §3.4.5).
    if (!inf.alternatives.empty()) {
      double best_end = 0;
      for (size_t i = 0; i < inf.alternatives.size(); ++i) {
        const auto& [cand, alt] = inf.alternatives[i];
        int p = -1;
        double rd = deps(cand, alt.dep_extra_ns, p);
        double end = std::max(free_at(cand), rd) + alt.ii_ns;
        if (i == 0 || end < best_end - 1e-9) {
          best_end = end;
          cc = alt;
        }
      }
      u = cc.unit;
    }
    ready = deps(u, cc.dep_extra_ns, pred);
    if (cc.pe_broadcast_ns > 0) {
      // The ones-matmul that broadcasts a [1, F] operand over the partitions (into PSUM).
      // It reads only the [1, F] operand, so it waits for that operand's writer alone, not for
      // the consumer's other inputs (RAW per operand, TP §3.6): it runs ahead on TensorE while
      // VectorE computes the other input.
      double bready = 0;
      int bpred = -1;
      for (int si : inf.broadcast_srcs) {
        const Access a = resolve(in.srcs[static_cast<size_t>(si)].access);
        const std::vector<Entry>& region = regions_[static_cast<size_t>(a.key)];
        for (const Entry& e : region) {
          if (e.wunit < 0 || !overlaps(e.box, a.box)) continue;
          const double t = e.wdone + sync(e.wunit, Unit::PE);
          if (t > bready) {
            bready = t;
            bpred = e.wrec;
          }
        }
      }
      Rec b;
      b.unit = Unit::PE;
      b.instr = &in;
      int pe = static_cast<int>(Unit::PE);
      b.start = std::max(free_[pe], bready);
      b.pred = b.start == free_[pe] ? last_[pe] : bpred;
      b.end = b.start + cc.pe_broadcast_ns;
      b.done = b.end + t_.pe_latency_cycles / t_.pe_ghz;
      free_[pe] = b.end;
      tot_.busy[pe] += cc.pe_broadcast_ns;
      ++tot_.count[pe];
      int id = push(b);
      last_[pe] = id;
      if (b.done + t_.engine_sync_ns > ready) {
        ready = b.done + t_.engine_sync_ns;
        pred = id;
      }
    }
  } else {
    ready = deps(u, 0, pred);
  }
  const int ui = static_cast<int>(u);

  Rec r;
  r.unit = u;
  r.instr = &in;
  if (!dma) {
    double ii = cc.ii_ns;
    if (in.op == ir::Opcode::Activation && u == Unit::ACT) {
      size_t f = static_cast<size_t>(in.act);
      if (f < act_seen_.size() && !act_seen_[f]) {
        act_seen_[f] = true;
        ii += t_.act_table_load_ns;  // activation table load, inferred (TP §2.4)
      }
    }
    const double fa = free_at(u);
    r.start = std::max(fa, ready);
    r.pred = fa >= ready ? last_on(u) : pred;
    r.end = r.start + ii;
    r.done = r.start + (cc.lat_ns - cc.ii_ns) + ii;
    free_[ui] = r.end;
    if (shared(u)) free_[static_cast<int>(Unit::DVE)] = free_[static_cast<int>(Unit::POOL)] = r.end;
    tot_.busy[ui] += ii;
    tot_.mm_flops += cc.mm_flops;
    tot_.transpose_flops += cc.transpose_flops;
    tot_.vector_flops += cc.vector_flops;
    if (cc.fp32_matmul && fp32_checked_.insert(&in).second && !linted_.count({"perf_fp32_matmul", in.loc.line}))
      lint(in, "perf_fp32_matmul", "matmul with fp32 operands runs at 1/4 of the bf16 rate on the Tensor Engine",
           "load or cast the operands to bfloat16 when the accuracy allows (fp32 PSUM accumulation is kept)");
  } else {
    double issue = std::max(free_[ui], ready);
    if (u == Unit::DmaLoad && war_out && ready > free_[ui] + 1e-6) single_buffered_load_lint(in);
    r.pred = issue == free_[ui] && free_[ui] >= ready ? last_[ui] : pred;
    free_[ui] = issue + t_.dma_queue_fixed_ns;  // per-DMA fixed cost on its in-order queue [DMA] [DBW]
    const int ne = static_cast<int>(dma_engine_.size());
    double data_end = issue;
    for (int e = 0; e < dc.engines; ++e) {
      GapResource& g = dma_engine_[static_cast<size_t>((dma_rr_ + e) % ne)];
      data_end = std::max(data_end, g.reserve(issue, dc.engine_ns) + dc.engine_ns);
    }
    dma_rr_ = (dma_rr_ + dc.engines) % ne;
    if (dc.hbm_ns > 0) data_end = std::max(data_end, hbm_.reserve(issue, dc.hbm_ns) + dc.hbm_ns);
    r.start = issue;
    r.end = data_end;
    r.done = data_end + t_.dma_latency_ns;
    tot_.busy[ui] += std::max(0.0, r.done - std::max(issue, covered_[ui]));
    covered_[ui] = std::max(covered_[ui], r.done);
    tot_.dma_engine_busy += dc.engine_ns * dc.engines;
    tot_.hbm_busy += dc.hbm_ns;
    tot_.hbm_read += dc.hbm_read;
    tot_.hbm_write += dc.hbm_write;
    tot_.dma_bytes += dc.bytes;
    ++tot_.dma_count;
    const int64_t per_partition = dc.bytes / std::max<int64_t>(dc.partitions, 1);
    const bool fresh_line = !linted_.count({"perf_small_dma", in.loc.line}) || !linted_.count({"perf_partitions", in.loc.line});
    if (fresh_line && per_partition < 2048 && !dc.transpose)
      lint(in, "perf_small_dma",
           "DMA moves " + std::to_string(per_partition) + " bytes per partition (under 2 KiB): per-packet overhead dominates",
           "move at least 2 KiB (512 fp32 / 1024 bf16 elements) per partition per DMA, e.g. load several tiles at once");
    if (fresh_line && dc.partitions < hw_.partitions && dc.partitions * 2 <= hw_.partitions && dc.queue != Unit::DmaOther)
      lint(in, "perf_partitions",
           "DMA uses " + std::to_string(dc.partitions) + " of " + std::to_string(hw_.partitions) + " partitions, so only " +
               std::to_string(dc.engines) + " of the 16 DMA engines",
           "reshape the tile so its partition dimension is " + std::to_string(hw_.partitions));
  }
  ++tot_.count[ui];
  ++tot_.instructions;
  int id = push(r);
  last_[ui] = id;
  last_time_[&in] = {r.end, r.done};

  // Region bookkeeping: reads extend the reader window; writes replace what they cover.
  for (const Access& a : reads) {
    std::vector<Entry>& region = regions_[static_cast<size_t>(a.key)];
    for (Entry& e : region) {
      if (!overlaps(e.box, a.box)) continue;
      if (r.end >= e.rdone) {
        e.rdone = r.end;
        e.runit = ui;
        e.rrec = id;
      }
    }
  }
  if (dma && in.dst.tensor >= 0 && ir::is_hbm(k_.tensors[static_cast<size_t>(in.dst.tensor)].buffer))
    hbm_written_.insert(root_[static_cast<size_t>(in.dst.tensor)]);
  for (const Access& a : writes) {
    auto& entries = regions_[static_cast<size_t>(a.key)];
    entries.erase(std::remove_if(entries.begin(), entries.end(), [&](const Entry& e) { return covers(a.box, e.box); }),
                  entries.end());
    if (entries.size() >= kMaxEntriesPerRegion) {
      // Merge the two oldest entries (conservative: a larger box with the later times).
      Entry m = entries[0];
      const Entry& b = entries[1];
      m.box = bounding(m.box, b.box);
      if (b.wdone > m.wdone) { m.wdone = b.wdone; m.wunit = b.wunit; m.wrec = b.wrec; }
      if (b.rdone > m.rdone) { m.rdone = b.rdone; m.runit = b.runit; m.rrec = b.rrec; }
      entries.erase(entries.begin(), entries.begin() + 2);
      entries.insert(entries.begin(), m);
    }
    entries.push_back(Entry{a.box, r.done, kNever, ui, -1, id, -1});
  }
}

}  // namespace nki::cost
