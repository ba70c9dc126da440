#include "values/huffman.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace mtf::values {

namespace {

constexpr unsigned kTableSize = 1u << kHuffmanMaxBits;

uint32_t reverseBits(uint32_t code, unsigned length) {
  uint32_t r = 0;
  for (unsigned i = 0; i < length; ++i) r |= ((code >> i) & 1u) << (length - 1 - i);
  return r;
}

// Canonical codes for `lengths`, bit-reversed for a least-significant-bit-first stream.
std::array<uint16_t, 256> canonicalCodes(const std::array<uint8_t, 256>& lengths) {
  uint32_t perLength[kHuffmanMaxBits + 1] = {};
  for (uint8_t l : lengths) ++perLength[l];
  perLength[0] = 0;
  uint32_t next[kHuffmanMaxBits + 1] = {};
  uint32_t code = 0;
  for (unsigned l = 1; l <= kHuffmanMaxBits; ++l) {
    code = (code + perLength[l - 1]) << 1;
    next[l] = code;
  }
  std::array<uint16_t, 256> codes{};
  for (unsigned b = 0; b < 256; ++b)
    if (lengths[b]) codes[b] = static_cast<uint16_t>(reverseBits(next[lengths[b]]++, lengths[b]));
  return codes;
}

// Depth of each leaf of a Huffman tree over `weights` (ascending), built with two queues:
// the leaves in order and the inner nodes in the order they are made (their weights
// never decrease). Node i's parent is always made after i.
std::vector<unsigned> huffmanDepths(const std::vector<uint64_t>& leafWeights) {
  const size_t n = leafWeights.size(), nodes = 2 * n - 1;
  std::vector<uint64_t> weight(leafWeights);
  weight.resize(nodes);
  std::vector<size_t> parent(nodes, 0);
  size_t leaf = 0, inner = n;  // the next leaf and the next inner node not yet joined
  for (size_t made = n; made < nodes; ++made) {
    auto lightest = [&] {
      return leaf < n && (inner == made || weight[leaf] <= weight[inner]) ? leaf++ : inner++;
    };
    const size_t a = lightest();
    const size_t b = lightest();
    weight[made] = weight[a] + weight[b];
    parent[a] = parent[b] = made;
  }
  std::vector<unsigned> depth(nodes, 0);  // the root, made last, has depth 0
  for (size_t i = nodes - 1; i-- > 0;) depth[i] = depth[parent[i]] + 1;
  depth.resize(n);
  return depth;
}

}  // namespace

ByteCounts countBytes(const uint8_t* bytes, size_t n) {
  // Four histograms in turn: in a run of one byte value, each increment would otherwise
  // wait for the previous one to reach memory.
  uint32_t counts[4][256] = {};
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    ++counts[0][bytes[i]];
    ++counts[1][bytes[i + 1]];
    ++counts[2][bytes[i + 2]];
    ++counts[3][bytes[i + 3]];
  }
  for (; i < n; ++i) ++counts[0][bytes[i]];
  ByteCounts total{};
  for (int b = 0; b < 256; ++b)
    total[b] = counts[0][b] + counts[1][b] + counts[2][b] + counts[3][b];
  return total;
}

uint32_t entropy256(const ByteCounts& counts, size_t n) {
  if (n == 0) return 0;
  double bits = 0;
  const double total = static_cast<double>(n);
  for (uint32_t c : counts)
    if (c) bits -= c * std::log2(c / total);
  return static_cast<uint32_t>(bits * 256 / total);
}

