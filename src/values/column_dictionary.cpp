#include "values/column_dictionary.hpp"

#include <algorithm>

namespace mtf::values {

namespace {

// ZDICT learns from many small samples: each payload is cut into pieces of this size.
constexpr size_t kSamplePiece = 4096;
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

}  // namespace

std::vector<uint8_t> chooseDictionary(const std::vector<const ByteBuffer*>& payloads, int level) {
  size_t total = 0;
  std::vector<std::vector<uint8_t>> samples;
  for (const ByteBuffer* p : payloads) {
    total += p->size();
    for (size_t at = 0; at < p->size(); at += kSamplePiece) {
      const size_t n = std::min(kSamplePiece, p->size() - at);
      samples.emplace_back(p->data() + at, p->data() + at + n);
    }
  }
  if (payloads.size() < 2 || total < kMinimumPayload) return {};
  // Judged at a fast level: the difference a dictionary makes shows there already.
  const int judge = std::min(level, 3);
  const size_t without = compressedSize(payloads, judge, nullptr);
  // Noise (the low bytes of jittery times) has nothing to share: skip the training.
  if (without >= total - total / 10) return {};
  std::vector<uint8_t> content = trainZstdDictionary(samples, kDictionaryCapacity);
  if (content.empty()) return {};
  const ZstdDictionary dictionary(content.data(), content.size(), judge);
  std::vector<uint8_t> stored;
  ZstdCompressor zstd;
  zstd.compress(content.data(), content.size(), level, nullptr, stored);
  const size_t with = compressedSize(payloads, judge, &dictionary) + stored.size();
  // Judged at a fast level, a small gain may vanish at the final level: ask for 5%.
  if (with >= without - without / 20) return {};
  return content;
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
