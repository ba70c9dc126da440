#include "program/merge.hpp"

#include <algorithm>
#include <array>
#include <exception>
#include <map>
#include <numeric>
#include <queue>
#include <thread>

#include "program/flows.hpp"

namespace mtf::program {

namespace {

// A construct's messages on one side of a channel: positions [start, end) of the side's
// message sequence (FIFO: position k meets position k of the other side).
struct Entry {
  uint32_t index = 0;  // the construct, in its system
  uint64_t start = 0, end = 0;
};

// The positions of one system's constructs on every side they use.
struct Placement {
  std::map<Side, std::vector<Entry>> sides;                 // in sequence order
  std::vector<std::vector<std::pair<Side, Entry>>> byItem;  // construct -> its sides
  std::map<Channel, std::vector<const std::vector<Entry>*>> byChannel;
};

Placement place(const System& s, const std::vector<Process>& processes) {
  Placement out;
  out.byItem.resize(s.size());
  std::map<Side, uint64_t> offset;
  for (uint32_t i = 0; i < s.size(); ++i) {
    for (const auto& [side, n] : flowOf(s[i], processes)) {
      uint64_t& at = offset[side];
      const Entry e{i, at, at + n};
      at += n;
      out.sides[side].push_back(e);
      out.byItem[i].emplace_back(side, e);
    }
  }
  for (const auto& [side, list] : out.sides) out.byChannel[side.channel].push_back(&list);
  return out;
}

// The entry of `list` whose positions hold `at`, or null.
const Entry* containing(const std::vector<Entry>& list, uint64_t at) {
  auto it = std::upper_bound(list.begin(), list.end(), at,
                             [](uint64_t v, const Entry& e) { return v < e.start; });
  if (it == list.begin()) return nullptr;
  --it;
  return at < it->end ? &*it : nullptr;
}

// A copy of `c` with `count` iterations; a single iteration is unwrapped into its body.
void appendLoopPart(const Construct& c, uint64_t count, System& out) {
  if (count == 1) {
    out.insert(out.end(), c.body.begin(), c.body.end());
    return;
  }
  Construct part = c;
  part.count = count;
  out.push_back(std::move(part));
}

// The condensation of (V, T) with each group as one node: edges along each process's
// sequence, counted into `indegree`.
struct Graph {
  std::vector<std::vector<uint32_t>> next;
  std::vector<uint32_t> indegree;
};

class Merger {
 public:
  Merger(System a, System b, const std::vector<Process>& processes)
      : sys_{std::move(a), std::move(b)}, processes_(processes) {}
  System run();

 private:
  void placeAll() {
    for (int x = 0; x < 2; ++x) placed_[x] = place(sys_[x], processes_);
  }
  const std::vector<Entry>* correspondents(int x, const Side& side) const;
  bool regularizeRound();
  uint64_t regularCount(int x, uint32_t i);
  void linkExactLoops();
  bool exactPartners(int x, uint32_t i, std::vector<uint32_t>& partners);
  void checkGroups();
  Graph condensed();
  bool dissolveCycles();
  System emit();
  Construct coalesce(const std::vector<uint32_t>& members);

  uint32_t node(int x, uint32_t i) const { return x == 0 ? i : uint32_t(sys_[0].size()) + i; }
  const Construct& at(uint32_t n) const {
    return n < sys_[0].size() ? sys_[0][n] : sys_[1][n - sys_[0].size()];
  }
  Construct& at(uint32_t n) {
    return n < sys_[0].size() ? sys_[0][n] : sys_[1][n - sys_[0].size()];
  }
  uint32_t find(uint32_t n) {
    while (parent_[n] != n) n = parent_[n] = parent_[parent_[n]];
    return n;
  }
  void dissolve(uint32_t root, const std::string& why);