std::array<uint8_t, 256> huffmanLengths(const ByteCounts& counts) {
  std::array<uint8_t, 256> lengths{};
  std::vector<uint8_t> order;  // the byte values that occur, rarest first
  for (unsigned b = 0; b < 256; ++b)
    if (counts[b]) order.push_back(static_cast<uint8_t>(b));
  if (order.size() == 1) lengths[order[0]] = 1;
  if (order.size() <= 1) return lengths;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint8_t a, uint8_t b) { return counts[a] < counts[b]; });
  std::vector<uint64_t> weights;
  for (uint8_t b : order) weights.push_back(counts[b]);
  // How many codes of each length, the too long ones cut to the limit.
  uint32_t perLength[kHuffmanMaxBits + 1] = {};
  for (unsigned d : huffmanDepths(weights)) ++perLength[std::min(d, kHuffmanMaxBits)];
  // Cutting made the code over-full (Kraft sum over 1, in units of 2^-max): each step
  // takes one code of the longest length away and splits a shorter code into two one
  // bit longer, which keeps the number of codes and lowers the sum by one unit.
  uint32_t kraft = 0;
  for (unsigned l = 1; l <= kHuffmanMaxBits; ++l) kraft += perLength[l] << (kHuffmanMaxBits - l);
  for (; kraft > kTableSize; --kraft) {
    --perLength[kHuffmanMaxBits];
    for (unsigned l = kHuffmanMaxBits - 1; l > 0; --l) {
      if (perLength[l] == 0) continue;
      --perLength[l];
      perLength[l + 1] += 2;
      break;
    }
  }
  // The most frequent values take the shortest codes.
  size_t next = order.size();
  for (unsigned l = 1; l <= kHuffmanMaxBits; ++l)
    for (uint32_t k = 0; k < perLength[l]; ++k) lengths[order[--next]] = static_cast<uint8_t>(l);
  return lengths;
}

void huffmanEncode(const uint8_t* bytes, size_t n, const ByteCounts& counts, ByteBuffer& out) {
  const std::array<uint8_t, 256> lengths = huffmanLengths(counts);
  const std::array<uint16_t, 256> codes = canonicalCodes(lengths);
  uint64_t bits = 0;
  for (unsigned b = 0; b < 256; ++b) bits += uint64_t{counts[b]} * lengths[b];
  const size_t start = out.size();
  // 8 bytes of room past the end: the stream is written 8 bytes at a time.
  out.resize(start + kHuffmanTableBytes + (bits + 7) / 8 + 8);
  uint8_t* p = out.data() + start;
  for (unsigned b = 0; b < 256; b += 2)
    *p++ = static_cast<uint8_t>(lengths[b] | lengths[b + 1] << 4);
  uint64_t acc = 0;  // bits not yet written, `held` of them
  unsigned held = 0;
  auto put = [&](uint8_t b) {
    acc |= uint64_t{codes[b]} << held;
    held += lengths[b];
  };
  auto flush = [&] {
    std::memcpy(p, &acc, 8);
    p += held >> 3;
    acc >>= held & ~7u;
    held &= 7;
  };
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {  // at most 7 + 4 * 12 bits held
    put(bytes[i]);
    put(bytes[i + 1]);
    put(bytes[i + 2]);
    put(bytes[i + 3]);
    flush();
  }
  for (; i < n; ++i) {
    put(bytes[i]);
    flush();
  }
  if (held > 0) {
    std::memcpy(p, &acc, 8);
    ++p;
  }
  out.resize(static_cast<size_t>(p - out.data()));
}

namespace {

// The decoding table of the lengths in coded[0, 128): entry = value << 4 | length, 0 where
// no code starts with those bits. False if the lengths are invalid.
bool decodingTable(const uint8_t* coded, std::vector<uint16_t>& table) {
  std::array<uint8_t, 256> lengths{};
  uint32_t kraft = 0;
  for (unsigned b = 0; b < 256; ++b) {
    lengths[b] = (coded[b / 2] >> (4 * (b % 2))) & 15;
    if (lengths[b] > kHuffmanMaxBits) return false;
    if (lengths[b]) kraft += kTableSize >> lengths[b];
  }
  if (kraft == 0 || kraft > kTableSize) return false;
  const std::array<uint16_t, 256> codes = canonicalCodes(lengths);
  table.assign(kTableSize, 0);
  for (unsigned b = 0; b < 256; ++b) {
    if (!lengths[b]) continue;
    const auto entry = static_cast<uint16_t>(b << 4 | lengths[b]);
    for (uint32_t fill = codes[b]; fill < kTableSize; fill += 1u << lengths[b]) table[fill] = entry;
  }
  return true;
}

// Up to three codes that the same kHuffmanMaxBits bits begin with, decoded by one lookup:
// the values in bits 0-23, their bits in all in 24-27, how many in 28-29 (0: no code
// starts with these bits). A stream whose codes are short (the high time planes, 1 to 4
// bits) then takes one lookup for two or three bytes: the lookups of a stream depend on
// each other, so their number bounds the decoder's speed.
constexpr unsigned kGroupShift = 24, kGroupCountShift = 28;

void groupTable(const std::vector<uint16_t>& single, std::vector<uint32_t>& groups) {
  groups.resize(kTableSize);
  for (uint32_t bits = 0; bits < kTableSize; ++bits) {
    uint32_t group = 0, used = 0, count = 0;
    while (count < 3) {
      const uint16_t entry = single[(bits >> used) & (kTableSize - 1)];
      const uint32_t length = entry & 15;
      // The bits past `used + length` are unknown here: the code must end within the lookup.
      if (length == 0 || used + length > kHuffmanMaxBits) break;
      group |= static_cast<uint32_t>(entry >> 4) << (8 * count);
      used += length;
      ++count;
    }
    groups[bits] = group | used << kGroupShift | count << kGroupCountShift;
  }
}

// Below this many bytes, or above this many bits per byte in the stream (the codes of a
// noisy plane, 7 or 8 bits: a lookup rarely holds two), the group table costs more than
// it saves.
constexpr size_t kGroupedBytes = 4 * kTableSize;
constexpr uint64_t kGroupedBitsPerByte = 6;

}  // namespace

