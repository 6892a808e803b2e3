#include "train/transcript_source.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include "agent/code_extract.h"
#include "agent/toolbox.h"
#include "agent/transcript.h"
#include "base/diagnostic.h"
#include "eval/results_db.h"

namespace nki::train {

namespace fs = std::filesystem;

namespace {

bool is_transcript_file(const fs::path& p) {
  if (p.extension() != ".jsonl") return false;
  std::ifstream in(p);
  std::string first;
  if (!std::getline(in, first)) return false;
  auto j = nlohmann::json::parse(first, nullptr, false);
  return j.is_object() && j.value("type", "") == "header" && j.value("format", "") == "nki-agent-transcript";
}

// The code a message submits: a tool call's "code" argument, or a fenced block of a text reply.
std::string submitted_code(const agent::Message& m) {
  for (const agent::ToolCall& c : m.tool_calls) {
    agent::ArgumentsCode a = agent::extract_code_from_arguments(c.arguments);
    if (!a.code.empty()) return a.code;
  }
  if (m.tool_calls.empty()) return agent::extract_code_from_text(m.content);
  return {};
}

void add_file(const std::string& path, CollectedRecords& out) {
  try {
    out.records.push_back(record_from_transcript(path));
  } catch (const IoError& e) {
    out.problems.push_back({path, "unreadable", e.what()});
  } catch (const std::exception& e) {
    out.problems.push_back({path, "incomplete", e.what()});
  }
}

}  // namespace

TrainingRecord record_from_transcript(const std::string& path) {
  agent::TranscriptFile f = agent::read_transcript(path);
  TrainingRecord r;
  r.id = path;
  bool header = false, result = false;
  std::map<std::string, nlohmann::json> tool_results;  // by call id
  for (const nlohmann::json& e : f.events) {
    std::string type = e.value("type", "");
    if (type == "header") {
      header = true;
      r.task_id = e.value("task_id", "");
      // A scripted transcript (written by hand or by tools/scripted_model, its note says so) is
      // not a model's work and is labelled as such.
      std::string model = e.value("model", "unknown");
      std::string note = e.value("note", "");
      bool scripted = model.rfind("scripted:", 0) == 0 || note.find("SCRIPTED") != std::string::npos ||
                      note.find("scripted") != std::string::npos;
      r.provenance = scripted ? (model.rfind("scripted:", 0) == 0 ? model : "scripted:" + model) : "model:" + model;
      r.mode = e.value("mode", "");
      r.nki = e.value("nki", r.nki);
      r.system = e.value("system", "");
      if (e.contains("tools") && e["tools"].is_array() && !e["tools"].empty()) {
        // The header names the tools; their schemas are the agent's own (kernel_tool_specs).
        for (const agent::ToolSpec& s : agent::kernel_tool_specs())
          for (const auto& n : e["tools"])
            if (n.is_string() && n.get<std::string>() == s.name) r.tools.push_back(s);
      }
    } else if (type == "request") {
      if (e.contains("new_messages") && e["new_messages"].is_array())
        for (const auto& m : e["new_messages"]) r.messages.push_back(agent::message_from_json(m));
    } else if (type == "response") {
      if (e.contains("message")) {
        agent::Message m = agent::message_from_json(e["message"]);
        std::string code = submitted_code(m);
        if (!code.empty()) r.attempts.push_back({e.value("turn", 0), code, false, ""});
        r.messages.push_back(std::move(m));
      }
    } else if (type == "tool_result" || type == "harness_check") {
      // The outcome of the latest attempt of that turn (harness_check with final=true judges the
      // final kernel and is not an attempt's result).
      if (type == "tool_result") tool_results[e.value("id", "")] = e;
      if (type == "harness_check" && e.value("final", false)) continue;
      int turn = e.value("turn", 0);
      for (auto it = r.attempts.rbegin(); it != r.attempts.rend(); ++it)
        if (it->turn == turn) {
          it->passed = e.value("passed", false);
          it->failure = e.value("failure", "");
          break;
        }
    } else if (type == "result") {
      result = true;
      r.episode_passed = e.value("passed", false);
      r.final_kernel = e.value("final_kernel", "");
    }
  }
  if (!header) throw std::invalid_argument("no header line");
  // The results of the last reply's tool calls are in no later request (the episode ended with
  // them): take them from their tool_result events, which hold exactly what the model saw.
  if (!r.messages.empty() && r.messages.back().role == agent::Role::Assistant)
    for (const agent::ToolCall& c : std::vector<agent::ToolCall>(r.messages.back().tool_calls)) {
      auto it = tool_results.find(c.id);
      if (it == tool_results.end()) continue;
      agent::Message m;
      m.role = agent::Role::Tool;
      m.content = it->second.value("text", "");
      m.tool_call_id = c.id;
      m.tool_name = c.name;
      m.is_error = !it->second.value("passed", false);
      r.messages.push_back(std::move(m));
    }
  if (!result) throw std::invalid_argument(f.torn_tail ? "torn transcript without a result" : "no result line (episode did not finish)");
  // Multi-turn replies are judged only at the end: an attempt without a tool result is unknown.
  for (Attempt& a : r.attempts)
    if (a.failure.empty()) a.failure = "unchecked";
  return r;
}

CollectedRecords collect_transcripts(const std::vector<std::string>& paths) {
  CollectedRecords out;
  for (const std::string& p : paths) {
    fs::path path(p);
    if (!fs::exists(path)) throw IoError("no such run directory or transcript: " + p);
    if (fs::is_regular_file(path)) {
      add_file(p, out);
      continue;
    }
    fs::path db = eval::results_db_path(p);
    if (fs::exists(db)) {
      eval::ResultsDb rdb(db.string(), eval::OpenMode::ReadOnly);
      for (const eval::StoredEpisode& e : rdb.load_episodes()) {
        if (!e.finished || e.outcome.transcript_path.empty()) continue;
        fs::path t(e.outcome.transcript_path);
        if (t.is_relative()) t = path / t;  // stored relative to the run directory
        add_file(t.string(), out);
      }
      continue;
    }
    std::vector<std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(path))
      if (entry.is_regular_file() && is_transcript_file(entry.path())) files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    for (const std::string& f : files) add_file(f, out);
  }
  return out;
}

}  // namespace nki::train
