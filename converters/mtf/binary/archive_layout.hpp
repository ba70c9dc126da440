// The MTF binary archive (.mtf), version 9. All integers little-endian.
// Version 2 differs from version 1 only in the column chunks' coding (columns.hpp:
// coding 2, with a Huffman coding of noisy time planes). Version 3 stores everything
// but the column chunks in ONE Structure chunk (below), and codes the column chunks with
// coding 3 (values/columns.hpp: slot models, time register, zstd, and a column dictionary
// kept in the Structure chunk). Version 4 codes the definitions' texts anew
// (definition_texts.hpp), stores the nodes column by column, and codes the column chunks
// with coding 4 (value streams by slot, values/value_streams.hpp). Version 5 codes more
// definition texts by reference (numbered texts, the strings mtf's readers define) and the
// column chunks with coding 5 (time and value units). Version 6 is version 5 with the built-in
// vocabulary (vocabulary.hpp) as the Structure chunk's LZMA2 preset dictionary. Version 7 is
// version 6 with short chunk headers (below). Version 8 is version 7 whose column chunks may
// be range coded (coding 6, values/columns.hpp) instead of zstd. Version 9 is version 8 whose
// range coded chunks use coding 7 (better models, each event's time beside its values).
// Readers read all nine.
//
//   header   8 bytes magic "\x89MTF\r\n\x1a\n", u32 version, u32 flags (0)       = 16 bytes
//   chunks   each: u8 kind, 3 zero bytes, u32 CRC32 of the stored bytes,
//            u64 stored size, u64 raw size, then the stored bytes              (24 + stored)
//            Version 7: u8 kind, u32 CRC32 of the stored bytes, varint stored size,
//            varint raw size, then the stored bytes (a column chunk of 100 to 16,383
//            bytes: 8 + stored); small traces are mostly headers otherwise.
//              - Columns: stored bytes = ColumnChunk::encoded (already compressed by
//                values/columns.hpp); raw size 0.
//              - Structure (versions 3, 4): one byte, the LZMA2 property (dictionary size),
//                then a raw LZMA2 stream that expands to `raw size` bytes (lzma_codec.hpp)
//              - every other kind: a zlib stream that inflates to `raw size` bytes.
//            Column chunks come first, in the order compaction finished them (the writer
//            streams them while the trace is read). Version 3: then the Structure chunk,
//            holding the index of the column chunks and the model (structure_codec.hpp).
//            Versions 1 and 2: then Definitions, Signatures, Nodes, Locations,
//            Annotations; then the Index.
//   trailer  u64 offset of the Index chunk (version 3: of the Structure chunk), u64 file size, u32
//   version,
//            u32 CRC32 of the previous 20 bytes, 8 bytes magic "MTF-END\n"           = 32 bytes
//
// The Index lists every chunk (kind, offset, stored size) and, for column chunks, the
// location index, first event, event count and first/last/min/max time: a reader
// decodes one location, or one time window, by reading only the chunks it needs.
// Every count read from the file is checked against the bytes that remain before it
// sizes an allocation.
#pragma once

#include <cstdint>

namespace mtf::mtfbin {

inline constexpr uint8_t kMagic[8] = {0x89, 'M', 'T', 'F', '\r', '\n', 0x1a, '\n'};
inline constexpr uint8_t kEndMagic[8] = {'M', 'T', 'F', '-', 'E', 'N', 'D', '\n'};
inline constexpr uint32_t kVersion = 9;
inline constexpr uint32_t kOldestVersion = 1;  // the oldest version this reader reads
inline constexpr uint64_t kHeaderSize = 16;
// The chunk header of versions 1 to 6.
inline constexpr uint64_t kFixedChunkHeaderSize = 24;
// Version 7: the bounds of a chunk header (u8, u32, two varints of 1 to 10 bytes).
inline constexpr uint64_t kMinChunkHeaderSize = 7;
inline constexpr uint64_t kMaxChunkHeaderSize = 25;
inline constexpr uint32_t kFirstShortHeaderVersion = 7;

// The bytes of the header of a chunk of `stored` bytes expanding to `raw` (column chunks:
// 0) in an archive of `version`.
constexpr uint64_t chunkHeaderSize(uint32_t version, uint64_t stored, uint64_t raw = 0) {
  if (version < kFirstShortHeaderVersion) return kFixedChunkHeaderSize;
  uint64_t size = 5;
  for (uint64_t v : {stored, raw}) {
    do {
      ++size;
      v >>= 7;
    } while (v != 0);
  }
  return size;
}
inline constexpr uint64_t kTrailerSize = 32;

enum class ChunkKind : uint8_t {
  Columns = 1,
  Definitions = 2,
  Signatures = 3,
  Nodes = 4,
  Locations = 5,
  Annotations = 6,
  Index = 7,
  Structure = 8,  // versions 3 and 4
};
inline constexpr uint8_t kLastChunkKind = 7;  // the last kind an index (versions 1, 2) lists

const char* chunkKindName(ChunkKind kind);

}  // namespace mtf::mtfbin
