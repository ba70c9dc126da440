#include "compaction/test_support.hpp"

#include <algorithm>

#include "model/text_dump.hpp"

namespace mtf::compaction::testing {

namespace {

struct Builder {
  Definitions& defs;
  DefinitionBuilder b{defs};
  Ref world = kUndefinedRef;
  Ref rMain = 0, rSend = 0, rRecv = 0, rWait = 0, rCompute = 0, rBarrier = 0;
};

// Values of every field of `kind`, random except the repetition counts.
std::vector<uint64_t> randomFields(EventKind kind, std::mt19937_64& rng, Ref comm) {
  const KindSchema& s = schemaOf(kind);
  std::vector<uint64_t> f;
  for (size_t i = 0; i < s.fixedCount; ++i) {
    if (s.fields[i].name == "comm")
      f.push_back(comm);
    else if (s.hasGroup() && i + 1 == s.fixedCount)
      f.push_back(rng() % 3);
    else
      f.push_back(s.fields[i].type == FieldType::U64 ? rng() : rng() % 7);
  }
  if (s.hasGroup()) {
    const uint64_t n = f.back();
    for (uint64_t r = 0; r < n; ++r)
      for (size_t g = 0; g < s.groupSize; ++g) f.push_back(rng() % 5);
  }
  return f;
}

}  // namespace

SyntheticTrace makeSyntheticTrace(int ranks, int iterations, uint32_t seed, bool everyKind) {
  SyntheticTrace t;
  Builder k{t.defs};
  const uint64_t node = k.b.systemTreeNode("node", "node");
  std::vector<LocationId> locs;
  for (int r = 0; r < ranks; ++r) {
    const uint64_t g = k.b.locationGroup("rank " + std::to_string(r), node);
    const LocationId id = (static_cast<uint64_t>(r) << 32) | 7;  // large ids, like OTF2's
    k.b.location(id, "thread", g);
    locs.push_back(id);
  }
  k.world = defineMpiWorld(k.b, locs);
  k.rMain = k.b.region("main", RegionRole::Function, Paradigm::User);
  k.rSend = k.b.region("MPI_Isend", RegionRole::PointToPoint, Paradigm::Mpi);
  k.rRecv = k.b.region("MPI_Irecv", RegionRole::PointToPoint, Paradigm::Mpi);
  k.rWait = k.b.region("MPI_Waitall", RegionRole::PointToPoint, Paradigm::Mpi);
  k.rCompute = k.b.region("compute", RegionRole::Function, Paradigm::User);
  k.rBarrier = k.b.region("MPI_Barrier", RegionRole::Barrier, Paradigm::Mpi);
  const Ref attr = 0;
  t.defs.add(DefRecord{DefKind::Attribute, {attr, k.b.string("a"), k.b.string(""), 4}, ""});

  std::mt19937_64 rng(seed);
  for (int r = 0; r < ranks; ++r) {
    const LocationId loc = locs[r];
    Tick time = 1000 + rng() % 50;
    auto add = [&](EventKind kind, std::vector<uint64_t> fields) {
      Event e;
      e.kind = kind;
      e.location = loc;
      e.time = time;
      e.fields = std::move(fields);
      t.events.push_back(e);
      time += 10 + rng() % 20;
    };
    if (everyKind) add(EventKind::Leave, {k.rCompute});  // a leave without enter
    add(EventKind::Enter, {k.rMain});
    uint64_t request = 100;
    for (int it = 0; it < iterations; ++it) {
      const uint64_t right = static_cast<uint64_t>((r + 1) % ranks),
                     left = static_cast<uint64_t>((r + ranks - 1) % ranks);
      add(EventKind::Enter, {k.rRecv});
      add(EventKind::MpiIrecv, {left, k.world, 5, 4096, request++});
      add(EventKind::Leave, {k.rRecv});
      add(EventKind::Enter, {k.rSend});
      add(EventKind::MpiIsend, {right, k.world, 5, 4096, request++});
      add(EventKind::Leave, {k.rSend});
      for (int c = 0; c < 3; ++c) {
        add(EventKind::Enter, {k.rCompute});
        add(EventKind::Leave, {k.rCompute});
      }
      add(EventKind::Enter, {k.rWait});
      add(EventKind::MpiIrecvRequest, {request - 2});
      add(EventKind::MpiIsendComplete, {request - 1});
      add(EventKind::Leave, {k.rWait});
    }
    add(EventKind::Enter, {k.rBarrier});
    add(EventKind::MpiCollectiveBegin, {});
    add(EventKind::MpiCollectiveEnd, {1, k.world, 0, 0, 0});
    add(EventKind::Leave, {k.rBarrier});
    if (everyKind) {
      for (size_t kind = 0; kind < kEventKindCount; ++kind) {
        const auto ek = static_cast<EventKind>(kind);
        if (ek == EventKind::Enter || ek == EventKind::Leave) continue;
        add(ek, randomFields(ek, rng, k.world));
        if (kind % 3 == 0) t.events.back().attributes.push_back({attr, 4, rng()});
      }
      // Extreme and non-monotonic times.
      time = ~Tick{0};
      add(EventKind::Enter, {k.rCompute});
      time = 0;
      add(EventKind::Leave, {k.rCompute});
      time = 5000;
      add(EventKind::Enter, {k.rCompute});  // cut mid-call: never left (nor main)
    } else {
      add(EventKind::Leave, {k.rMain});
    }
  }
  return t;
}

void play(const SyntheticTrace& trace, TraceSink& sink, bool interleave) {
  sink.begin(trace.defs);
  if (!interleave) {
    for (const Event& e : trace.events) sink.event(e);
  } else {
    // Round-robin over the locations, keeping each location's order.
    std::vector<std::vector<const Event*>> perLocation;
    std::vector<LocationId> ids;
    for (const Event& e : trace.events) {
      auto it = std::find(ids.begin(), ids.end(), e.location);
      if (it == ids.end()) {
        ids.push_back(e.location);
        perLocation.emplace_back();
        it = ids.end() - 1;
      }
      perLocation[static_cast<size_t>(it - ids.begin())].push_back(&e);
    }
    size_t left = trace.events.size();
    for (size_t round = 0; left > 0; ++round)
      for (auto& events : perLocation)
        if (round < events.size()) sink.event(*events[round]), --left;
  }
  sink.end();
}

std::string firstDifference(const std::vector<Event>& actual, const std::vector<Event>& expected,
                            const Definitions& defs) {
  const size_t n = std::min(actual.size(), expected.size());
  for (size_t i = 0; i < n; ++i)
    if (!(actual[i] == expected[i]))
      return "event " + std::to_string(i) + ": got [" + formatEvent(actual[i], defs) +
             "] expected [" + formatEvent(expected[i], defs) + "]";
  if (actual.size() != expected.size())
    return "got " + std::to_string(actual.size()) + " events, expected " +
           std::to_string(expected.size());
  return "";
}

}  // namespace mtf::compaction::testing
