// A model client that answers from a list of recorded replies, in order, without any network.
// Built from a transcript it replays a past episode deterministically; the tool results are not
// replayed but recomputed by the live KernelTools, so a replay exercises today's simulator.
// Tests and perf/ also use it as a scripted model.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "agent/model_client.h"

namespace nki::agent {

class ReplayClient : public ModelClient {
 public:
  ReplayClient(std::vector<ModelReply> replies, std::string recorded_model);

  // Every "response" event of the transcript, in order. Throws ModelError(Replay) when the file
  // is unreadable or holds no response.
  static std::unique_ptr<ReplayClient> from_transcript(const std::string& path);

  // The next recorded reply (its recorded usage included). Throws ModelError(Replay) once the
  // recording is exhausted, i.e. the live run diverged and asked for more turns than recorded.
  ModelReply complete(const Conversation& conversation) override;
  std::string name() const override { return "replay:" + recorded_model_; }

  const std::string& recorded_model() const { return recorded_model_; }
  // The recorded episode's mode ("agent", ...), empty when the header lacks it.
  const std::string& recorded_mode() const { return recorded_mode_; }
  // The recorded episode's NKI dialect ("2.24", "0.6"), empty when the header lacks it
  // (transcripts from before `--nki` existed, all of them 2.24).
  const std::string& recorded_nki() const { return recorded_nki_; }
  size_t remaining() const { return replies_.size() - next_; }

 private:
  std::vector<ModelReply> replies_;
  std::string recorded_model_;
  std::string recorded_mode_;
  std::string recorded_nki_;
  size_t next_ = 0;
};

}  // namespace nki::agent
