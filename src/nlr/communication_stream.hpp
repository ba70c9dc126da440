// The program model's stream (src/program: the MPI communication events only, those of one
// outermost MPI call in canonical order) derived from the stored loops' stream (every event
// in trace order, storedSignatureOptions()): the same symbols that a SignatureExtractor with
// communicationInCallOrder() releases from the same events, and so the same loop nest, but
// without extracting every event's signature a second time. The stored stream's signatures
// already hold all it needs: an Enter's region (is it an MPI call?), and for a communication
// event the very signature the model uses (both views keep every field).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "nlr/nlr.hpp"
#include "nlr/signature.hpp"

namespace mtf::nlr {

// The options of the program model's own view of the events (`mtf loops` defaults).
SignatureOptions communicationInCallOrder();

// One location's derived stream and its NLR.
class CommunicationStream {
 public:
  CommunicationStream(const SignatureContext& context, const NlrOptions& options)
      : context_(context), nlr_(options) {}
  // The stored symbols of the location's next events (one each); `signatures` is the
  // stored symbol table (symbol -> signature), which may have grown since the last call.
  void push(std::span<const uint32_t> stored, const std::vector<Signature>& signatures);
  // The end of the location's events: what a call still holds is released.
  void finish(const std::vector<Signature>& signatures);
  // The loop nest, as NLR over the stream with communicationInCallOrder() gives it.
  LoopModel model() const { return nlr_.model(signatures_); }

 private:
  // What an event of a stored symbol is to the derived stream.
  enum class Role : uint8_t { Enter, MpiEnter, Leave, Communication, Other };
  void learnSymbols(const std::vector<Signature>& signatures);
  void release(uint32_t stored, const std::vector<Signature>& signatures);
  void releaseHeld(size_t count, const std::vector<Signature>& signatures);
  void releaseSorted(size_t count, const std::vector<Signature>& signatures);
  void startReleasing(size_t incoming);
  void pushReleased();

  const SignatureContext& context_;
  std::vector<Role> roles_;            // by stored symbol
  std::vector<uint32_t> symbolOf_;     // stored symbol -> derived symbol, or kNone
  std::vector<Signature> signatures_;  // derived symbol -> signature (first release order)
  uint64_t depth_ = 0;                 // open regions (a Leave at depth 0 closes nothing)
  uint64_t heldDepth_ = 0;             // depth of the outermost MPI call held, or 0
  // Stored symbols of that call, not released yet: held_[0, heldCount_) (kMaxHeldInCall
  // at most: push() keeps the count in a register, with no capacity check).
  std::array<uint32_t, kMaxHeldInCall> held_{};
  size_t heldCount_ = 0;
  std::vector<uint32_t> released_;  // room for the derived symbols of a push
  uint32_t* out_ = nullptr;         // where release() writes the next one in released_
  Nlr nlr_;
};

}  // namespace mtf::nlr