  std::array<System, 2> sys_;
  const std::vector<Process>& processes_;
  std::array<Placement, 2> placed_;
  std::vector<uint32_t> parent_;  // union-find over nodes: groups of loops to coalesce
};

const std::vector<Entry>* Merger::correspondents(int x, const Side& side) const {
  const Placement& other = placed_[1 - x];
  if (side.channel.collective) {
    // Every member calls the collectives of a communicator in the same order: any
    // member of the other system stands for all.
    const auto it = other.byChannel.find(side.channel);
    return it == other.byChannel.end() ? nullptr : it->second.front();
  }
  const auto it = other.sides.find(Side{side.channel, 1 - side.role});
  return it == other.sides.end() ? nullptr : &it->second;
}

// The iterations of loop (x, i) that its first correspondent on every side takes whole
// (the seed's k = min f[h] / b[h]); the loop's count if it is regular.
uint64_t Merger::regularCount(int x, uint32_t i) {
  const Construct& c = sys_[x][i];
  uint64_t k = c.count;
  for (const auto& [side, e] : placed_[x].byItem[i]) {
    const std::vector<Entry>* list = correspondents(x, side);
    const Entry* d = list ? containing(*list, e.start) : nullptr;
    // The flow of one iteration on this side: the loop's flow is count times it.
    const uint64_t perIteration = (e.end - e.start) / c.count;
    if (d && perIteration) k = std::min(k, (std::min(e.end, d->end) - e.start) / perIteration);
  }
  return k;
}

bool Merger::regularizeRound() {
  bool split = false;
  for (int x = 0; x < 2; ++x) {
    System out;
    out.reserve(sys_[x].size());
    for (uint32_t i = 0; i < sys_[x].size(); ++i) {
      Construct& c = sys_[x][i];
      const uint64_t k = c.isLoop() ? regularCount(x, i) : c.count;
      if (!c.isLoop() || k == c.count) {
        out.push_back(std::move(c));
      } else if (k == 0) {
        c.note = "a link takes less than one iteration (shifting is not done)";
        out.push_back(std::move(c));
      } else {
        appendLoopPart(c, k, out);
        appendLoopPart(c, c.count - k, out);
        split = true;
      }
    }
    sys_[x] = std::move(out);
  }
  return split;
}

// The loops of the other system that take all the messages of loop (x, i) on every side
// it shares with them, each with exactly the same positions; false if any side of the
// loop has another kind of correspondent.
bool Merger::exactPartners(int x, uint32_t i, std::vector<uint32_t>& partners) {
  partners.clear();
  for (const auto& [side, e] : placed_[x].byItem[i]) {
    const std::vector<Entry>* list = correspondents(x, side);
    if (!list) continue;
    const Entry* d = containing(*list, e.start);
    if (!d || d->start != e.start || d->end != e.end || !sys_[1 - x][d->index].isLoop())
      return false;
    partners.push_back(node(1 - x, d->index));
  }
  return !partners.empty();
}

void Merger::linkExactLoops() {
  parent_.resize(sys_[0].size() + sys_[1].size());
  std::iota(parent_.begin(), parent_.end(), 0u);
  std::array<std::vector<bool>, 2> exact;
  std::vector<std::vector<uint32_t>> partners(parent_.size());
  for (int x = 0; x < 2; ++x) {
    exact[x].resize(sys_[x].size());
    for (uint32_t i = 0; i < sys_[x].size(); ++i)
      exact[x][i] = sys_[x][i].isLoop() && exactPartners(x, i, partners[node(x, i)]);
  }
  for (uint32_t i = 0; i < sys_[0].size(); ++i) {
    if (!exact[0][i]) {
      if (sys_[0][i].isLoop() && !placed_[0].byItem[i].empty() && sys_[0][i].note.empty() &&
          !partners[i].empty())
        sys_[0][i].note = "its links do not carry its whole flow";
      continue;
    }
    for (uint32_t n : partners[i])
      if (exact[1][n - sys_[0].size()]) parent_[find(n)] = find(i);
  }
}

void Merger::dissolve(uint32_t root, const std::string& why) {
  for (uint32_t n = 0; n < parent_.size(); ++n) {
    if (find(n) != root) continue;
    at(n).note = why;
  }
  std::vector<uint32_t> members;
  for (uint32_t n = 0; n < parent_.size(); ++n)
    if (find(n) == root) members.push_back(n);
  for (uint32_t n : members) parent_[n] = n;
}

// Groups whose loops share a process, or whose counts are coprime, stay apart.
void Merger::checkGroups() {
  std::map<uint32_t, std::vector<uint32_t>> groups;
  for (uint32_t n = 0; n < parent_.size(); ++n) groups[find(n)].push_back(n);
  for (const auto& [root, members] : groups) {
    if (members.size() < 2) continue;
    size_t procs = 0;
    ProcSet all;
    uint64_t g = 0;
    for (uint32_t n : members) {
      procs += at(n).procs.size();
      all = unite(all, at(n).procs);
      g = std::gcd(g, at(n).count);
    }
    if (all.size() != procs)
      dissolve(root, "linked to several loops of one process");
    else if (g == 1)
      dissolve(root, "linked loops have coprime iteration counts (not unrolled)");
  }
}

Graph Merger::condensed() {
  Graph g{std::vector<std::vector<uint32_t>>(parent_.size()),
          std::vector<uint32_t>(parent_.size(), 0)};
  std::map<uint32_t, uint32_t> last;  // process -> the node of its last construct
  for (int x = 0; x < 2; ++x) {
    for (uint32_t i = 0; i < sys_[x].size(); ++i) {
      const uint32_t v = find(node(x, i));
      for (uint32_t p : sys_[x][i].procs) {
        auto [it, fresh] = last.emplace(p, v);
        if (!fresh && it->second != v) {
          g.next[it->second].push_back(v);
          ++g.indegree[v];
        }
        it->second = v;
      }
    }
  }
  return g;
}

// Groups left unsorted by a topological sort are on (or after) a cycle: they stay apart.
bool Merger::dissolveCycles() {
  Graph g = condensed();
  std::vector<uint32_t> ready;
  for (uint32_t v = 0; v < parent_.size(); ++v)
    if (find(v) == v && g.indegree[v] == 0) ready.push_back(v);
  while (!ready.empty()) {
    const uint32_t v = ready.back();
    ready.pop_back();
    for (uint32_t w : g.next[v])
      if (--g.indegree[w] == 0) ready.push_back(w);
  }
  bool dissolved = false;
  for (uint32_t v = 0; v < parent_.size(); ++v) {
    if (find(v) != v || g.indegree[v] == 0) continue;
    for (uint32_t n = 0; n < parent_.size(); ++n) {
      if (n != v && find(n) == v) {
        dissolve(v, "coalescing it would make a topological cycle");
        dissolved = true;
        break;
      }
    }
  }
  return dissolved;
}

// The systems' constructs in a topological order of the condensation (constructs of
// both systems taken in turn), each group as one coalesced loop.
System Merger::emit() {
  Graph g = condensed();
  std::vector<std::vector<uint32_t>> members(parent_.size());
  std::vector<uint64_t> key(parent_.size(), UINT64_MAX);
  for (int x = 0; x < 2; ++x) {
    for (uint32_t i = 0; i < sys_[x].size(); ++i) {
      const uint32_t root = find(node(x, i));
      members[root].push_back(node(x, i));
      key[root] = std::min<uint64_t>(key[root], uint64_t{i} * 2 + x);
    }
  }
  using Item = std::pair<uint64_t, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
  for (uint32_t v = 0; v < parent_.size(); ++v)
    if (find(v) == v && g.indegree[v] == 0) ready.push({key[v], v});
  System out;
  while (!ready.empty()) {
    const uint32_t v = ready.top().second;
    ready.pop();
    if (members[v].size() > 1)
      out.push_back(coalesce(members[v]));
    else
      out.push_back(std::move(at(v)));
    for (uint32_t w : g.next[v])
      if (--g.indegree[w] == 0) ready.push({key[w], w});
  }
  return out;
}

// A loop of g = gcd(counts) iterations whose body is the merge of the members' bodies,
// each blocked to g iterations first (seed III-B3).
Construct Merger::coalesce(const std::vector<uint32_t>& members) {
  uint64_t g = 0;
  for (uint32_t n : members) g = std::gcd(g, at(n).count);
  Construct merged;
  merged.type = ConstructType::Loop;
  merged.count = g;
  bool first = true;
  for (uint32_t n : members) {
    Construct& c = at(n);
    merged.procs = unite(merged.procs, c.procs);
    System body;
    if (c.count == g) {
      body = std::move(c.body);
    } else {
      c.count /= g;
      c.note.clear();
      body.push_back(std::move(c));
    }
    merged.body =
        first ? std::move(body) : mergeSystems(std::move(merged.body), std::move(body), processes_);
    first = false;
  }
  return merged;
}

System Merger::run() {
  constexpr int kMaxRounds = 64;
  placeAll();
  for (int round = 0; round < kMaxRounds; ++round) {
    if (!regularizeRound()) break;
    placeAll();  // after every split, positions are new
  }
  linkExactLoops();
  checkGroups();
  for (int round = 0; round < kMaxRounds && dissolveCycles(); ++round) {
  }
  return emit();
}

}  // namespace

System mergeSystems(System a, System b, const std::vector<Process>& processes) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return Merger(std::move(a), std::move(b), processes).run();
}

System reduceSystems(std::vector<System> systems, const std::vector<Process>& processes,
                     unsigned threads) {
  if (systems.empty()) return {};
  threads = std::max(1u, threads);
  while (systems.size() > 1) {
    std::vector<System> next((systems.size() + 1) / 2);
    std::vector<std::exception_ptr> errors(threads);
    auto work = [&](unsigned t) {
      try {
        for (size_t k = t; k < next.size(); k += threads)
          next[k] = 2 * k + 1 < systems.size()
                        ? mergeSystems(std::move(systems[2 * k]), std::move(systems[2 * k + 1]),
                                       processes)
                        : std::move(systems[2 * k]);
      } catch (...) {
        errors[t] = std::current_exception();
      }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads && t < next.size(); ++t) pool.emplace_back(work, t);
    work(0);
    for (std::thread& t : pool) t.join();
    for (const std::exception_ptr& e : errors)
      if (e) std::rethrow_exception(e);
    systems = std::move(next);
  }
  return std::move(systems.front());
}

}  // namespace mtf::program
