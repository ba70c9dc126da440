#include "values/column_dictionary.hpp"

#include <algorithm>
#include <cstdint>

namespace mtf::values {

namespace {

// ZDICT learns from many small samples: each payload is cut into pieces of this size.
constexpr size_t kSamplePiece = 4096;
// The pieces a first, quick dictionary learns from (see chooseDictionary).
constexpr size_t kProbePieces = 128;
constexpr size_t kDictionaryCapacity = 16 * 1024;
// Below this much payload a dictionary cannot pay for itself (measured on the real traces:
// it only did on traces with over 100 KB of payload).
constexpr size_t kMinimumPayload = 32 * 1024;

size_t compressedSize(const std::vector<const ByteBuffer*>& payloads, int level,
                      const ZstdDictionary* dictionary) {
  ZstdCompressor zstd;
  std::vector<uint8_t> out;
  size_t total = 0;
  for (const ByteBuffer* p : payloads) {
    out.clear();
    zstd.compress(p->data(), p->size(), level, dictionary, out);
    total += out.size();
  }
  return total;
}

size_t pieceCount(const std::vector<const ByteBuffer*>& payloads) {
  size_t pieces = 0;
  for (const ByteBuffer* p : payloads) pieces += (p->size() + kSamplePiece - 1) / kSamplePiece;
  return pieces;
}

// The payloads cut into pieces for ZDICT: every piece, or only every stride-th so that at
// most `maxPieces` are taken, spread evenly over the payloads.
std::vector<std::vector<uint8_t>> samplePieces(const std::vector<const ByteBuffer*>& payloads,
                                               size_t maxPieces) {
  const size_t pieces = pieceCount(payloads);
  const size_t stride = pieces <= maxPieces ? 1 : (pieces + maxPieces - 1) / maxPieces;
  std::vector<std::vector<uint8_t>> samples;
  size_t piece = 0;
  for (const ByteBuffer* p : payloads)
    for (size_t at = 0; at < p->size(); at += kSamplePiece, ++piece) {
      if (piece % stride != 0) continue;
      const size_t n = std::min(kSamplePiece, p->size() - at);
      samples.emplace_back(p->data() + at, p->data() + at + n);
    }
  return samples;
}

struct Trained {
  std::vector<uint8_t> content;  // empty if ZDICT failed
  size_t with = SIZE_MAX;        // the payloads compressed with it, plus it compressed
};

// A dictionary learnt from `samples`, and what the payloads take with it at level `judge`.
Trained trained(const std::vector<const ByteBuffer*>& payloads,
                const std::vector<std::vector<uint8_t>>& samples, int level, int judge) {
  Trained t;
  t.content = trainZstdDictionary(samples, kDictionaryCapacity);
  if (t.content.empty()) return t;
  const ZstdDictionary dictionary(t.content.data(), t.content.size(), judge);
  std::vector<uint8_t> stored;
  ZstdCompressor zstd;
  zstd.compress(t.content.data(), t.content.size(), level, nullptr, stored);
  t.with = compressedSize(payloads, judge, &dictionary) + stored.size();
  return t;
}

}  // namespace

std::vector<uint8_t> chooseDictionary(const std::vector<const ByteBuffer*>& payloads, int level) {
  size_t total = 0;
  for (const ByteBuffer* p : payloads) total += p->size();
  if (payloads.size() < 2 || total < kMinimumPayload) return {};
  // Judged at a fast level: the difference a dictionary makes shows there already.
  const int judge = std::min(level, 3);
  const size_t without = compressedSize(payloads, judge, nullptr);
  // Noise (the low bytes of jittery times) has nothing to share: skip the training.
  if (without >= total - total / 10) return {};
  // ZDICT's time grows with what it learns from (600 M instructions for 2 MiB). A first
  // dictionary learnt from a quarter or less of the pieces gains nearly as much as the
  // full one (1,024-rank wavefront: 4.85% against 5.2%; 16-rank wavefront 0.2% and
  // 0.4%): where it gains less than 2.5%, the full one would not reach 5% either.
  if (pieceCount(payloads) > 2 * kProbePieces &&
      trained(payloads, samplePieces(payloads, kProbePieces), level, judge).with >=
          without - without / 40)
    return {};
  Trained full = trained(payloads, samplePieces(payloads, SIZE_MAX), level, judge);
  // Judged at a fast level, a small gain may vanish at the final level: ask for 5%.
  if (full.with >= without - without / 20) return {};
  return std::move(full.content);
}

DictionaryGate::DictionaryGate(int level, Deliver deliver, DeliverDictionary deliverDictionary)
    : deciding_(deliverDictionary != nullptr),
      deliver_(std::move(deliver)),
      deliverDictionary_(std::move(deliverDictionary)) {
  coder_.level = level;
}

void DictionaryGate::add(LocationId location, PendingChunk& pending) {
  if (!deciding_) {
    compressAndDeliver(location, pending);
    return;
  }
  heldBytes_ += pending.payload.size();
  held_.emplace_back(location, std::move(pending));
  pending = PendingChunk{};
  if (heldBytes_ >= kSampleBudget) finish();
}

void DictionaryGate::finish() {
  if (!deciding_) return;
  decide();
  deciding_ = false;
  for (auto& [location, pending] : held_) compressAndDeliver(location, pending);
  held_.clear();
  heldBytes_ = 0;
}

void DictionaryGate::decide() {
  std::vector<const ByteBuffer*> payloads;
  for (const auto& [location, pending] : held_) payloads.push_back(&pending.payload);
  std::vector<uint8_t> content = chooseDictionary(payloads, coder_.level);
  if (content.empty()) return;
  dictionary_ = std::make_shared<ZstdDictionary>(content.data(), content.size(), coder_.level);
  coder_.dictionary = dictionary_.get();
  deliverDictionary_(dictionary_);
}

void DictionaryGate::compressAndDeliver(LocationId location, PendingChunk& pending) {
  compressChunk(pending, coder_);
  deliver_(location, std::move(pending.chunk));
}

}  // namespace mtf::values
