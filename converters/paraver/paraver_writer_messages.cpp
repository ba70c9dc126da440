// The Paraver writer's messages: a send and its receive become one communication record
// (see paraver_writer.hpp for how halves are matched).
#include <utility>

#include "converters/paraver/paraver_writer.hpp"
#include "converters/paraver/writer_records.hpp"

namespace mtf::paraver {

using records::appendField;
using records::kCommunicationRank;
using records::kEventRank;
using records::startRecord;
using records::streamOf;

void ParaverWriter::messageEvent(const Context& c, bool send) {
  const Event& e = c.e;
  const Ref comm = static_cast<Ref>(e.fields[1]);
  uint64_t peerLocation = 0;
  if (!threadMessages_.peerOf(e, peerLocation)) peerLocation = peerLocationOf(c.state, e);
  const ThreadPlace* peer = layout_->placeOf(peerLocation);
  if (!peer) {
    ++losses_["messages whose peer rank has no location (no communication record)"];
    return;
  }
  // Where its event came among the location's records: a Paraver trace's communication
  // record goes back to one half's place (paraverPlace).
  const uint64_t order = timeOrdered_       ? recordOrder(c.state)
                         : keepsFileOrder() ? sorter_->reserveOrder()
                                            : 0;
  MessageHalf half{&c.place, c.cpu, c.time, c.time, c.sortTime, e.fields[3], order};
  uint64_t other = 0;
  if (attribute(e, send ? logicalSendAttr_ : logicalRecvAttr_, other)) {
    half.logical = layout_->convertTime(other);
  } else if (!layout_->paraverOrigin() && c.state.mpiDepth > 0) {
    half.logical = c.state.callStart;  // Extrae: the logical time is the call's start
  }
  const uint64_t tag = e.fields[2];
  uint64_t id = 0;
  if (threadMessages_.idOf(e, id)) return matchById(id, half, send, tag);
  // By thread channel when the trace says which threads messages join, else by ranks.
  const bool threads = threadMessages_.declared();
  const uint64_t self = threads ? e.location : c.place.globalTask;
  const uint64_t partner = threads ? peerLocation : peer->globalTask;
  const MessageKey key =
      send ? MessageKey{self, partner, comm, tag} : MessageKey{partner, self, comm, tag};
  MessageQueues& queues = queuesOf(c.state, key);
  std::deque<MessageHalf>& partners = send ? queues.receives : queues.sends;
  if (partners.empty()) {
    (send ? queues.sends : queues.receives).push_back(half);
    return;
  }
  const MessageHalf partnerHalf = partners.front();
  partners.pop_front();
  if (send) {
    communicationRecord(half, partnerHalf, tag);
  } else {
    communicationRecord(partnerHalf, half, tag);
  }
  // Time-ordered input opens and closes a channel's queues at every message: kept.
  if (!timeOrdered_ && queues.sends.empty() && queues.receives.empty()) messages_.erase(key);
}

// The location of the peer rank e.fields[0] in communicator e.fields[1], from the
// location's recent peers when it is one.
uint64_t ParaverWriter::peerLocationOf(LocationState& s, const Event& e) {
  const PeerKey key{e.fields[1], e.fields[0], e.location};
  if (const uint64_t* location = s.peers.find(key)) return *location;
  const uint64_t location = ranks_->locationOf(static_cast<Ref>(key.comm), key.rank, key.self);
  s.peers.remember(key, location);
  return location;
}

// The queues of `key`: time-ordered input keeps every channel's queues (their addresses
// stay), so a location's recent channels are found without the hash lookup.
ParaverWriter::MessageQueues& ParaverWriter::queuesOf(LocationState& s, const MessageKey& key) {
  if (!timeOrdered_) return messages_[key];
  if (MessageQueues* const* queues = s.channels.find(key)) return **queues;
  MessageQueues& queues = messages_[key];
  s.channels.remember(key, &queues);
  return queues;
}

// A message the reader gave an id (model/thread_messages.hpp): its halves meet by it.
void ParaverWriter::matchById(uint64_t id, const MessageHalf& half, bool send, uint64_t tag) {
  const auto [it, first] = messagesById_.try_emplace(id, IdentifiedHalf{half, send});
  if (first) return;
  const IdentifiedHalf waiting = it->second;
  messagesById_.erase(it);
  if (waiting.send == send) {
    ++losses_["messages whose id two sends or two receives carry (no communication record)"];
    return;
  }
  if (send) {
    communicationRecord(half, waiting.half, tag);
  } else {
    communicationRecord(waiting.half, half, tag);
  }
}

// Where a Paraver trace's communication record goes: where one half's event came
// (messageEvent), so that the reader gives both halves where it gave them. The reader
// gives a half before its thread's first record at or after its time that follows the
// record in the file, or, when its thread has passed that time (the record came late in
// the file), at that point (moved). So, for halves on two threads: where a moved half
// came (the later one if both were moved: the record came after both threads passed
// their times), else where the earlier half came (the later one's thread has not reached
// its time there); for halves on one thread, where the earlier came (the later is then
// given at its own place, the first record of its time after the earlier's).
const ParaverWriter::MessageHalf& ParaverWriter::paraverPlace(const MessageHalf& send,
                                                              const MessageHalf& receive) {
  const bool sendMoved = send.sortTime != send.physical;
  const bool receiveMoved = receive.sortTime != receive.physical;
  const bool receiveLater =
      std::pair(receive.sortTime, receive.order) > std::pair(send.sortTime, send.order);
  const MessageHalf& earlier = receiveLater ? send : receive;
  const MessageHalf& later = receiveLater ? receive : send;
  if (send.place == receive.place || (!sendMoved && !receiveMoved)) return earlier;
  if (sendMoved && receiveMoved) return later;
  return sendMoved ? send : receive;
}

void ParaverWriter::communicationRecord(const MessageHalf& send, const MessageHalf& receive,
                                        uint64_t tag) {
  TextBuffer& line = record_;
  startRecord(line, 3);
  appendPlace(line, send.cpu, *send.place);
  appendField(line, send.logical);
  appendField(line, send.physical);
  line += ':';
  appendPlace(line, receive.cpu, *receive.place);
  appendField(line, receive.logical);
  appendField(line, receive.physical);
  appendField(line, send.size);
  appendField(line, tag);
  const size_t stream = streamOf(send.place->slot - 1, kCommunicationRank);
  if (timeOrdered_) {  // where the later half's event would have given it
    sorter_->addOrdered(send.logical, kCommunicationRank, stream,
                        std::max(send.order, receive.order), line);
  } else if (keepsFileOrder()) {
    const MessageHalf& at = paraverPlace(send, receive);
    sorter_->addOrdered(at.sortTime, kEventRank, stream, at.order, line);
  } else {
    sorter_->add(send.logical, kCommunicationRank, stream, line);
  }
}

}  // namespace mtf::paraver
