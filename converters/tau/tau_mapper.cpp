#include "converters/tau/tau_mapper.hpp"

namespace mtf::tau {
namespace {
constexpr uint8_t kOtf2TypeInt64 = 8;
}

uint64_t RecordMapper::newSlot() {
  if (!spare_.empty()) {
    queue_.push_back(std::move(spare_.back()));
    spare_.pop_back();
  } else {
    queue_.emplace_back();
  }
  queue_.back().state = SlotState::Pending;
  return nextSeq_++;
}

void RecordMapper::release() {
  while (!queue_.empty() && queue_.front().state != SlotState::Pending) {
    if (queue_.front().state == SlotState::Ready) {
      sink_.event(queue_.front().event);
      ++emitted_;
    }
    spare_.push_back(std::move(queue_.front()));
    queue_.pop_front();
    ++firstSeq_;
  }
}

void RecordMapper::push(const Translation& t, LocationId location, const Record& r) {
  // Fast path: nothing pending (no open triplet anywhere), so a plain record leaves at once.
  if (queue_.empty() && t.cls != EventClass::Trigger) {
    fillPlain(direct_, t, location, r);
    sink_.event(direct_);
    ++emitted_;
    return;
  }
  const uint64_t seq = newSlot();
  if (t.cls == EventClass::Trigger) {
    feedTrigger(t.ref, location, r, seq);
  } else {
    if (auto it = open_.find(location); it != open_.end() && it->second.count > 0)
      flushOpen(location, it->second);
    emitPlain(t, location, r, seq);
  }
  release();
}

void RecordMapper::finish() {
  for (auto& [location, open] : open_)
    if (open.count > 0) flushOpen(location, open);
  release();
}

// The triplet state machine of one location: 0 opens, any value of the same trigger
// follows, 0 closes. Anything else breaks the triplet; its records become single samples
// (re-fed, since the second record may itself open a triplet).
void RecordMapper::feedTrigger(Ref metric, LocationId location, const Record& r, uint64_t seq) {
  OpenTrigger& open = open_[location];
  if (open.count > 0 && open.metric != metric) flushOpen(location, open);
  if (open.count == 0) {
    if (r.par != 0) return emitSingle(metric, location, r, seq);
    open = OpenTrigger{1, metric, {r, {}}, {seq, 0}};
    return;
  }
  if (open.count == 1) {
    open.records[1] = r;
    open.slots[1] = seq;
    open.count = 2;
    return;
  }
  if (r.par == 0) {
    emitTriplet(location, open, r, seq);
    open.count = 0;
    return;
  }
  flushOpen(location, open);
  feedTrigger(metric, location, r, seq);
}

void RecordMapper::flushOpen(LocationId location, OpenTrigger& open) {
  const OpenTrigger copy = open;
  open.count = 0;
  emitSingle(copy.metric, location, copy.records[0], copy.slots[0]);
  if (copy.count == 2) feedTrigger(copy.metric, location, copy.records[1], copy.slots[1]);
}

void RecordMapper::setMetric(Event& e, Ref metric, LocationId location, const Record& r) {
  e.kind = EventKind::Metric;
  e.location = location;
  e.time = r.time;
  e.fields.assign({metric, 1, kOtf2TypeInt64, static_cast<uint64_t>(r.par)});
  e.attributes.clear();
}

void RecordMapper::emitSingle(Ref metric, LocationId location, const Record& r, uint64_t seq) {
  Slot& s = slot(seq);
  setMetric(s.event, metric, location, r);
  s.event.attributes.push_back({model_.attrSingle, 4, 1});
  s.state = SlotState::Ready;
}

void RecordMapper::emitTriplet(LocationId location, const OpenTrigger& open, const Record& last,
                               uint64_t lastSeq) {
  Slot& s = slot(open.slots[0]);
  const Record& value = open.records[1];
  setMetric(s.event, open.metric, location, value);
  // The sample keeps the time of the first record so events stay in file order.
  s.event.time = open.records[0].time;
  if (value.time != open.records[0].time)
    s.event.attributes.push_back({model_.attrValueDelay, 4, value.time - open.records[0].time});
  if (last.time != value.time)
    s.event.attributes.push_back({model_.attrEndDelay, 4, last.time - value.time});
  s.state = SlotState::Ready;
  slot(open.slots[1]).state = SlotState::Skip;
  slot(lastSeq).state = SlotState::Skip;
  ++triplets_;
}

void RecordMapper::emitPlain(const Translation& t, LocationId location, const Record& r,
                             uint64_t seq) {
  Slot& s = slot(seq);
  fillPlain(s.event, t, location, r);
  s.state = SlotState::Ready;
}

void RecordMapper::fillPlain(Event& e, const Translation& t, LocationId location,
                             const Record& r) const {
  e.location = location;
  e.time = r.time;
  e.attributes.clear();
  if (t.cls == EventClass::Region && (r.par == 1 || r.par == -1)) {
    e.kind = r.par == 1 ? EventKind::Enter : EventKind::Leave;
    e.fields.assign({t.ref});
    return;
  }
  if (t.cls == EventClass::Send || t.cls == EventClass::Recv) {
    const Message m = unpackMessage(r.par);
    e.kind = t.cls == EventClass::Send ? EventKind::MpiSend : EventKind::MpiRecv;
    e.fields.assign({m.partner, model_.comms[m.comm], m.tag, m.length});
    return;
  }
  // Bookkeeping, and an EntryExit record whose par is neither 1 nor -1: kept as is.
  e.kind = EventKind::Generic;
  const int64_t type = t.cls == EventClass::Bookkeeping ? t.genericType : r.event;
  e.fields.assign({static_cast<uint64_t>(type), static_cast<uint64_t>(r.par)});
}

}  // namespace mtf::tau