bool huffmanDecode(const uint8_t* coded, size_t size, uint8_t* out, size_t n) {
  if (size < kHuffmanTableBytes) return false;
  std::vector<uint16_t> table;
  if (!decodingTable(coded, table)) return false;
  const size_t bytes = size - kHuffmanTableBytes;
  if (n > bytes * 8) return false;  // every code has at least one bit
  // A copy with 8 zero bytes after the end: the stream is read 8 bytes at a time.
  std::vector<uint8_t> stream(bytes + 8, 0);
  if (bytes > 0) std::memcpy(stream.data(), coded + kHuffmanTableBytes, bytes);
  const uint64_t endBit = uint64_t{bytes} * 8;
  uint64_t bit = 0;
  size_t i = 0;
  if (n >= kGroupedBytes && endBit <= kGroupedBitsPerByte * n) {
    std::vector<uint32_t> groups;
    groupTable(table, groups);
    // Four lookups per 8 bytes read (at least 57 bits: 4 * 12 of them are used); each adds
    // at most 3 bytes, so the loop stops 12 bytes before the end. Reading stops at the
    // first bit past the stream, as the one-code loop below does.
    while (n - i >= 12 && bit <= endBit) {
      uint64_t word;
      std::memcpy(&word, stream.data() + (bit >> 3), 8);
      word >>= bit & 7;
#pragma GCC unroll 4
      for (int lookup = 0; lookup < 4; ++lookup) {
        const uint32_t group = groups[word & (kTableSize - 1)];
        const uint32_t count = group >> kGroupCountShift, used = (group >> kGroupShift) & 15;
        if (count == 0) return false;
        out[i] = static_cast<uint8_t>(group);
        out[i + 1] = static_cast<uint8_t>(group >> 8);
        out[i + 2] = static_cast<uint8_t>(group >> 16);
        i += count;
        bit += used;
        word >>= used;
      }
    }
    if (bit > endBit) return false;
  }
  // Four codes per 8 bytes read (at least 57 bits: 4 * 12 of them are used): the next code's
  // lookup then waits for a shift, not for a load. Past the end of the stream only zero
  // bytes are read, and the loop stops there (the check after four codes fails as the
  // check after each would).
  while (n - i >= 4 && bit <= endBit) {
    uint64_t word;
    std::memcpy(&word, stream.data() + (bit >> 3), 8);
    word >>= bit & 7;
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
      const uint16_t entry = table[word & (kTableSize - 1)];
      const unsigned length = entry & 15;
      if (length == 0) return false;
      out[i + k] = static_cast<uint8_t>(entry >> 4);
      bit += length;
      word >>= length;
    }
    i += 4;
  }
  if (bit > endBit) return false;
  for (; i < n; ++i) {
    uint64_t word;
    std::memcpy(&word, stream.data() + (bit >> 3), 8);
    const uint16_t entry = table[(word >> (bit & 7)) & (kTableSize - 1)];
    if ((entry & 15) == 0) return false;
    out[i] = static_cast<uint8_t>(entry >> 4);
    bit += entry & 15;
    if (bit > endBit) return false;
  }
  // Nothing after the last code but the zero bits that pad it to a byte.
  return (bit + 7) / 8 == bytes && (bit % 8 == 0 || (stream[bit / 8] >> (bit % 8)) == 0);
}

}  // namespace mtf::values
