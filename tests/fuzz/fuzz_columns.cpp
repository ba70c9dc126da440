// Fuzzes the value columns' decoder (values/columns.hpp) on its own. In an archive
// every column chunk is guarded by a CRC32, which mutations of whole archives seldom get
// past, so the deflate stream and the coded time planes (Huffman, sparse) are fed to the
// decoder directly here.
// Input: u16 event count (little-endian), u8 value counts (2 bits per event, in turn),
// then ColumnChunk::encoded. Events take contexts 0..4 in turn.
#include "fuzz_columns.hpp"

#include <cstdint>

#include "values/columns.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mtf::compaction;
  if (size < 3) return 0;
  ColumnChunk chunk;
  chunk.eventCount = data[0] | uint64_t{data[1]} << 8;
  const uint8_t valueCounts = data[2];
  chunk.encoded.assign(data + 3, data + size);
  try {
    ColumnDecoder decoder(chunk);
    uint64_t values[3];
    for (uint64_t i = 0; i < chunk.eventCount; ++i)
      decoder.next(mtf::fuzz::columnContext(i), values,
                   mtf::fuzz::columnValueCount(valueCounts, i));
    (void)decoder.finished();
  } catch (const CodingError&) {
    // a correct refusal
  }
  return 0;
}
