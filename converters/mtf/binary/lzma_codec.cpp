#include "converters/mtf/binary/lzma_codec.hpp"

#include <lzma.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

namespace mtf::mtfbin {

namespace {

struct StreamEnd {
  void operator()(lzma_stream* s) const {
    lzma_end(s);
    delete s;
  }
};
using Stream = std::unique_ptr<lzma_stream, StreamEnd>;

Stream newStream() {
  return Stream(new lzma_stream(LZMA_STREAM_INIT));
}

// The strongest preset takes ~30 ms for the 240 KB structure of a real GPU trace; larger
// structures get faster presets, so that this last step of a conversion stays short. The
// dictionary need not exceed the input and the preset dictionary (4 KiB at least, 8 MiB
// at most: the encoder needs about ten times its dictionary in memory). `frugal`: the options to
// fall back on when memory is short (a limited address space): preset 1, a dictionary of 1 MiB at
// most.
lzma_options_lzma optionsFor(size_t size, bool frugal, std::span<const uint8_t> history) {
  lzma_options_lzma options;
  const uint32_t preset = frugal                ? 1
                          : size <= (1u << 20)  ? 9 | LZMA_PRESET_EXTREME
                          : size <= (16u << 20) ? 6
                                                : 1;
  lzma_lzma_preset(&options, preset);
  const size_t largest = frugal ? (1u << 20) : (8u << 20);
  options.dict_size =
      static_cast<uint32_t>(std::clamp<size_t>(size + history.size(), 4096, largest));
  options.pb = 0;  // no 4-byte alignment in varint records: 1.3% smaller on the real traces
  if (!history.empty()) {
    options.preset_dict = history.data();
    options.preset_dict_size = static_cast<uint32_t>(history.size());
  }
  return options;
}

// Runs `s` over the whole input into `out` (appending), to the end of the stream.
lzma_ret runToEnd(lzma_stream* s, std::vector<uint8_t>& out, uint64_t limit) {
  uint8_t buffer[1 << 14];
  for (;;) {
    s->next_out = buffer;
    s->avail_out = sizeof buffer;
    const lzma_ret ret = lzma_code(s, LZMA_FINISH);
    const size_t produced = sizeof buffer - s->avail_out;
    if (out.size() + produced > limit) return LZMA_DATA_ERROR;
    out.insert(out.end(), buffer, buffer + produced);
    if (ret != LZMA_OK) return ret;
  }
}

}  // namespace

namespace {

// The property byte and the stream, or nothing (and the error) if liblzma fails.
std::vector<uint8_t> compressWith(lzma_options_lzma options, const uint8_t* data, size_t size,
                                  lzma_ret& error) {
  lzma_filter filters[2] = {{LZMA_FILTER_LZMA2, &options}, {LZMA_VLI_UNKNOWN, nullptr}};
  uint8_t property = 0;
  if ((error = lzma_properties_encode(filters, &property)) != LZMA_OK) return {};
  std::vector<uint8_t> out{property};
  Stream s = newStream();
  if ((error = lzma_raw_encoder(s.get(), filters)) != LZMA_OK) return {};
  s->next_in = data;
  s->avail_in = size;
  if ((error = runToEnd(s.get(), out, UINT64_MAX)) != LZMA_STREAM_END) return {};
  return out;
}

}  // namespace

std::vector<uint8_t> lzmaCompress(const uint8_t* data, size_t size,
                                  std::span<const uint8_t> preset) {
  lzma_ret error = LZMA_OK;
  std::vector<uint8_t> out = compressWith(optionsFor(size, false, preset), data, size, error);
  if (out.empty() && error == LZMA_MEM_ERROR)
    out = compressWith(optionsFor(size, true, preset), data, size, error);
  return out;
}

bool lzmaDecompress(const uint8_t* data, size_t size, uint64_t expectedSize,
                    std::vector<uint8_t>& out, std::span<const uint8_t> preset) {
  // Property 40 would mean 4 GiB; 38 is 1 GiB. Larger dictionaries are not ours.
  if (size == 0 || data[0] > 38) return false;
  lzma_filter filters[2] = {{LZMA_FILTER_LZMA2, nullptr}, {LZMA_VLI_UNKNOWN, nullptr}};
  if (lzma_properties_decode(&filters[0], nullptr, data, 1) != LZMA_OK) return false;
  const std::unique_ptr<void, void (*)(void*)> options(filters[0].options, std::free);
  if (!preset.empty()) {
    auto* lzmaOptions = static_cast<lzma_options_lzma*>(filters[0].options);
    lzmaOptions->preset_dict = preset.data();
    lzmaOptions->preset_dict_size = static_cast<uint32_t>(preset.size());
  }
  Stream s = newStream();
  if (lzma_raw_decoder(s.get(), filters) != LZMA_OK) return false;
  s->next_in = data + 1;
  s->avail_in = size - 1;
  out.clear();
  out.reserve(static_cast<size_t>(std::min<uint64_t>(expectedSize, size * 16 + 4096)));
  return runToEnd(s.get(), out, expectedSize) == LZMA_STREAM_END && out.size() == expectedSize &&
         s->avail_in == 0;
}

}  // namespace mtf::mtfbin
