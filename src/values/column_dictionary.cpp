#include "values/column_dictionary.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <thread>

namespace mtf::values {

namespace {

// ZDICT learns from many small samples: each payload is cut into pieces of this size
// (smaller pieces for small traces, whose chunks are a few KB: ZDICT needs several).
constexpr size_t kSamplePiece = 4096, kSmallSamplePiece = 1024;
constexpr size_t kSmallPayload = 32 * 1024;
// The pieces a first, quick dictionary learns from (see quickDictionaryFails), and the
// fewer pieces it learns from where fewer are held.
constexpr size_t kProbePieces = 128, kSmallProbePieces = 32;
// The segment size (k) and substring size (d) of the probes' training.
constexpr unsigned kProbeSegment = 1024, kProbeSubstring = 8;
// The capacities tried: first 16 KiB (a small trace: the largest power of two that is at
// most a quarter of its payload); only if its dictionary pays, halving and doubling while that
// makes the whole smaller (the best one differs from trace to trace: a dictionary of half
// the size may cost half as much and save nearly as much; the threads of a small trace
// share a few hundred bytes). A trace whose dictionary does not pay is trained once.
constexpr size_t kFirstCapacity = 16 * 1024;
constexpr size_t kSmallestCapacity = 1024, kLargestCapacity = 64 * 1024;
// Below this much payload a dictionary cannot pay for itself.
constexpr size_t kMinimumPayload = 4 * 1024;

size_t compressedSize(const std::vector<const ByteBuffer*>& payloads, int level,
                      const ZstdDictionary* dictionary) {
  ZstdCompressor zstd;
  size_t total = 0;
  for (const ByteBuffer* p : payloads)
    total += zstd.frame(p->data(), p->size(), level, dictionary).size;
  return total;
}

struct Candidate {
  std::vector<uint8_t> content;
  size_t size;      // of the payloads compressed with it, plus its own
  size_t capacity;  // it was trained for
};

// The payloads compressed with the dictionary `content` at `judge`, plus the dictionary
// itself compressed at `level`.
size_t costWith(const std::vector<const ByteBuffer*>& payloads, int judge,
                const std::vector<uint8_t>& content, int level) {
  const ZstdDictionary dictionary(content.data(), content.size(), judge);
  ZstdCompressor zstd;
  const size_t stored = zstd.frame(content.data(), content.size(), level, nullptr).size;
  return compressedSize(payloads, judge, &dictionary) + stored;
}

size_t pieceCount(const std::vector<const ByteBuffer*>& payloads, size_t piece) {
  size_t pieces = 0;
  for (const ByteBuffer* p : payloads) pieces += (p->size() + piece - 1) / piece;
  return pieces;
}

// The payloads cut into pieces of `piece` bytes for ZDICT: every piece, or only every
// stride-th so that at most `maxPieces` are taken, spread evenly over the payloads.
std::vector<std::vector<uint8_t>> samplePieces(const std::vector<const ByteBuffer*>& payloads,
                                               size_t piece, size_t maxPieces) {
  const size_t pieces = pieceCount(payloads, piece);
  const size_t stride = pieces <= maxPieces ? 1 : (pieces + maxPieces - 1) / maxPieces;
  std::vector<std::vector<uint8_t>> samples;
  size_t index = 0;
  for (const ByteBuffer* p : payloads)
    for (size_t at = 0; at < p->size(); at += piece, ++index) {
      if (index % stride != 0) continue;
      const size_t n = std::min(piece, p->size() - at);
      samples.emplace_back(p->data() + at, p->data() + at + n);
    }
  return samples;
}

// ZDICT's time grows with what it learns from (600 M instructions for 2 MiB). A first
// dictionary learnt from a few of the pieces gains nearly as much as the full one
// (1,024-rank wavefront: 4.7% against 5.2%; 16-rank wavefront 0.2% and 0.4%): where it
// gains less than 2.5%, the full one would not reach the 5% asked either.
// Between 64 and 256 pieces (the full training: 150 M to 330 M instructions), a first one
// learnt from 32 pieces: it gains less, so it must gain 1% (fastotf2-mi300: 70% against 74%;
// the two that gain nothing, casita-jacobi-gpu and casita-cloverleaf-openacc, -0.1% and
// 0.3%). Below 64 pieces the full training is cheap and every trace is trained: a probe of
// 16 of par-multisort-omp's 56 pieces gains 1.6% where the full dictionary gains 7.5%.
bool quickDictionaryFails(const std::vector<const ByteBuffer*>& payloads, size_t piece, int level,
                          int judge, size_t without) {
  const size_t pieces = pieceCount(payloads, piece);
  if (pieces <= 2 * kSmallProbePieces) return false;
  const bool small = pieces <= 2 * kProbePieces;
  // One training with a k in the middle of ZDICT's search (50 to 2,000), not a search of
  // five: the probes gain about as much (1,024-rank wavefront 4.7% against 4.8%).
  DictionaryTraining training{kProbeSegment, kProbeSubstring};
  const std::vector<uint8_t> content =
      trainZstdDictionary(samplePieces(payloads, piece, small ? kSmallProbePieces : kProbePieces),
                          kFirstCapacity, training);
  const size_t enough = without - (small ? without / 100 : without / 40);
  return content.empty() || costWith(payloads, judge, content, level) >= enough;
}

// compressChunk of every held chunk at `coder`'s level and dictionary, on up to `threads`
// threads (each with a zstd context of its own; the dictionary is only read): the same
// bytes as one after the other. Used where the other threads of the value columns wait:
// at the end of a conversion (a trace of under 2 MiB of payload is compressed there, all
// of it), and where the gate decides while chunks still come (the workers wait their turn).
void compressHeld(std::vector<std::pair<LocationId, PendingChunk>>& held, ChunkEntropyCoder& coder,
                  unsigned threads) {
  const size_t n = held.size();
  if (threads > n) threads = static_cast<unsigned>(n);
  if (threads <= 1) {
    for (auto& entry : held) compressChunk(entry.second, coder);
    return;
  }
  std::atomic<size_t> next{0};
  std::vector<std::exception_ptr> failures(threads);
  auto work = [&](ChunkEntropyCoder& own, unsigned k) {
    try {
      for (size_t i; (i = next.fetch_add(1)) < n;) compressChunk(held[i].second, own);
    } catch (...) {
      failures[k] = std::current_exception();
      next.store(n);  // the others stop after their chunk
    }
  };
  std::vector<ChunkEntropyCoder> helpers(threads - 1);
  std::vector<std::thread> running;
  for (unsigned k = 1; k < threads; ++k) {
    helpers[k - 1].level = coder.level;
    helpers[k - 1].dictionary = coder.dictionary;
    running.emplace_back(work, std::ref(helpers[k - 1]), k);
  }
  work(coder, 0);
  for (std::thread& t : running) t.join();
  for (const std::exception_ptr& failure : failures)
    if (failure) std::rethrow_exception(failure);
}

}  // namespace

std::vector<uint8_t> chooseDictionary(const std::vector<const ByteBuffer*>& payloads, int level) {
  size_t total = 0;
  for (const ByteBuffer* p : payloads) total += p->size();
  const size_t piece = total < kSmallPayload ? kSmallSamplePiece : kSamplePiece;
  if (payloads.size() < 2 || total < kMinimumPayload) return {};
  // Judged at a fast level: the difference a dictionary makes shows there already.
  const int judge = std::min(level, 3);
  const size_t without = compressedSize(payloads, judge, nullptr);
  // Noise (the low bytes of jittery times) has nothing to share: skip the training.
  if (without >= total - total / 10) return {};
  if (quickDictionaryFails(payloads, piece, level, judge, without)) return {};
  // ZDICT's search for its parameters (k) is five trainings: only the first capacity's
  // training searches (on all held payload), the others train once each with the k found.
  // Not below 256 KiB of payload (cheap to search): there one k made ever larger
  // dictionaries look better (ColumnDictionary.SmallTracesGetASmallOne) and
  // `sst-macro-mpi`'s archive 4.3% larger.
  DictionaryTraining training;
  const bool searchEachTime = total < DictionaryGate::kSampleBudget / 8;
  const std::vector<std::vector<uint8_t>> samples = samplePieces(payloads, piece, SIZE_MAX);
  // A small gain may vanish at the final level: ask for 5%.
  Candidate best{{}, without - without / 20, 0};
  auto tryCapacity = [&](size_t capacity) {
    if (searchEachTime) training = {};
    std::vector<uint8_t> content = trainZstdDictionary(samples, capacity, training);
    if (content.empty()) return false;
    const size_t with = costWith(payloads, judge, content, level);
    if (with >= best.size) return false;
    best = {std::move(content), with, capacity};
    return true;
  };
  size_t first = kFirstCapacity;
  if (total < kSmallPayload)
    while (first > kSmallestCapacity && first * 4 > total) first /= 2;
  if (!tryCapacity(first)) return {};
  for (size_t c = first / 2; c >= kSmallestCapacity && tryCapacity(c); c /= 2) {
  }
  if (best.capacity == first)  // not smaller: maybe larger
    for (size_t c = first * 2; c <= kLargestCapacity && tryCapacity(c); c *= 2) {
    }
  return std::move(best.content);
}

DictionaryGate::DictionaryGate(int level, Deliver deliver, DeliverDictionary deliverDictionary,
                               unsigned threads)
    : deciding_(deliverDictionary != nullptr),
      deliver_(std::move(deliver)),
      deliverDictionary_(std::move(deliverDictionary)),
      addThreads_(threads) {
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
  if (heldBytes_ >= kSampleBudget) finish(addThreads_);
}

void DictionaryGate::finish(unsigned threads) {
  if (!deciding_) return;
  const bool compressed = decide(threads);
  deciding_ = false;
  if (!compressed) compressHeld(held_, coder_, threads);
  for (auto& [location, pending] : held_) deliverCompressed(location, pending);
  held_.clear();
  heldBytes_ = 0;
}

// True if the held chunks are compressed for good already (paysBesideRangeCoding).
bool DictionaryGate::decide(unsigned threads) {
  std::vector<const ByteBuffer*> payloads;
  for (const auto& [location, pending] : held_) payloads.push_back(&pending.payload);
  std::vector<uint8_t> content = chooseDictionary(payloads, coder_.level);
  if (content.empty()) return false;
  dictionary_ = std::make_shared<ZstdDictionary>(content.data(), content.size(), coder_.level);
  const bool judged = mostlyRangeCodable();
  if (judged && !paysBesideRangeCoding(content, threads)) {
    dictionary_.reset();
    return true;
  }
  coder_.dictionary = dictionary_.get();
  deliverDictionary_(dictionary_);
  return judged;
}

// chooseDictionary judges the dictionary against zstd alone; a chunk that ends up range
// coded (coding 7) does not use it.
bool DictionaryGate::mostlyRangeCodable() const {
  size_t tried = 0;
  for (const auto& [location, pending] : held_)
    if (!pending.ranged.empty() && (!pending.probe.probed || pending.probe.within))
      tried += pending.payload.size();
  return 2 * tried >= heldBytes_;
}

// The held chunks compressed for good (zstd at the final level or range coded, as
// compressChunk chooses) with the dictionary, plus the dictionary itself, against the same
// without it, on `threads` threads. The chunks keep the winner's bytes.
bool DictionaryGate::paysBesideRangeCoding(const std::vector<uint8_t>& content, unsigned threads) {
  ChunkEntropyCoder& coder = coder_;
  size_t with = coder.zstd.frame(content.data(), content.size(), coder.level, nullptr).size;
  size_t without = 0;
  std::vector<std::vector<uint8_t>> withDictionary(held_.size());
  std::vector<size_t> probeZstd(held_.size());  // bench probe: the zstd frames with it
  coder.dictionary = dictionary_.get();
  compressHeld(held_, coder, threads);
  for (size_t i = 0; i < held_.size(); ++i) {
    PendingChunk& pending = held_[i].second;
    with += pending.chunk.encoded.size();
    withDictionary[i].swap(pending.chunk.encoded);
    probeZstd[i] = pending.probe.zstd;
  }
  coder.dictionary = nullptr;
  compressHeld(held_, coder, threads);
  for (const auto& [location, pending] : held_) without += pending.chunk.encoded.size();
  const bool pays = with < without;
  if (pays)
    for (size_t i = 0; i < held_.size(); ++i) {
      held_[i].second.chunk.encoded.swap(withDictionary[i]);
      held_[i].second.probe.zstd = probeZstd[i];
    }
  return pays;
}

void DictionaryGate::compressAndDeliver(LocationId location, PendingChunk& pending) {
  compressChunk(pending, coder_);
  deliverCompressed(location, pending);
}

void DictionaryGate::deliverCompressed(LocationId location, PendingChunk& pending) {
  reportProbe(pending);
  deliver_(location, std::move(pending.chunk));
}

}  // namespace mtf::values
