// Files besides a compile's main file: the modules a kernel imports from its own package
// (src/lang/package_import.h). Each gets a process-wide id > 0, and the locations of its tokens
// carry that id in their line number (line + id * kRegisteredLineStride), so a diagnostic made
// for the kernel file still names the module's file and line (make_diagnostic decodes it).
// SourceLoc itself keeps its two fields; only the lexer and make_diagnostic know the encoding.
#pragma once

#include "base/source.h"

namespace nki {

constexpr int kRegisteredLineStride = 1 << 20;  // lines per registered file (more: not encoded)

// Registers `file` (one entry per distinct path and text; registered files are kept for the
// life of the process) and returns its id.
int register_source_file(const SourceFilePtr& file);
// The id of a registered file, 0 when `file` is not registered (e.g. the main file).
int registered_source_id(const SourceFile* file);
// The registered file with that id, or nullptr.
SourceFilePtr registered_source_file(int id);

// Splits an encoded location into (file id, line in that file); id 0 for a plain location.
inline int registered_file_of(SourceLoc loc) { return loc.line / kRegisteredLineStride; }
inline int line_in_file(SourceLoc loc) { return loc.line % kRegisteredLineStride; }

}  // namespace nki
