#include "agent/replay_client.h"

#include "agent/transcript.h"
#include "base/diagnostic.h"

namespace nki::agent {

ReplayClient::ReplayClient(std::vector<ModelReply> replies, std::string recorded_model)
    : replies_(std::move(replies)), recorded_model_(std::move(recorded_model)) {}

std::unique_ptr<ReplayClient> ReplayClient::from_transcript(const std::string& path) {
  TranscriptFile file;
  try {
    file = read_transcript(path);
  } catch (const IoError& e) {
    throw ModelError(ModelErrorKind::Replay, std::string("replay: ") + e.what());
  }
  std::string model = "unknown", mode, nki;
  std::vector<ModelReply> replies;
  for (const auto& ev : file.events) {
    std::string type = ev.value("type", "");
    if (type == "header") {
      model = ev.value("model", model);
      mode = ev.value("mode", mode);
      nki = ev.value("nki", nki);
    }
    if (type != "response") continue;
    try {
      ModelReply r;
      r.message = message_from_json(ev.at("message"));
      r.stop_reason = ev.value("stop_reason", "");
      if (ev.contains("usage")) r.usage = usage_from_json(ev["usage"]);
      replies.push_back(std::move(r));
    } catch (const std::exception& e) {
      throw ModelError(ModelErrorKind::Replay, "replay: " + path + ": response event seq " +
                                                   std::to_string(ev.value("seq", -1)) +
                                                   " is malformed: " + e.what());
    }
  }
  if (replies.empty())
    throw ModelError(ModelErrorKind::Replay, "replay: " + path + " has no response events");
  auto client = std::make_unique<ReplayClient>(std::move(replies), model);
  client->recorded_mode_ = mode;
  client->recorded_nki_ = nki;
  return client;
}

ModelReply ReplayClient::complete(const Conversation&) {
  if (next_ >= replies_.size())
    throw ModelError(ModelErrorKind::Replay,
                     "replay: recording exhausted after " + std::to_string(replies_.size()) +
                         " responses (the live run asked for another turn)");
  return replies_[next_++];
}

}  // namespace nki::agent
