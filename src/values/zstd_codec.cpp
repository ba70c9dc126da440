#include "values/zstd_codec.hpp"

#define ZDICT_STATIC_LINKING_ONLY  // the fastCover parameters
#include <zdict.h>
#include <zstd.h>

#include <new>
#include <stdexcept>
#include <string>

namespace mtf::values {

namespace {

void check(size_t result, const char* what) {
  if (ZSTD_isError(result))
    throw std::runtime_error(std::string("zstd: ") + what + ": " + ZSTD_getErrorName(result));
}

struct CCtxFree {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DCtxFree {
  void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
};
struct CDictFree {
  void operator()(ZSTD_CDict* d) const { ZSTD_freeCDict(d); }
};
struct DDictFree {
  void operator()(ZSTD_DDict* d) const { ZSTD_freeDDict(d); }
};

}  // namespace

struct ZstdDictionary::Handles {
  std::unique_ptr<ZSTD_CDict, CDictFree> cdict;
  std::unique_ptr<ZSTD_DDict, DDictFree> ddict;
};

ZstdDictionary::ZstdDictionary(const uint8_t* content, size_t size, int level)
    : content_(content, content + size), handles_(std::make_unique<Handles>()) {
  if (level >= 0) {
    handles_->cdict.reset(ZSTD_createCDict(content_.data(), content_.size(), level));
    if (!handles_->cdict) throw std::bad_alloc();
  }
  handles_->ddict.reset(ZSTD_createDDict(content_.data(), content_.size()));
  if (!handles_->ddict) throw std::bad_alloc();
}

ZstdDictionary::~ZstdDictionary() = default;

struct ZstdCompressor::State {
  std::unique_ptr<ZSTD_CCtx, CCtxFree> cctx{ZSTD_createCCtx()};
  ByteBuffer frame;  // frame()'s
};

ZstdCompressor::ZstdCompressor() : state_(std::make_unique<State>()) {
  if (!state_->cctx) throw std::bad_alloc();
}

ZstdCompressor::~ZstdCompressor() = default;

void ZstdCompressor::compress(const uint8_t* data, size_t size, int level,
                              const ZstdDictionary* dictionary, std::vector<uint8_t>& out) {
  const Frame f = frame(data, size, level, dictionary);
  out.insert(out.end(), f.data, f.data + f.size);
}

ZstdCompressor::Frame ZstdCompressor::frame(const uint8_t* data, size_t size, int level,
                                            const ZstdDictionary* dictionary) {
  ZSTD_CCtx* c = state_->cctx.get();
  check(ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters), "reset");
  check(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level), "level");
  check(ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 0), "content size flag");
  check(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 0), "checksum flag");
  check(ZSTD_CCtx_setParameter(c, ZSTD_c_dictIDFlag, 0), "dictionary id flag");
  if (dictionary) {
    if (!dictionary->handles().cdict)
      throw std::logic_error("zstd: dictionary not for compression");
    check(ZSTD_CCtx_refCDict(c, dictionary->handles().cdict.get()), "dictionary");
  }
  ByteBuffer& out = state_->frame;
  const size_t bound = ZSTD_compressBound(size);
  if (out.size() < bound) out.resize(bound);
  const size_t n = ZSTD_compress2(c, out.data(), bound, data, size);
  check(n, "compress");
  return {out.data(), n};
}

bool zstdDecompress(const uint8_t* data, size_t size, size_t expectedSize,
                    const ZstdDictionary* dictionary, std::vector<uint8_t>& out) {
  thread_local std::unique_ptr<ZSTD_DCtx, DCtxFree> dctx{ZSTD_createDCtx()};
  if (!dctx) throw std::bad_alloc();
  ZSTD_DCtx_reset(dctx.get(), ZSTD_reset_session_and_parameters);
  if (dictionary && ZSTD_isError(ZSTD_DCtx_refDDict(dctx.get(), dictionary->handles().ddict.get())))
    return false;
  out.resize(expectedSize);
  ZSTD_inBuffer in{data, size, 0};
  ZSTD_outBuffer o{out.data(), out.size(), 0};
  // Streaming: the frame does not state its size, and a corrupt one must not write past
  // the expected size.
  while (true) {
    const size_t r = ZSTD_decompressStream(dctx.get(), &o, &in);
    if (ZSTD_isError(r)) return false;
    if (r == 0) break;                                      // frame complete
    if (in.pos == in.size && o.pos < o.size) return false;  // truncated
    if (o.pos == o.size) {
      // Full: the frame must end here, with no byte more.
      uint8_t extra = 0;
      ZSTD_outBuffer probe{&extra, 1, 0};
      const size_t e = ZSTD_decompressStream(dctx.get(), &probe, &in);
      if (ZSTD_isError(e) || probe.pos != 0 || e != 0) return false;
      break;
    }
  }
  return o.pos == expectedSize && in.pos == in.size;
}

std::vector<uint8_t> trainZstdDictionary(const std::vector<std::vector<uint8_t>>& samples,
                                         size_t capacity, DictionaryTraining& training) {
  std::vector<uint8_t> joined;
  std::vector<size_t> sizes;
  for (const auto& s : samples) {
    joined.insert(joined.end(), s.begin(), s.end());
    sizes.push_back(s.size());
  }
  // What ZDICT_trainFromBuffer asks of fastCover: d = 8, k searched in 4 steps, level 3.
  ZDICT_fastCover_params_t params{};
  params.d = 8;
  params.steps = 4;
  params.zParams.compressionLevel = ZSTD_CLEVEL_DEFAULT;
  std::vector<uint8_t> dictionary(capacity);
  const auto count = static_cast<unsigned>(sizes.size());
  size_t n;
  if (training.known()) {
    params.k = training.k;
    params.d = training.d;
    // One training on every sample: fastCover reads splitPoint only when it searches
    // (zdict.h), so a known k learns from all the samples, not from the search's 75%.
    n = ZDICT_trainFromBuffer_fastCover(dictionary.data(), capacity, joined.data(), sizes.data(),
                                        count, params);
  } else {
    n = ZDICT_optimizeTrainFromBuffer_fastCover(dictionary.data(), capacity, joined.data(),
                                                sizes.data(), count, &params);
    if (!ZDICT_isError(n)) training = {params.k, params.d};
  }
  if (ZDICT_isError(n)) return {};
  dictionary.resize(n);
  return dictionary;
}

std::vector<uint8_t> trainZstdDictionary(const std::vector<std::vector<uint8_t>>& samples,
                                         size_t capacity) {
  DictionaryTraining searched;
  return trainZstdDictionary(samples, capacity, searched);
}

}  // namespace mtf::values
