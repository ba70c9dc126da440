// Test support for the column coding tests (columns_test.cpp, ranged_estimate_test.cpp):
// rows of (context, time, values), coded into one chunk and decoded back.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "values/columns.hpp"

namespace mtf::values::test_rows {

struct Row {
  uint32_t context;
  Tick time;
  std::vector<uint64_t> values;
};

inline ColumnChunk encodeRows(const std::vector<Row>& rows) {
  ColumnEncoder enc(rows.size() + 1);
  for (const Row& r : rows) enc.add(r.context, r.time, r.values.data(), r.values.size());
  return enc.finish(0);
}

// The rows `chunk` decodes to, given each row's context and value count from `rows`.
inline std::vector<Row> decodeRows(const ColumnChunk& chunk, const std::vector<Row>& rows) {
  ColumnDecoder dec(chunk);
  std::vector<Row> out;
  for (const Row& r : rows) {
    Row o{r.context, 0, std::vector<uint64_t>(r.values.size())};
    o.time = dec.next(r.context, o.values.data(), o.values.size());
    out.push_back(o);
  }
  EXPECT_TRUE(dec.finished());
  return out;
}

inline std::vector<Row> roundTrip(const std::vector<Row>& rows) {
  return decodeRows(encodeRows(rows), rows);
}

inline bool sameRows(const std::vector<Row>& a, const std::vector<Row>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].time != b[i].time || a[i].values != b[i].values) return false;
  return true;
}

// Rows of jittery times and small noisy values: what zstd finds nothing to match in.
inline std::vector<Row> noisyRows(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Row> rows;
  Tick time = 1000;
  for (size_t i = 0; i < n; ++i) {
    time += 500 + rng() % 300;
    const uint32_t ctx = static_cast<uint32_t>(i % 3);
    rows.push_back({ctx, time, std::vector<uint64_t>(ctx)});
    for (uint64_t& v : rows.back().values) v = rng() % 100000;
  }
  return rows;
}

}  // namespace mtf::values::test_rows
