// A stable binary serialization of one location's loop nest (LoopModel), for storing
// NLR results as an annotation of an MTF trace (binary or XML, base64 there).
//
// Layout, version 1 (all integers unsigned LEB128 varints unless said otherwise):
//   magic     "MTFNLR" then the version byte 0x01
//   eventsIn
//   nSignatures, then per signature:
//     kind (EventKind), flags (bit 0: partner is relative to the own world rank),
//     region+1 (0 = none), comm+1 (0 = none), tag, partner (zigzag varint), size, size2,
//     ident
//   nBodies, then per body: length, then `length` elements
//   nTop, then `nTop` elements
//   element: an event is varint(symbol << 1); a loop is varint(body << 1 | 1) followed by
//   varint(iterations), 1 <= iterations <= 2^32-1.
// A body only refers to bodies with smaller ids (no cycles); the reader checks this, the
// nesting depth (at most kMaxLoopDepth), every symbol and count, and that nothing
// follows the last element.
#pragma once

#include <string>
#include <string_view>

#include "nlr/loop_model.hpp"
#include "util/blob_cursor.hpp"

namespace mtf::nlr {

inline constexpr unsigned kMaxLoopDepth = 4096;

std::string encodeLoopModel(const LoopModel& model);
// One signature as both blobs store it (the loop nests here, the program model in
// src/program/model_blob.cpp).
void putSignature(std::string& out, const Signature& s);
Signature readSignature(BlobCursor& in);
// Throws InputError(source, "byte N", ...) on a malformed blob.
LoopModel decodeLoopModel(std::string_view blob, const std::string& source);

}  // namespace mtf::nlr
