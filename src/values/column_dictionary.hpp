// The archive's column dictionary (coding 3). A trace's locations often repeat each
// other's values: GPU metric locations sampled at the same instants, threads running the
// same loop. Each column chunk is compressed on its own (a reader decodes one location or
// one time window without the others), so such repeats are found only through a
// dictionary shared by all chunks. The dictionary is trained (zstd's ZDICT) on the first
// chunks' payloads, and kept only if the chunks seen so far, compressed with it, plus the
// dictionary itself (compressed), are smaller than the chunks compressed without it. Where
// most of those chunks may be range coded (coding 7, which uses no dictionary), that is
// judged again on their final bytes (zstd at the final level or range coded, whichever
// compressChunk keeps): a small trace's dictionary often pays against zstd alone but not
// against the range coder (measured: par-mandel-dynamic's archive 4.7% smaller without it).
//
// DictionaryGate sits between the coding of chunk payloads and their compression: it
// holds the first payloads (at most kSampleBudget bytes) until it has decided, then
// passes every chunk on in the order it came.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "values/columns.hpp"

namespace mtf::values {

class DictionaryGate {
 public:
  using Deliver = std::function<void(LocationId, ColumnChunk&&)>;
  // Called once, before the first chunk compressed with the dictionary is delivered.
  using DeliverDictionary = std::function<void(std::shared_ptr<const ZstdDictionary>)>;
  static constexpr size_t kSampleBudget = size_t{2} << 20;

  // Without `deliverDictionary`, chunks pass straight on, compressed without a dictionary.
  // `threads`: on how many threads add() compresses the held chunks when it decides.
  DictionaryGate(int level, Deliver deliver, DeliverDictionary deliverDictionary,
                 unsigned threads = 1);
  // Takes a coded chunk (its buffers are taken; `pending` is left empty).
  void add(LocationId location, PendingChunk& pending);
  // True while it holds chunks for its decision (add() takes them); after, a caller may
  // compress chunks itself (compressChunk at the gate's level, with dictionary()) and hand
  // them on in order through deliverCompressed().
  bool deciding() const { return deciding_; }
  const ZstdDictionary* dictionary() const { return dictionary_.get(); }
  void deliverCompressed(LocationId location, PendingChunk& pending);
  // Decides if not yet decided, and delivers every chunk held, compressing them on up to
  // `threads` threads.
  void finish(unsigned threads = 1);

 private:
  bool decide(unsigned threads);
  bool mostlyRangeCodable() const;
  bool paysBesideRangeCoding(const std::vector<uint8_t>& content, unsigned threads);
  void compressAndDeliver(LocationId location, PendingChunk& pending);

  bool deciding_;
  ChunkEntropyCoder coder_;
  Deliver deliver_;
  DeliverDictionary deliverDictionary_;
  std::shared_ptr<const ZstdDictionary> dictionary_;
  std::vector<std::pair<LocationId, PendingChunk>> held_;
  size_t heldBytes_ = 0;
  unsigned addThreads_;  // for compressing the held chunks when add() decides
};

// The dictionary for the payloads `payloads` (empty if none pays), at `level`.
std::vector<uint8_t> chooseDictionary(const std::vector<const ByteBuffer*>& payloads, int level);

}  // namespace mtf::values
