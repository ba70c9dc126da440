#include "program/grouping.hpp"

#include <deque>
#include <map>
#include <queue>
#include <unordered_map>

#include "nlr/signature.hpp"

namespace mtf::program {

namespace {

size_t shapeHash(const Construct& c) {
  size_t h = static_cast<size_t>(c.type) * 0x9E3779B97F4A7C15ull + c.count;
  if (!c.isLoop()) h ^= nlr::SignatureHash{}(c.signature) + (h << 6);
  for (const Construct& b : c.body) h = h * 31 + shapeHash(b);
  return h;
}

// Adds b's processes to a (same shape), construct by construct.
void absorb(Construct& a, const Construct& b) {
  a.procs = unite(a.procs, b.procs);
  for (size_t i = 0; i < a.body.size(); ++i) absorb(a.body[i], b.body[i]);
}

class Grouper {
 public:
  explicit Grouper(System& s) : s_(s), heads_(s.size(), 0) {}
  System run();

 private:
  void enqueue();
  void becameHead(uint32_t i) {
    if (++heads_[i] == s_[i].procs.size()) makeReady(i);
  }
  void makeReady(uint32_t i) {
    std::vector<uint32_t>& bucket = ready_[hashes_[i]];
    bucket.push_back(i);
    largest_.push({bucket.size(), bucket.front(), hashes_[i]});
  }
  std::vector<uint32_t> takeLargestGroup();
  void advance(uint32_t i);

  System& s_;
  std::vector<size_t> hashes_;
  std::vector<size_t> heads_;  // processes on which the construct is the next one
  std::map<uint32_t, std::deque<uint32_t>> queues_;
  std::unordered_map<size_t, std::vector<uint32_t>> ready_;  // shape hash -> ready constructs
  // The ready buckets by size (then first construct), lazily: an entry whose bucket has
  // changed since is skipped.
  struct Candidate {
    size_t size;
    uint32_t front;
    size_t hash;
    bool operator<(const Candidate& o) const {
      return size != o.size ? size < o.size : front > o.front;
    }
  };
  std::priority_queue<Candidate> largest_;
};

void Grouper::enqueue() {
  for (uint32_t i = 0; i < s_.size(); ++i) {
    hashes_.push_back(shapeHash(s_[i]));
    for (uint32_t p : s_[i].procs) queues_[p].push_back(i);
    if (s_[i].procs.empty()) makeReady(i);
  }
  for (auto& [p, q] : queues_) becameHead(q.front());
}

std::vector<uint32_t> Grouper::takeLargestGroup() {
  auto best = ready_.end();
  while (best == ready_.end()) {
    const Candidate c = largest_.top();
    largest_.pop();
    const auto it = ready_.find(c.hash);
    if (it != ready_.end() && it->second.size() == c.size && it->second.front() == c.front)
      best = it;
  }
  std::vector<uint32_t> group, rest;
  for (uint32_t i : best->second)
    (sameShape(s_[i], s_[best->second.front()]) ? group : rest).push_back(i);
  if (rest.empty()) {
    ready_.erase(best);
  } else {
    best->second = std::move(rest);
    largest_.push({best->second.size(), best->second.front(), best->first});
  }
  return group;
}

void Grouper::advance(uint32_t i) {
  for (uint32_t p : s_[i].procs) {
    std::deque<uint32_t>& q = queues_[p];
    q.pop_front();
    if (!q.empty()) becameHead(q.front());
  }
}

System Grouper::run() {
  enqueue();
  System out;
  while (!ready_.empty()) {
    const std::vector<uint32_t> group = takeLargestGroup();
    for (uint32_t i : group) advance(i);  // before the constructs are moved from
    Construct merged = std::move(s_[group.front()]);
    for (size_t k = 1; k < group.size(); ++k) absorb(merged, s_[group[k]]);
    out.push_back(std::move(merged));
  }
  return out;
}

}  // namespace

bool sameShape(const Construct& a, const Construct& b) {
  if (a.type != b.type || a.count != b.count || a.body.size() != b.body.size()) return false;
  if (!a.isLoop() && !(a.signature == b.signature)) return false;
  for (size_t i = 0; i < a.body.size(); ++i)
    if (!sameShape(a.body[i], b.body[i])) return false;
  return true;
}

void groupSystem(System& system) {
  for (Construct& c : system)
    if (c.isLoop()) groupSystem(c.body);
  system = Grouper(system).run();
}

}  // namespace mtf::program
