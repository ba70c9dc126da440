// Writes the seed corpus of fuzz_columns: chunks coded by ColumnEncoder with the event
// shape of fuzz_columns.hpp, with times that give every plane coding (stored noise,
// Huffman-coded jitter, sparse high bytes, deflated runs). Usage: make_column_seeds DIR
#include <cstdio>
#include <random>
#include <string>

#include "fuzz_columns.hpp"
#include "values/columns.hpp"

namespace {

// One seed: `events` events, value counts `valueCounts`, time steps from `step`.
template <typename Step>
void writeSeed(const std::string& path, uint16_t events, uint8_t valueCounts, Step step) {
  using namespace mtf::compaction;
  ColumnEncoder encoder(events);
  mtf::Tick time = 1000;
  for (uint64_t i = 0; i < events; ++i) {
    time += step(i);
    uint64_t values[3] = {4096 + i, i / 7, 42};
    encoder.add(mtf::fuzz::columnContext(i), time, values,
                mtf::fuzz::columnValueCount(valueCounts, i));
  }
  const ColumnChunk chunk = encoder.finish(0);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return;
  const uint8_t head[3] = {static_cast<uint8_t>(events), static_cast<uint8_t>(events >> 8),
                           valueCounts};
  std::fwrite(head, 1, 3, f);
  std::fwrite(chunk.encoded.data(), 1, chunk.encoded.size(), f);
  std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_column_seeds DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  std::mt19937_64 rng(1);
  // Jitter of 10 random bits and a pause now and then: stored, Huffman and sparse planes.
  writeSeed(dir + "/jitter", 5000, 0x00,
            [&](uint64_t i) { return 40000 + (rng() & 0x3FF) + (i % 977 == 0 ? 1u << 20 : 0); });
  writeSeed(dir + "/jitter-values", 4500, 0xE4, [&](uint64_t) { return 300 + rng() % 700; });
  writeSeed(dir + "/regular", 3000, 0x15, [](uint64_t i) { return 100 + (i % 5) * 10; });
  writeSeed(dir + "/few", 9, 0x39, [&](uint64_t) { return rng() % 100000; });
  return 0;
}
