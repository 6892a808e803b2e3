// Training records from recorded episodes: `nkiagent solve` output directories, `nkiagent bench`
// run directories (RUN_DIR/results.sqlite lists the finished episodes and their transcripts) or
// transcript files. A transcript (docs/agent.md) holds the system prompt in its header, the
// messages added before each request and every response, and the final result.
#pragma once

#include <string>
#include <vector>

#include "train/record.h"

namespace nki::train {

struct SourceProblem {
  std::string path;
  std::string reason;  // funnel reason code: "unreadable", "incomplete"
  std::string message;
};

struct CollectedRecords {
  std::vector<TrainingRecord> records;
  std::vector<SourceProblem> problems;  // transcripts that could not become records
};

// Every transcript under each path: a results.sqlite run directory (finished episodes only),
// else every *.jsonl below the directory whose first line is a transcript header, or the file
// itself. Throws nki::IoError when a path does not exist.
CollectedRecords collect_transcripts(const std::vector<std::string>& paths);

// One transcript as a record (task_dir left empty: resolved by the exporter). Throws
// nki::IoError for an unreadable file or std::invalid_argument for a transcript without a
// header or a result (a killed episode).
TrainingRecord record_from_transcript(const std::string& path);

}  // namespace nki::train
