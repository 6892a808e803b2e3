// Episode transcripts: one JSONL file per episode, one event per line, appended and flushed as
// the episode runs so a crash or kill leaves every completed line intact. Nothing is rewritten.
//
// Every line has "v" (format version), "seq" (0-based line number), "t" (Unix time, seconds)
// and "type": header, request, response, model_error, tool_call, tool_result, harness_check,
// result. docs/agent.md describes each event's fields.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/message.h"
#include "agent/tools.h"

namespace nki::agent {

constexpr int kTranscriptVersion = 1;

class TranscriptWriter {
 public:
  // Creates (truncates) `path`; throws nki::IoError when it cannot be opened.
  explicit TranscriptWriter(const std::string& path);
  ~TranscriptWriter();
  TranscriptWriter(const TranscriptWriter&) = delete;
  TranscriptWriter& operator=(const TranscriptWriter&) = delete;

  // Adds v/seq/t and the type, writes one line and flushes it to the OS.
  void write(const std::string& type, nlohmann::ordered_json fields);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  long seq_ = 0;
};

nlohmann::ordered_json message_to_json(const Message& m);
// Throws std::invalid_argument on a malformed message object.
Message message_from_json(const nlohmann::json& j);
nlohmann::ordered_json usage_to_json(const Usage& u);
Usage usage_from_json(const nlohmann::json& j);
nlohmann::ordered_json tool_result_to_json(const ToolResult& r);

struct TranscriptFile {
  std::vector<nlohmann::json> events;  // every complete, parseable line in order
  bool torn_tail = false;              // the last line was cut off (killed mid-write)
};

// Reads a transcript; a final unparseable line (a torn write) is reported, not fatal. A bad line
// in the middle throws nki::IoError naming the line number.
TranscriptFile read_transcript(const std::string& path);

}  // namespace nki::agent
