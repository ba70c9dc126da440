#include "nlr/communication_stream.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "model/event_batch.hpp"
#include "nlr/loop_blob.hpp"
#include "nlr/nlr_sink.hpp"
#include "nlr/test_wavefront.hpp"

namespace mtf::nlr {
namespace {

// Two ranks' worth of definitions: MPI calls, user regions, a world communicator.
struct RanksAndRegions {
  Definitions defs;
  Ref world = kUndefinedRef;
  std::vector<Ref> mpiRegions, userRegions;
  RanksAndRegions() {
    DefinitionBuilder b(defs);
    const uint64_t node = b.systemTreeNode("machine", "machine");
    std::vector<LocationId> locations;
    for (int r = 0; r < 3; ++r) {
      b.location(r, "Master thread", b.locationGroup("MPI Rank " + std::to_string(r), node));
      locations.push_back(r);
    }
    world = defineMpiWorld(b, locations);
    for (const char* name : {"MPI_Waitall", "MPI_Sendrecv", "MPI_Allreduce"})
      mpiRegions.push_back(b.region(name, RegionRole::PointToPoint, Paradigm::Mpi));
    for (const char* name : {"main", "solve", "kernel"})
      userRegions.push_back(b.region(name, RegionRole::Function, Paradigm::User));
  }
};

// A random stream of one location: MPI calls holding a few to several hundred completions
// in random order (more than kMaxHeldInCall in one call), nested calls, user regions, Leaves
// that close nothing, and events the communication view leaves out. Repeating patterns
// are drawn from a few templates, so NLR finds loops in both views.
std::vector<Event> randomStream(const RanksAndRegions& s, LocationId location, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Event> events;
  Tick t = 0;
  auto put = [&](EventKind k, std::initializer_list<uint64_t> f) {
    events.emplace_back();
    events.back().set(k, location, ++t, f);
  };
  auto message = [&](uint64_t pick) {
    const EventKind kinds[] = {EventKind::MpiSend, EventKind::MpiRecv, EventKind::MpiIsend,
                               EventKind::MpiIrecv};
    put(kinds[pick % 4], {pick % 3, s.world, pick % 5, uint64_t{8} << (pick % 3)});
  };
  for (int block = 0; block < 300; ++block) {
    const uint64_t shape = rng() % 10;
    const uint64_t repeats = 1 + rng() % 6;
    for (uint64_t r = 0; r < repeats; ++r) {
      if (shape < 4) {  // an MPI call completing messages in a random order
        put(EventKind::Enter, {s.mpiRegions[shape % 3]});
        const uint64_t n = shape == 0 && rng() % 8 == 0 ? 300 + rng() % 300 : 1 + rng() % 6;
        for (uint64_t i = 0; i < n; ++i) message(rng() % 24);
        if (shape == 1) {  // a nested call inside the MPI call
          put(EventKind::Enter, {s.userRegions[2]});
          message(rng() % 24);
          put(EventKind::Leave, {s.userRegions[2]});
          for (uint64_t i = rng() % 4; i < 4; ++i) message(rng() % 24);
        }
        put(EventKind::Leave, {s.mpiRegions[shape % 3]});
      } else if (shape < 6) {  // a collective, with the events the view leaves out
        put(EventKind::Enter, {s.mpiRegions[2]});
        put(EventKind::MpiCollectiveBegin, {});
        put(EventKind::MpiCollectiveEnd, {2, s.world, 0xFFFFFFFFu, 8, 8});
        put(EventKind::Leave, {s.mpiRegions[2]});
      } else if (shape < 8) {  // user regions, messages outside any MPI call
        put(EventKind::Enter, {s.userRegions[shape % 2]});
        message(shape);
        put(EventKind::Leave, {s.userRegions[shape % 2]});
      } else if (shape == 8) {
        put(EventKind::Leave, {s.userRegions[0]});  // closes nothing (or a call open above)
      } else {
        put(EventKind::Enter, {s.userRegions[0]});  // stays open
      }
    }
  }
  return events;
}

// `events` through NlrSinks by batches of `batchSize` (mixing locations) or one by one.
void feed(const std::vector<Event>& events, size_t batchSize, std::vector<NlrSink*> sinks) {
  if (batchSize == 0) {
    for (const Event& e : events)
      for (NlrSink* s : sinks) s->event(e);
    return;
  }
  for (size_t at = 0; at < events.size(); at += batchSize) {
    EventBatch batch;
    const size_t n = std::min(batchSize, events.size() - at);
    batch.events.assign(events.begin() + at, events.begin() + at + n);
    batch.size = n;
    for (NlrSink* s : sinks) s->eventsOf(batch);
  }
}

std::vector<std::string> blobs(const std::vector<LocationLoops>& loops) {
  std::vector<std::string> out;
  for (const LocationLoops& l : loops)
    out.push_back(std::to_string(l.location) + " " + std::to_string(l.worldRank) + " " +
                  std::to_string(l.eventsRead) + " " + encodeLoopModel(l.model));
  return out;
}

// The derived nests equal those of NLR over the communication view, whatever the batches.
TEST(CommunicationStream, EqualsTheCommunicationViewOnRandomStreams) {
  const RanksAndRegions s;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    std::vector<Event> events;
    for (LocationId l = 0; l < 3; ++l) {
      std::vector<Event> stream = randomStream(s, l, seed * 3 + l);
      events.insert(events.end(), stream.begin(), stream.end());
    }
    // Interleave the locations by time, as a reader merging them would.
    std::stable_sort(events.begin(), events.end(),
                     [](const Event& a, const Event& b) { return a.time < b.time; });
    for (const size_t batchSize : {size_t{0}, size_t{7}, size_t{4096}}) {
      NlrSink stored({}, {}), direct({}, communicationInCallOrder()), traceOrder({}, {});
      stored.deriveCommunicationStream();
      SignatureOptions unsorted = communicationInCallOrder();
      unsorted.canonicalCallOrder = false;
      NlrSink inTraceOrder({}, unsorted);
      for (NlrSink* sink : {&stored, &direct, &inTraceOrder}) sink->begin(s.defs);
      feed(events, batchSize, {&stored, &direct, &inTraceOrder});
      for (NlrSink* sink : {&stored, &direct, &inTraceOrder}) sink->end();
      EXPECT_EQ(blobs(stored.derivedResults()), blobs(direct.results()))
          << "seed " << seed << " batches of " << batchSize;
      // The streams do reorder calls: in trace order, the nests differ.
      EXPECT_NE(blobs(inTraceOrder.results()), blobs(direct.results())) << "seed " << seed;
    }
  }
}

TEST(CommunicationStream, EqualsTheCommunicationViewOnTheWavefront) {
  const testing::Wavefront w(4, 3, 40, 12);
  NlrSink stored({}, {}), direct({}, communicationInCallOrder());
  stored.deriveCommunicationStream();
  stored.begin(w.defs);
  direct.begin(w.defs);
  for (int rank = 0; rank < 12; ++rank)
    w.rankEvents(rank, [&](const Event& e) {
      stored.event(e);
      direct.event(e);
    });
  stored.end();
  direct.end();
  const std::vector<LocationLoops> derived = stored.derivedResults();
  EXPECT_EQ(blobs(derived), blobs(direct.results()));
  ASSERT_EQ(derived.size(), 12u);
  EXPECT_LT(derived[0].model.eventsIn, stored.results()[0].model.eventsIn);
}

// Calls that hold the same completions as the call before, in the same unsorted order
// (released again as that call's), in another order of the same ones, or new ones (the
// first release of a symbol numbers it), in runs long enough for NLR to fold.
TEST(CommunicationStream, RepeatedCallsReleaseTheirCompletionsAsTheDirectView) {
  const RanksAndRegions s;
  const std::vector<std::vector<uint64_t>> orders = {{3, 1, 2}, {2, 3, 1}, {4, 3, 1}, {1}};
  const std::vector<size_t> calls = {0, 0, 0, 0, 1, 0, 1, 1, 2, 2, 0, 3, 3, 3, 2, 0, 0};
  std::vector<Event> events;
  Tick t = 0;
  auto put = [&](EventKind k, std::initializer_list<uint64_t> f) {
    events.emplace_back();
    events.back().set(k, 0, ++t, f);
  };
  for (int round = 0; round < 4; ++round) {
    for (const size_t order : calls) {
      put(EventKind::Enter, {s.userRegions[0]});
      put(EventKind::Leave, {s.userRegions[0]});
      put(EventKind::Enter, {s.mpiRegions[0]});
      for (const uint64_t peer : orders[order])
        put(EventKind::MpiRecv, {peer % 3, s.world, peer, 8});
      put(EventKind::Leave, {s.mpiRegions[0]});
    }
  }
  for (const size_t batchSize : {size_t{0}, size_t{5}, size_t{4096}}) {
    NlrSink stored({}, {}), direct({}, communicationInCallOrder());
    stored.deriveCommunicationStream();
    for (NlrSink* sink : {&stored, &direct}) sink->begin(s.defs);
    feed(events, batchSize, {&stored, &direct});
    for (NlrSink* sink : {&stored, &direct}) sink->end();
    EXPECT_EQ(blobs(stored.derivedResults()), blobs(direct.results())) << batchSize;
  }
}

TEST(CommunicationStream, OnlyFromTheStoredView) {
  NlrSink sink({}, communicationInCallOrder());
  EXPECT_THROW(sink.deriveCommunicationStream(), std::logic_error);
  NlrSink plain({}, {});
  EXPECT_THROW(plain.derivedResults(), std::logic_error);
}

}  // namespace
}  // namespace mtf::nlr
