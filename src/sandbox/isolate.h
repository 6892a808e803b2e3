// Runs a piece of untrusted work (compiling or simulating a model-written kernel) in a forked
// child process, so that nothing the work does can take down the caller: a fatal signal, an
// exhausted address space or a hang becomes an Outcome the caller turns into a verdict.
//
// The child is a fork of the caller: the work sees the caller's memory (inputs need no copying)
// and returns its result as a byte string (through a memfd the parent reads once the child has
// exited; a pipe's end-of-file signals the exit). In the child the address space is capped
// (RLIMIT_AS, relative to what the caller already maps), core dumps are off, and the child dies
// with its parent. The parent enforces the wall-clock limit by killing the child.
//
// Usage:
//   sandbox::Limits lim;  lim.wall_seconds = 30;  lim.memory_bytes = 6LL << 30;
//   sandbox::Result r = sandbox::run_isolated([&] { return serialise(do_work()); }, lim);
//   if (r.outcome != sandbox::Outcome::Ok) report(r.describe());
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace nki::sandbox {

struct Limits {
  double wall_seconds = 0;    // 0: no wall-clock limit
  int64_t memory_bytes = 0;   // address space the work may add; 0: no limit
};

enum class Outcome {
  Ok,           // the work returned; `payload` holds its bytes
  Crashed,      // the child died of a signal (SIGSEGV, SIGABRT, ...) or exited abnormally
  TimedOut,     // killed after Limits::wall_seconds (or it exceeded its CPU limit)
  OutOfMemory,  // an allocation failed under Limits::memory_bytes
  Failed,       // the work threw; `detail` holds the exception message
  Unavailable,  // the child could not be started (fork/pipe failed); `detail` says why
};

const char* outcome_name(Outcome o);  // "ok", "crashed", "timed_out", ...

struct Result {
  Outcome outcome = Outcome::Ok;
  std::string payload;  // Ok: what the work returned
  int signal = 0;       // Crashed: the signal number, when there was one
  std::string detail;   // human-readable reason for anything but Ok
  double seconds = 0;   // wall time of the child

  bool ok() const { return outcome == Outcome::Ok; }
  // One sentence, e.g. "the kernel crashed the simulator (signal 11, SIGSEGV)".
  std::string describe() const;
};

// Runs `work` in a child process under `limits`. Never throws for anything the work does.
// Thread-safe: several threads may each run isolated work at once.
Result run_isolated(const std::function<std::string()>& work, const Limits& limits);

}  // namespace nki::sandbox
