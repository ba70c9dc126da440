#include "program/grouping.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <numeric>
#include <queue>
#include <unordered_map>

#include "nlr/signature.hpp"

namespace mtf::program {

namespace {

// The signature without the partner of a point-to-point event: constructs alike up to
// their partners go into one bucket, the rank forms then tell which of them group.
nlr::Signature withoutPartner(const nlr::Signature& s) {
  if (!isMpiPointToPoint(s.kind)) return s;
  nlr::Signature out = s;
  out.partner = 0;
  out.partnerRelative = false;
  return out;
}

size_t looseHash(const Construct& c) {
  size_t h = static_cast<size_t>(c.type) * 0x9E3779B97F4A7C15ull + c.count;
  if (!c.isLoop()) h ^= nlr::SignatureHash{}(withoutPartner(c.signature)) + (h << 6);
  for (const Construct& b : c.body) h = h * 31 + looseHash(b);
  return h;
}

// Salted apart from the loose hashes: a construct that waits for its exact equals only.
size_t exactHash(const Construct& c) {
  size_t h = static_cast<size_t>(c.type) * 0x9E3779B97F4A7C15ull + c.count + 0x5bd1e995;
  if (!c.isLoop())
    h ^= nlr::SignatureHash{}(c.signature) + (h << 6) + static_cast<size_t>(c.form.kind);
  for (const Construct& b : c.body) h = h * 31 + exactHash(b);
  return h;
}

bool alikeButPartners(const Construct& a, const Construct& b) {
  if (a.type != b.type || a.count != b.count || a.body.size() != b.body.size()) return false;
  if (!a.isLoop() && !(withoutPartner(a.signature) == withoutPartner(b.signature))) return false;
  for (size_t i = 0; i < a.body.size(); ++i)
    if (!alikeButPartners(a.body[i], b.body[i])) return false;
  return true;
}

// The point-to-point events of `c` (itself or its body, in order): the positions where
// alike constructs may differ.
void partnerEvents(Construct& c, std::vector<Construct*>& out) {
  if (!c.isLoop()) {
    if (isMpiPointToPoint(c.signature.kind)) out.push_back(&c);
    return;
  }
  for (Construct& b : c.body) partnerEvents(b, out);
}

// Adds b's processes to a (same shape), construct by construct.
void absorb(Construct& a, const Construct& b) {
  a.procs = unite(a.procs, b.procs);
  for (size_t i = 0; i < a.body.size(); ++i) absorb(a.body[i], b.body[i]);
}

// A rank form's constant at one position: (index into the candidate forms, constant).
using FormKey = std::pair<uint32_t, int64_t>;
constexpr uint32_t kAbsolute = UINT32_MAX;       // an absolute partner
constexpr uint32_t kOtherForm = UINT32_MAX - 1;  // a form no candidate is

class Grouper {
 public:
  Grouper(System& s, const std::vector<RankForm>& forms, const std::vector<Process>& processes)
      : s_(s), forms_(forms), processes_(processes), heads_(s.size(), 0) {}
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
  std::vector<uint32_t> selectByForms(std::vector<uint32_t> members, std::vector<uint32_t>& rest,
                                      std::vector<uint32_t>& loners);
  FormKey primaryKey(const Construct& event) const;
  bool fits(const Construct& event, const FormKey& key) const;
  FormKey fixedKey(const Construct& event) const;
  bool flexible(const Construct& event) const;
  void keysOf(const Construct& event, std::vector<FormKey>& out) const;
  void advance(uint32_t i);

