// FieldList: the std::vector operations events use, inline up to kInline values and on
// the heap past them, with the same results either way.
#include "model/field_list.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <utility>
#include <vector>

namespace mtf {
namespace {

std::vector<uint64_t> asVector(const FieldList& f) {
  return {f.begin(), f.end()};
}

std::vector<uint64_t> countingTo(size_t n) {
  std::vector<uint64_t> v(n);
  std::iota(v.begin(), v.end(), uint64_t{1});
  return v;
}

TEST(FieldList, GrowsPastTheInlineValuesKeepingThem) {
  FieldList f;
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(f.capacity(), FieldList::kInline);
  const std::vector<uint64_t> expected = countingTo(3 * FieldList::kInline);
  for (uint64_t v : expected) f.push_back(v);
  EXPECT_EQ(asVector(f), expected);
  EXPECT_EQ(f.size(), expected.size());
  EXPECT_GE(f.capacity(), expected.size());
  EXPECT_EQ(f.back(), expected.back());
}

TEST(FieldList, ClearKeepsTheCapacityOfAReusedSlot) {
  FieldList f(countingTo(FieldList::kInline + 4));
  const size_t capacity = f.capacity();
  f.clear();
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(f.capacity(), capacity);
  f.assign({7, 8});
  EXPECT_EQ(asVector(f), (std::vector<uint64_t>{7, 8}));
  EXPECT_EQ(f.capacity(), capacity);
}

TEST(FieldList, CopiesAndMovesInlineAndHeapValues) {
  for (size_t n : {size_t{0}, size_t{2}, FieldList::kInline, FieldList::kInline + 3}) {
    const std::vector<uint64_t> values = countingTo(n);
    const FieldList original(values);
    FieldList copy = original;
    EXPECT_EQ(copy, original);
    FieldList moved = std::move(copy);
    EXPECT_EQ(asVector(moved), values);
    EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
    FieldList assigned{9};
    assigned = std::move(moved);
    EXPECT_EQ(asVector(assigned), values);
    FieldList heapTarget(countingTo(FieldList::kInline + 1));
    heapTarget = original;
    EXPECT_EQ(asVector(heapTarget), values);
  }
}

TEST(FieldList, ResizeInsertAndAssignAsAVectorWould) {
  FieldList f{1, 2};
  std::vector<uint64_t> v{1, 2};
  f.resize(4);
  v.resize(4);
  EXPECT_EQ(asVector(f), v);
  const uint64_t more[] = {5, 6, 7, 8};
  f.insert(f.begin() + 1, std::begin(more), std::end(more));
  v.insert(v.begin() + 1, std::begin(more), std::end(more));
  EXPECT_EQ(asVector(f), v);
  f.insert(f.end(), uint64_t{9});
  v.insert(v.end(), uint64_t{9});
  EXPECT_EQ(asVector(f), v);
  f.resize(2, 3);
  v.resize(2, 3);
  EXPECT_EQ(asVector(f), v);
  f.assign(7, 4);
  v.assign(7, 4);
  EXPECT_EQ(asVector(f), v);
  EXPECT_TRUE(f == v);
  EXPECT_FALSE(f == FieldList({4, 4}));
}

}  // namespace
}  // namespace mtf
