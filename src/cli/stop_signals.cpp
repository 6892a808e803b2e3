#include "cli/stop_signals.h"

#include <unistd.h>

namespace nki::cli {

namespace {

std::atomic<bool> g_stop{false};

// Only async-signal-safe calls here: an atomic exchange, write and _exit.
void on_stop_signal(int) {
  if (g_stop.exchange(true)) _exit(130);
  const char msg[] = "\nnkiagent bench: stopping after the episodes in flight (interrupt again to quit now)\n";
  ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
  (void)ignored;
}

}  // namespace

StopSignals::StopSignals() {
  g_stop = false;
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int_);
  sigaction(SIGTERM, &sa, &old_term_);
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

const std::atomic<bool>* StopSignals::requested() const { return &g_stop; }

}  // namespace nki::cli
