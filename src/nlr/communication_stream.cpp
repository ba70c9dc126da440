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

// Roles and derived symbols of the stored symbols new since the last call.
void CommunicationStream::learnSymbols(const std::vector<Signature>& signatures) {
  for (size_t stored = roles_.size(); stored < signatures.size(); ++stored) {
    const Signature& s = signatures[stored];
    Role role = Role::Other;
    if (s.kind == EventKind::Enter)
      role = context_.isMpiRegion(s.region) ? Role::MpiEnter : Role::Enter;
    else if (s.kind == EventKind::Leave)
      role = Role::Leave;
    else if (isCommunicationKind(s.kind))
      role = Role::Communication;
    roles_.push_back(role);
    symbolOf_.push_back(kNone);
  }
}

// A derived symbol is numbered when first released, as a SignatureTable interning the
// released signatures numbers them.
[[gnu::always_inline]] inline void CommunicationStream::release(
    uint32_t stored, const std::vector<Signature>& signatures) {
  uint32_t& own = symbolOf_[stored];
  if (own == kNone) [[unlikely]] {
    own = static_cast<uint32_t>(signatures_.size());
    signatures_.push_back(signatures[stored]);
  }
  *out_++ = own;
}

// What a call holds (held_[0, count)), released when a region starts or ends (or the call
// holds too many). Most calls hold one event: released inline, nothing to sort.
[[gnu::always_inline]] inline void CommunicationStream::releaseHeld(
    size_t count, const std::vector<Signature>& signatures) {
  if (count == 1) [[likely]]
    release(held_[0], signatures);
  else
    releaseSorted(count, signatures);
}

// Sorted by signature (insertion sort, stable, as the extractor's: a call holds few events).
[[gnu::noinline]] void CommunicationStream::releaseSorted(
    size_t count, const std::vector<Signature>& signatures) {
  for (size_t i = 1; i < count; ++i)
    for (size_t j = i; j > 0 && signatures[held_[j]] < signatures[held_[j - 1]]; --j)
      std::swap(held_[j], held_[j - 1]);
  for (size_t i = 0; i < count; ++i) release(held_[i], signatures);
}

// SignatureExtractor::releaseInCallOrder, on stored symbols: outside an outermost MPI call
// a communication event goes out at once; inside, it is held until the call's Leave (or a
// nested call's Enter or Leave, or kMaxHeldInCall held), then the held go out sorted.
void CommunicationStream::push(std::span<const uint32_t> stored,
                               const std::vector<Signature>& signatures) {
  learnSymbols(signatures);
  startReleasing(stored.size());
  // The depths and the held count in registers: the calls below never read them.
  uint64_t depth = depth_, heldDepth = heldDepth_;
  size_t held = heldCount_;
  const Role* roles = roles_.data();
  for (const uint32_t symbol : stored) {
    const Role role = roles[symbol];
    switch (role) {
      case Role::Other:
        break;
      case Role::Communication:
        if (heldDepth == 0) {
          release(symbol, signatures);
        } else {
          held_[held++] = symbol;
          if (held >= kMaxHeldInCall) {
            releaseHeld(held, signatures);
            held = 0;
          }
        }
        break;
      case Role::Leave: {
        if (held != 0) {
          releaseHeld(held, signatures);
          held = 0;
        }
        const uint64_t before = depth;
        if (depth > 0) --depth;
        if (before == heldDepth) heldDepth = 0;
        break;
      }
      default:  // an Enter
        if (held != 0) {
          releaseHeld(held, signatures);
          held = 0;
        }
        ++depth;
        if (heldDepth == 0 && role == Role::MpiEnter) heldDepth = depth;
    }
  }
  depth_ = depth;
  heldDepth_ = heldDepth;
  heldCount_ = held;
  pushReleased();
}

void CommunicationStream::finish(const std::vector<Signature>& signatures) {
  learnSymbols(signatures);
  startReleasing(0);
  if (heldCount_ != 0) releaseHeld(heldCount_, signatures);
  heldCount_ = 0;
  pushReleased();
}

// Each stored symbol is released once at most: the held ones and the `incoming` fit, and
// release() writes in place (no capacity check per symbol).
void CommunicationStream::startReleasing(size_t incoming) {
  const size_t most = heldCount_ + incoming;
  if (released_.size() < most) released_.resize(most);
  out_ = released_.data();
}

void CommunicationStream::pushReleased() {
  const auto count = static_cast<size_t>(out_ - released_.data());
  if (count == 0) return;
  nlr_.push({released_.data(), count}, signatures_.size());
}

}  // namespace mtf::nlr
