#include "nlr/signature.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "nlr/test_wavefront.hpp"
#include "util/error.hpp"

namespace mtf::nlr {
namespace {

using testing::Wavefront;

std::vector<Signature> signaturesOf(const Wavefront& w, int rank, SignatureOptions options) {
  SignatureContext ranks(w.defs);
  SignatureExtractor extractor(options, ranks, 100 + rank);
  std::vector<Signature> out;
  w.rankEvents(rank, [&](const Event& e) {
    if (auto s = extractor.signatureOf(e)) out.push_back(*s);
  });
  return out;
}

TEST(Signature, EveryFieldTakesPartInEqualityAndOrder) {
  // == compares the bytes: each field alone must make two signatures differ.
  const std::vector<void (*)(Signature&)> changes = {
      [](Signature& s) { s.kind = EventKind::MpiSend; },
      [](Signature& s) { s.partnerRelative = true; },
      [](Signature& s) { s.region = 7; },
      [](Signature& s) { s.comm = 7; },
      [](Signature& s) { s.tag = 7; },
      [](Signature& s) { s.partner = -1; },
      [](Signature& s) { s.size = 7; },
      [](Signature& s) { s.size2 = 7; },
      [](Signature& s) { s.ident = uint64_t{1} << 63; }};
  const Signature base;
  EXPECT_EQ(base, Signature{});
  for (size_t i = 0; i < changes.size(); ++i) {
    Signature other;
    changes[i](other);
    EXPECT_NE(other, base) << i;
    EXPECT_NE(other <=> base, std::strong_ordering::equal) << i;
    Signature copy = other;
    EXPECT_EQ(copy, other) << i;
  }
}

// Issue 17: a message on a communicator over a COMM_SELF group (Score-P's MPI_COMM_SELF
// and a split's singletons) goes to the rank itself, whatever its world rank.
TEST(Signature, RankZeroOfASelfCommunicatorIsTheOwnRank) {
  Wavefront w(4, 4, 1, 1);
  // Refs past the wavefront's own (a second DefinitionBuilder would number from 0 again).
  const Ref selfGroup = 1000, self = 1000;
  w.defs.add({DefKind::Group,
              {selfGroup, 0, uint64_t(GroupType::CommSelf), uint64_t(Paradigm::Mpi), 0, 0},
              {}});
  w.defs.add({DefKind::Comm, {self, 0, selfGroup, w.world, 0}, {}});
  SignatureContext ranks(w.defs);
  SignatureExtractor rank5({}, ranks, 105);
  Event e;
  e.set(EventKind::MpiIsend, 105, 1, {0, self, 3, 8, 1});
  const Signature s = *rank5.signatureOf(e);
  EXPECT_TRUE(s.partnerRelative);
  EXPECT_EQ(s.partner, 0);  // 5 - 5
}

TEST(Signature, PartnersAreRelativeToTheOwnRank) {
  const Wavefront w(4, 4, 1, 1);
  SignatureContext ranks(w.defs);
  SignatureExtractor rank0({}, ranks, 100), rank5({}, ranks, 105);
  EXPECT_EQ(rank5.ownWorldRank(), 5);
  Event e;
  e.set(EventKind::MpiSend, 100, 1, {1, w.world, 2, 800});
  const Signature a = *rank0.signatureOf(e);
  e.set(EventKind::MpiSend, 105, 1, {6, w.world, 2, 800});
  const Signature b = *rank5.signatureOf(e);
  EXPECT_TRUE(a.partnerRelative);
  EXPECT_EQ(a.partner, 1);
  EXPECT_EQ(a, b);
  e.set(EventKind::MpiSend, 105, 1, {4, w.world, 2, 800});
  EXPECT_EQ(rank5.signatureOf(e)->partner, -1);
}

TEST(Signature, CommunicationSelectionKeepsMessagesWithTheirCall) {
  const Wavefront w(2, 1, 1, 1);
  SignatureOptions compact;
  compact.selection = EventSelection::Communication;
  const std::vector<Signature> all = signaturesOf(w, 0, {});
  const std::vector<Signature> comm = signaturesOf(w, 0, compact);
  EXPECT_GT(all.size(), comm.size());
  for (const Signature& s : comm) {
    EXPECT_NE(s.kind, EventKind::Enter);
    EXPECT_NE(s.kind, EventKind::MpiCollectiveBegin);
    if (s.kind == EventKind::MpiSend) {
      EXPECT_EQ(s.region, w.send);
    }
    if (s.kind == EventKind::MpiCollectiveEnd) {
      EXPECT_TRUE(s.region == w.allreduce || s.region == w.barrier);
    }
  }
  // 3 collectives + exchange (2) + 1 iteration x (1 + 1 + 2) + final collective.
  EXPECT_EQ(comm.size(), 3u + 2u + 4u + 1u);
}

TEST(Signature, FieldMaskDropsFields) {
  const Wavefront w(2, 1, 1, 1);
  SignatureContext ranks(w.defs);
  SignatureOptions noSize;
  noSize.fields = kAllFields & ~kFieldSize;
  SignatureExtractor withSize({}, ranks, 100), without(noSize, ranks, 100);
  Event a, b;
  a.set(EventKind::MpiSend, 100, 1, {1, w.world, 2, 800});
  b.set(EventKind::MpiSend, 100, 2, {1, w.world, 2, 16});
  EXPECT_NE(*withSize.signatureOf(a), *withSize.signatureOf(b));
  EXPECT_EQ(*without.signatureOf(a), *without.signatureOf(b));
  EXPECT_EQ(parseSignatureFields("tag,partner"), kFieldTag | kFieldPartner);
  EXPECT_EQ(parseSignatureFields("all"), kAllFields);
  EXPECT_THROW(parseSignatureFields("tag,colour"), UsageError);
}

TEST(Signature, TimestampsAndRequestsAreNotPartOfIt) {
  const Wavefront w(2, 1, 1, 1);
  SignatureContext ranks(w.defs);
  SignatureExtractor x({}, ranks, 100);
  SignatureTable table;
  Event e;
  e.set(EventKind::MpiIsend, 100, 10, {1, w.world, 5, 64, 1234});
  const uint32_t first = table.intern(*x.signatureOf(e));
  e.set(EventKind::MpiIsend, 100, 99, {1, w.world, 5, 64, 999});
  EXPECT_EQ(table.intern(*x.signatureOf(e)), first);
  e.set(EventKind::MpiIsend, 100, 99, {1, w.world, 6, 64, 999});
  EXPECT_EQ(table.intern(*x.signatureOf(e)), first + 1);
  EXPECT_EQ(table.size(), 2u);
}

TEST(Signature, DeepCallStacksStayBounded) {
  const Wavefront w(2, 1, 1, 1);
  SignatureContext ranks(w.defs);
  SignatureExtractor x({}, ranks, 100);
  Event e;
  for (int i = 0; i < 10000; ++i) {
    e.set(EventKind::Enter, 100, i, {w.main});
    x.signatureOf(e);
  }
  e.set(EventKind::Enter, 100, 1, {w.send});
  x.signatureOf(e);
  e.set(EventKind::MpiSend, 100, 1, {1, w.world, 2, 8});
  // Past the depth limit the enclosing call is the last one stored, not a crash.
  EXPECT_EQ(x.signatureOf(e)->region, w.main);
}

// Extrae gives a blocking send at the end of its call, after the call's Leave at the same
// time (the record of PyPOP's EPOCH traces): it belongs to that call. A send later, and a
// receive, stay in the region around them.
TEST(Signature, SendAtTheEndOfItsMpiCallBelongsToIt) {
  const Wavefront w(2, 1, 1, 1);
  SignatureContext ranks(w.defs);
  for (const bool stream : {false, true}) {
    SignatureExtractor x({}, ranks, 100);
    SignatureTable table;
    std::vector<Event> events(8);
    events[0].set(EventKind::Enter, 100, 5, {w.main});
    events[1].set(EventKind::Enter, 100, 10, {w.send});
    events[2].set(EventKind::Leave, 100, 20, {w.send});
    events[3].set(EventKind::MpiSend, 100, 20, {1, w.world, 2, 8});  // at the Leave
    events[4].set(EventKind::Enter, 100, 30, {w.send});
    events[5].set(EventKind::Leave, 100, 40, {w.send});
    events[6].set(EventKind::MpiSend, 100, 41, {1, w.world, 2, 8});  // later
    events[7].set(EventKind::MpiRecv, 100, 41, {1, w.world, 2, 8});
    std::vector<Signature> out;
    if (stream) {
      std::vector<uint32_t> symbols;
      x.appendSymbols(events, table, symbols);
      for (const uint32_t symbol : symbols) out.push_back(table.all()[symbol]);
    } else {
      for (const Event& e : events) out.push_back(*x.signatureOf(e));
    }
    ASSERT_EQ(out.size(), 8u);
    EXPECT_EQ(out[3].region, w.send) << stream;
    EXPECT_EQ(out[6].region, w.main) << stream;
    EXPECT_EQ(out[7].region, w.main) << stream;
  }
}

TEST(SignatureTable, SymbolsFollowFirstAppearanceWhateverTheSuccessorGuess) {
  // Random walks over a few hundred signatures: the successor guess of intern() is
  // right, wrong, or missing; the symbols must be those of first appearance, and the
  // table must grow past its first size.
  std::mt19937 rng(11);
  SignatureTable table;
  std::map<Signature, uint32_t> reference;
  for (int i = 0; i < 50000; ++i) {
    Signature s;
    s.kind = EventKind::MpiSend;
    s.tag = static_cast<uint32_t>(i % 7 == 0 ? rng() % 300 : i % 5);  // mostly a cycle
    s.size = rng() % 2;
    const auto expected = static_cast<uint32_t>(reference.size());
    const uint32_t symbol = reference.try_emplace(s, expected).first->second;
    ASSERT_EQ(table.intern(s), symbol);
    ASSERT_EQ(table.all()[symbol], s);
  }
  EXPECT_EQ(table.size(), reference.size());
}

TEST(SignatureTable, RegionEventsGetTheSymbolsOfTheirSignatures) {
  // Enters and Leaves interned as such or as signatures, mixed with sends, in a cycle
  // (the guesses are right) and at random (they are wrong; more regions than the cache
  // of region events has entries): the same symbols.
  std::mt19937 rng(5);
  SignatureTable asSuch, asSignatures;
  for (int i = 0; i < 20000; ++i) {
    Signature s;
    const uint32_t step = i % 11 == 0 ? rng() % 600 : i % 6;
    s.kind = step % 3 == 0   ? EventKind::Enter
             : step % 3 == 1 ? EventKind::Leave
                             : EventKind::MpiSend;
    s.region = step / 3;
    const uint32_t expected = asSignatures.intern(s);
    const bool regionEvent = s.kind != EventKind::MpiSend;
    ASSERT_EQ(regionEvent ? asSuch.internRegionEvent(s.kind, s.region) : asSuch.intern(s),
              expected);
  }
  EXPECT_EQ(asSuch.all(), asSignatures.all());
}

}  // namespace
}  // namespace mtf::nlr
