// Which NKI dialect a kernel file is written in, and the one compile entry point that reads
// either: the legacy `neuronxcc.nki` (SDK 2.24) tracer of src/nki, or the current `nki`
// (NKI 0.2-0.6, SDK 2.27-2.32) front end of this folder. Both lower into the same ir::Kernel,
// so the checks, the simulator and the cost model are shared.
#pragma once

#include <optional>
#include <string>

#include "lang/ast.h"
#include "nki/tracer.h"

namespace nki::current {

enum class Dialect { Legacy, Current };

struct DialectChoice {
  Dialect dialect = Dialect::Legacy;
  std::string version;  // "2.24" for legacy; "0.2" .. "0.6" for the current dialect
};

// Parses the --nki value: "2.24" or "0.2".."0.6" (an empty text means auto-detection);
// nullopt for anything else.
std::optional<DialectChoice> parse_dialect(const std::string& text);

// The dialect of a module from its top-level imports: `import nki` / `from nki ...` is the current
// dialect (it wins when a file also imports neuronxcc, as nki-library files do for typing),
// `neuronxcc.nki` or no NKI import at all the legacy one.
DialectChoice detect_dialect(const py::Module& module);

// Parses, picks the dialect (opts.dialect, else detect_dialect) and traces `file`. A file whose
// imports contradict a forced dialect gets a migration diagnostic at the import.
front::TraceResult trace_any(const SourceFilePtr& file, const front::TraceOptions& opts);

}  // namespace nki::current