  System& s_;
  const std::vector<RankForm>& forms_;
  const std::vector<Process>& processes_;
  std::vector<size_t> hashes_;
  std::vector<size_t> heads_;  // processes on which the construct is the next one
  std::map<uint32_t, std::deque<uint32_t>> queues_;
  std::unordered_map<size_t, std::vector<uint32_t>> ready_;  // loose hash -> ready constructs
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
    hashes_.push_back(looseHash(s_[i]));
    for (uint32_t p : s_[i].procs) queues_[p].push_back(i);
    if (s_[i].procs.empty()) makeReady(i);
  }
  for (auto& [p, q] : queues_) becameHead(q.front());
}

// An event of one rank with a partner relative to it: any candidate form may describe it.
bool Grouper::flexible(const Construct& event) const {
  return event.procs.size() == 1 && event.signature.partnerRelative &&
         event.form.kind == RankForm::Kind::Offset &&
         processes_.at(event.procs.front()).worldRank >= 0;
}

FormKey Grouper::fixedKey(const Construct& event) const {
  if (event.form.kind == RankForm::Kind::Offset && !event.signature.partnerRelative)
    return {kAbsolute, event.signature.partner};
  for (uint32_t f = 0; f < forms_.size(); ++f)
    if (forms_[f] == event.form) return {f, event.signature.partner};
  return {kOtherForm, event.signature.partner};
}

void Grouper::keysOf(const Construct& event, std::vector<FormKey>& out) const {
  out.clear();
  if (!flexible(event)) {
    out.push_back(fixedKey(event));
    return;
  }
  const int64_t own = processes_.at(event.procs.front()).worldRank;
  int64_t constant = 0;
  for (uint32_t f = 0; f < forms_.size(); ++f)
    if (formConstant(forms_[f], own, own + event.signature.partner, constant))
      out.emplace_back(f, constant);
}

// Of constructs alike up to their partners, the largest set whose partners follow one
// rank form at every position (greedily, position by position; among equally large
// sets the earlier form: offset, xor, then the tori). Each event of the set takes that
// form; the others go to `rest`, or to `loners` when no two of them can share a form
// at some position (they then wait for exactly equal constructs only, as before rank
// forms: a bucket of unrelated constructs is not searched again and again).
std::vector<uint32_t> Grouper::selectByForms(std::vector<uint32_t> members,
                                             std::vector<uint32_t>& rest,
                                             std::vector<uint32_t>& loners) {
  std::vector<std::vector<Construct*>> events(members.size());
  for (size_t m = 0; m < members.size(); ++m) partnerEvents(s_[members[m]], events[m]);
  std::vector<size_t> alive(members.size());  // indices into members and events
  std::iota(alive.begin(), alive.end(), size_t{0});
  const size_t positions = events.front().size();
  std::vector<FormKey> chosen(positions), keys;
  for (size_t j = 0; j < positions && alive.size() > 1; ++j) {
    // The offset form alone first (the common case, and as fast as before).
    std::map<FormKey, size_t> count;
    for (size_t m : alive) ++count[primaryKey(*events[m][j])];
    if (count.size() > 1) {
      count.clear();
      for (size_t m : alive) {
        keysOf(*events[m][j], keys);
        for (const FormKey& k : keys) ++count[k];
      }
    }
    auto best = count.begin();
    for (auto it = count.begin(); it != count.end(); ++it)
      if (it->second > best->second) best = it;
    chosen[j] = best->first;
    std::vector<size_t> kept;
    for (size_t m : alive) {
      if (fits(*events[m][j], chosen[j]))
        kept.push_back(m);
      else
        (best->second == 1 ? loners : rest).push_back(members[m]);
    }
    alive = std::move(kept);
  }
  std::vector<uint32_t> group;
  for (size_t m : alive) group.push_back(members[m]);
  if (group.size() < 2) return group;
  for (size_t m : alive) {
    for (size_t j = 0; j < positions; ++j) {
      Construct& e = *events[m][j];
      if (!flexible(e) || chosen[j].first >= forms_.size()) continue;
      e.form = forms_[chosen[j].first];
      e.signature.partner = chosen[j].second;
    }
  }
  return group;
}

FormKey Grouper::primaryKey(const Construct& event) const {
  return flexible(event) ? FormKey{0, event.signature.partner} : fixedKey(event);
}

bool Grouper::fits(const Construct& event, const FormKey& key) const {
  if (!flexible(event)) return fixedKey(event) == key;
  if (key.first >= forms_.size()) return false;
  const int64_t own = processes_.at(event.procs.front()).worldRank;
  int64_t constant = 0;
  return formConstant(forms_[key.first], own, own + event.signature.partner, constant) &&
         constant == key.second;
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
  std::vector<uint32_t> alike, rest, loners;
  for (uint32_t i : best->second)
    (alikeButPartners(s_[i], s_[best->second.front()]) ? alike : rest).push_back(i);
  std::vector<uint32_t> group = selectByForms(std::move(alike), rest, loners);
  if (rest.empty()) {
    ready_.erase(best);
  } else {
    std::sort(rest.begin(), rest.end());
    best->second = std::move(rest);
    largest_.push({best->second.size(), best->second.front(), best->first});
  }
  for (uint32_t i : loners) {  // after `best` is done with: this may rehash ready_
    hashes_[i] = exactHash(s_[i]);
    makeReady(i);
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

void groupBodies(System& system, const std::vector<RankForm>& forms,
                 const std::vector<Process>& processes) {
  for (Construct& c : system)
    if (c.isLoop()) groupBodies(c.body, forms, processes);
  system = Grouper(system, forms, processes).run();
}

}  // namespace

bool sameShape(const Construct& a, const Construct& b) {
  if (a.type != b.type || a.count != b.count || a.body.size() != b.body.size()) return false;
  if (!a.isLoop() && !(a.signature == b.signature && a.form == b.form)) return false;
  for (size_t i = 0; i < a.body.size(); ++i)
    if (!sameShape(a.body[i], b.body[i])) return false;
  return true;
}

void groupSystem(System& system, const std::vector<Process>& processes) {
  int64_t worldSize = 0;
  for (const Process& p : processes) worldSize = std::max(worldSize, p.worldRank + 1);
  groupBodies(system, candidateForms(static_cast<uint64_t>(worldSize)), processes);
}

}  // namespace mtf::program
