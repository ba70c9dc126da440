#include "nlr/communication_stream.hpp"

#include <utility>

namespace mtf::nlr {

namespace {

constexpr uint32_t kNone = 0xFFFFFFFFu;

}  // namespace

SignatureOptions communicationInCallOrder() {
  SignatureOptions options;
  options.selection = EventSelection::Communication;
  options.canonicalCallOrder = true;
  return options;
}

CommunicationStream::Role CommunicationStream::roleOf(uint32_t stored,
                                                      const std::vector<Signature>& signatures) {
  if (stored < roles_.size() && roles_[stored] != Role::Unknown) [[likely]]
    return roles_[stored];
  if (stored >= roles_.size()) roles_.resize(stored + 1, Role::Unknown);
  const Signature& s = signatures[stored];
  Role role = Role::Other;
  if (s.kind == EventKind::Enter)
    role = context_.isMpiRegion(s.region) ? Role::MpiEnter : Role::Enter;
  else if (s.kind == EventKind::Leave)
    role = Role::Leave;
  else if (isCommunicationKind(s.kind))
    role = Role::Communication;
  return roles_[stored] = role;
}

void CommunicationStream::push(std::span<const uint32_t> stored,
                               const std::vector<Signature>& signatures) {
  for (const uint32_t symbol : stored) take(symbol, roleOf(symbol, signatures), signatures);
  if (released_.empty()) return;
  nlr_.push(released_, signatures_.size());
  released_.clear();
}

void CommunicationStream::finish(const std::vector<Signature>& signatures) {
  releaseHeld(signatures);
  if (released_.empty()) return;
  nlr_.push(released_, signatures_.size());
  released_.clear();
}

// SignatureExtractor::releaseInCallOrder, on stored symbols: outside an outermost MPI call
// a communication event goes out at once; inside, it is held until the call's Leave (or a
// nested call's Enter or Leave, or kMaxHeldInCall held), then the held go out sorted.
void CommunicationStream::take(uint32_t stored, Role role,
                               const std::vector<Signature>& signatures) {
  const bool boundary = role == Role::Enter || role == Role::MpiEnter || role == Role::Leave;
  if (!boundary) {
    if (role != Role::Communication) return;
    if (heldDepth_ == 0) {
      release(stored, signatures);
      return;
    }
    held_.push_back(stored);
    if (held_.size() >= kMaxHeldInCall) releaseHeld(signatures);
    return;
  }
  releaseHeld(signatures);
  enterOrLeave(role);
}

// The region stack's depth (a Leave at depth 0 closes nothing), and the outermost MPI call.
void CommunicationStream::enterOrLeave(Role role) {
  if (role == Role::Leave) {
    const uint64_t before = depth_;
    if (depth_ > 0) --depth_;
    if (before == heldDepth_) heldDepth_ = 0;
    return;
  }
  ++depth_;
  if (heldDepth_ == 0 && role == Role::MpiEnter) heldDepth_ = depth_;
}

void CommunicationStream::release(uint32_t stored, const std::vector<Signature>& signatures) {
  if (stored >= symbolOf_.size()) symbolOf_.resize(stored + 1, kNone);
  uint32_t& own = symbolOf_[stored];
  if (own == kNone) {
    own = static_cast<uint32_t>(signatures_.size());
    signatures_.push_back(signatures[stored]);
  }
  released_.push_back(own);
}

// Sorted by signature (insertion sort, stable, as the extractor's: a call holds few events).
void CommunicationStream::releaseHeld(const std::vector<Signature>& signatures) {
  for (size_t i = 1; i < held_.size(); ++i)
    for (size_t j = i; j > 0 && signatures[held_[j]] < signatures[held_[j - 1]]; --j)
      std::swap(held_[j], held_[j - 1]);
  for (const uint32_t stored : held_) release(stored, signatures);
  held_.clear();
}

}  // namespace mtf::nlr
