#include "cli/run_cli.h"

#include <filesystem>
#include <ios>
#include <iostream>
#include <new>
#include <string>

#include "agent/model_client.h"
#include "base/diagnostic.h"
#include "cli/command.h"

namespace nki::cli {

namespace {

std::string overview() {
  std::string s =
      "usage: nkiagent COMMAND [options]\n\n"
      "A hardware-free NKI toolchain and kernel agent (legacy neuronxcc.nki, SDK 2.24).\n\n"
      "commands:\n";
  for (const CommandEntry& c : command_list()) {
    std::string name = c.name;
    s += "  " + name + std::string(name.size() < 9 ? 9 - name.size() : 1, ' ') + c.summary + "\n";
  }
  s += "\nRun `nkiagent COMMAND --help` for the options of a command.\n";
  return s;
}

// Called from a catch block: rethrows the exception in flight to map it to a message and code.
int report_exception(const std::string& cmd) {
  const std::string prefix = "nkiagent " + cmd + ": ";
  try {
    throw;
  } catch (const UsageError& e) {
    std::cerr << prefix << e.what() << " (see nkiagent " << cmd << " --help)\n";
    return 2;
  } catch (const IoError& e) {
    std::cerr << prefix << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << prefix << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::ios_base::failure& e) {
    // A stream that failed while reading or writing a file named on the command line.
    std::cerr << prefix << "error: " << e.what() << "\n";
    return 2;
  } catch (const agent::ModelError& e) {
    std::cerr << prefix << "error: " << e.what() << "\n";
    return e.kind() == agent::ModelErrorKind::Config || e.kind() == agent::ModelErrorKind::Replay ? 2 : 3;
  } catch (const DiagnosticError& e) {
    std::cerr << render_text(e.diagnostic());
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << prefix << "error: out of memory\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << prefix << "internal error: " << e.what() << " (please report this)\n";
    return 3;
  } catch (...) {
    std::cerr << prefix << "internal error: unknown exception (please report this)\n";
    return 3;
  }
}

}  // namespace

int run_cli(int argc, char** argv) {
  std::string cmd = argc >= 2 ? argv[1] : "";
  try {
    if (cmd.empty() || cmd == "--help" || cmd == "-h" || cmd == "help") {
      std::cout << overview();
      return cmd.empty() ? 2 : 0;
    }
    for (const CommandEntry& entry : command_list())
      if (cmd == entry.name) return run_command(entry.make(), argc - 1, argv + 1);
    std::cerr << "nkiagent: unknown command '" << cmd << "'\n" << overview();
    return 2;
  } catch (...) {
    return report_exception(cmd);
  }
}

}  // namespace nki::cli
