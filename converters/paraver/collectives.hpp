// MPI collectives in Paraver (the MpiCollectiveBegin/End events of the model).
//
// Design. Extrae writes a collective as its MPI call event (50000002) with, on the same
// line, the "global OP" pairs 50100001 send size, 50100002 receive size, 50100003 root
// (rooted operations), 50100004 communicator id (an id of a "c:" line of the header). The
// writer does the same, streaming, at the time of the model's events (the data is only
// known at MpiCollectiveEnd; holding the call's enter line back until then would also move
// Begin and End to the enter time, which the reader could not undo):
//   MpiCollectiveBegin -> 59000001:1                       (mtf's own type: begin)
//   MpiCollectiveEnd   -> 59000002:op+1 50100001:sent 50100002:received
//                         [50100003:root] 50100004:comm id
// 59000002 (mtf's own type, value = OTF2 collective op + 1, labelled in the .pcf) keeps
// the op exactly (Extrae has no pair for it). The root pair is written when the op has a
// root or the root is defined. Each communicator a collective uses gets a "c:" line
// (a COMM_SELF-like communicator one line per task that uses it).
//
// The reader rebuilds the events only from lines in exactly that form, and only in traces
// whose .pcf labels 59000002 as mtf does (the mark of mtf's writer): a real Extrae trace's
// global OP pairs stay Generic events, so Paraver -> mtf -> Paraver stays byte-identical
// for Extrae traces, and for mtf's own traces (the writer writes back the same pairs).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "converters/paraver/pcf.hpp"

namespace mtf::paraver {

inline constexpr uint64_t kGlobalOpSendSizeType = 50100001;
inline constexpr uint64_t kGlobalOpRecvSizeType = 50100002;
inline constexpr uint64_t kGlobalOpRootType = 50100003;
inline constexpr uint64_t kGlobalOpCommType = 50100004;
inline constexpr uint64_t kCollectiveBeginType = 59000001;  // mtf's own type
inline constexpr uint64_t kCollectiveOpType = 59000002;     // mtf's own type
inline constexpr uint64_t kNoRoot = 0xFFFFFFFF;             // OTF2_UNDEFINED_UINT32

using TypeValue = std::pair<uint64_t, int64_t>;

struct CollectiveEnd {
  uint8_t op = 0;
  uint64_t commId = 0;  // Paraver communicator id
  uint64_t root = kNoRoot;
  uint64_t sent = 0, received = 0;
};

// True for the OTF2 collective ops that have a root (bcast, gather(v), scatter(v), reduce).
bool isRootedOp(uint8_t op);

// The pairs of an MpiCollectiveEnd, in the order the reader expects; returns their count.
size_t collectiveEndPairs(const CollectiveEnd& end, TypeValue (&pairs)[5]);

// If `pairs[0..count)` starts with an end written by collectiveEndPairs, fills `end` and
// returns the number of pairs it takes; 0 otherwise.
size_t matchCollectiveEnd(const TypeValue* pairs, size_t count, CollectiveEnd& end);

// The .pcf EVENT_TYPE blocks of the pairs above (labels as Extrae's for 5010000x).
std::string collectivePcfText();
// True if the .pcf (parsed or as text) carries the blocks of collectivePcfText().
bool marksMtfCollectives(const Pcf& pcf);
bool marksMtfCollectives(const std::string& pcfText);

}  // namespace mtf::paraver
