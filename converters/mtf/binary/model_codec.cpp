#include "converters/mtf/binary/model_codec.hpp"

#include "converters/mtf/binary/definitions_codec.hpp"
#include "values/byte_coding.hpp"

namespace mtf::mtfbin {

using compaction::ByteReader;
using compaction::CodingError;
using compaction::putString;
using compaction::putVarint;

const char* chunkKindName(ChunkKind kind) {
  switch (kind) {
    case ChunkKind::Columns:
      return "columns";
    case ChunkKind::Definitions:
      return "definitions";
    case ChunkKind::Signatures:
      return "signatures";
    case ChunkKind::Nodes:
      return "nodes";
    case ChunkKind::Locations:
      return "locations";
    case ChunkKind::Annotations:
      return "annotations";
    case ChunkKind::Index:
      return "index";
    case ChunkKind::Structure:
      return "structure";
  }
  return "unknown";
}

namespace {

void putBlob(std::vector<uint8_t>& out, const std::vector<uint8_t>& blob) {
  putVarint(out, blob.size());
  out.insert(out.end(), blob.begin(), blob.end());
}

std::vector<uint8_t> getBlob(ByteReader& r) {
  const uint64_t n = r.count(r.remaining(), "blob size");
  const uint8_t* p = r.take(n);
  return std::vector<uint8_t>(p, p + n);
}

// kNoSig / kNoNode are stored as 0, everything else shifted by one.
inline uint64_t optionalId(uint32_t id) {
  return id == 0xFFFFFFFFu ? 0 : uint64_t{id} + 1;
}
inline uint32_t readOptionalId(ByteReader& r) {
  const uint64_t v = r.count(0xFFFFFFFFu, "id");
  return v == 0 ? 0xFFFFFFFFu : static_cast<uint32_t>(v - 1);
}

void expectEnd(const ByteReader& r) {
  if (!r.atEnd()) throw CodingError{r.position(), "unexpected bytes after the last record"};
}

}  // namespace

std::vector<uint8_t> encodeDefinitions(const Definitions& defs) {
  std::vector<uint8_t> out;
  putDefinitionsHead(out, defs);
  putVarint(out, defs.records().size());
  for (const DefRecord& rec : defs.records()) {
    putVarint(out, static_cast<uint64_t>(rec.kind));
    putVarint(out, rec.fields.size());
    for (uint64_t f : rec.fields) putVarint(out, f);
    putString(out, rec.text);
  }
  return out;
}

void decodeDefinitions(const std::vector<uint8_t>& raw, Definitions& defs) {
  ByteReader r(raw);
  readDefinitionsHead(r, defs);
  for (uint64_t n = r.count(r.remaining(), "definition count"); n > 0; --n) {
    const size_t at = r.position();
    DefRecord rec;
    const uint64_t kind = r.varint();
    if (kind >= kDefKindCount)
      throw CodingError{at, "unknown definition kind " + std::to_string(kind)};
    rec.kind = static_cast<DefKind>(kind);
    rec.fields.resize(r.count(r.remaining(), "definition field count"));
    for (uint64_t& f : rec.fields) f = r.varint();
    rec.text = readString(r);
    if (!fieldCountFits(schemaOf(rec.kind), rec.fields))
      throw CodingError{at, std::string(nameOf(rec.kind)) + " definition with a wrong field count"};
    defs.add(std::move(rec));
  }
  expectEnd(r);
}

std::vector<uint8_t> encodeSignatures(const compaction::CompactModel& m) {
  std::vector<uint8_t> out;
  putVarint(out, m.signatures.size());
  for (const compaction::Signature& s : m.signatures) {
    putVarint(out, static_cast<uint64_t>(s.kind));
    putVarint(out, s.fields.size());
    for (uint64_t f : s.fields) putVarint(out, f);
    putVarint(out, s.attributes.size());
    for (const compaction::SignatureAttribute& a : s.attributes) {
      putVarint(out, a.attribute);
      out.push_back(a.type);
    }
  }
  return out;
}

void decodeSignatures(const std::vector<uint8_t>& raw, compaction::CompactModel& m) {
  ByteReader r(raw);
  m.signatures.resize(r.count(r.remaining(), "signature count"));
  for (compaction::Signature& s : m.signatures) {
    const size_t at = r.position();
    const uint64_t kind = r.varint();
    if (kind >= kEventKindCount)
      throw CodingError{at, "unknown event kind " + std::to_string(kind)};
    s.kind = static_cast<EventKind>(kind);
    s.fields.resize(r.count(r.remaining(), "signature field count"));
    for (uint64_t& f : s.fields) f = r.varint();
    s.attributes.resize(r.count(r.remaining(), "signature attribute count"));
    for (compaction::SignatureAttribute& a : s.attributes) {
      a.attribute = static_cast<Ref>(r.count(0xFFFFFFFFu, "attribute ref"));
      a.type = r.byte();
    }
  }
  expectEnd(r);
}

std::vector<uint8_t> encodeNodes(const compaction::CompactModel& m) {
  std::vector<uint8_t> out;
  putVarint(out, m.nodes.size());
  for (const compaction::Node& n : m.nodes) {
    out.push_back(static_cast<uint8_t>(n.kind));
    putVarint(out, optionalId(n.sig));
    putVarint(out, optionalId(n.leaveSig));
    putVarint(out, n.eventCount);
    putVarint(out, n.edges.size());
    for (const compaction::Edge& e : n.edges) {
      putVarint(out, e.child);
      putVarint(out, e.repetitions);
      out.push_back(static_cast<uint8_t>(e.type));
    }
  }
  return out;
}

void decodeNodes(const std::vector<uint8_t>& raw, compaction::CompactModel& m) {
  ByteReader r(raw);
  m.nodes.resize(r.count(r.remaining(), "node count"));
  for (compaction::Node& n : m.nodes) {
    n.kind = static_cast<compaction::NodeKind>(r.byte());
    n.sig = readOptionalId(r);
    n.leaveSig = readOptionalId(r);
    n.eventCount = r.varint();
    n.edges.resize(r.count(r.remaining() / 3, "edge count"));
    for (compaction::Edge& e : n.edges) {
      e.child = static_cast<compaction::NodeId>(r.count(0xFFFFFFFEu, "child id"));
      e.repetitions = r.varint();
      const size_t at = r.position();
      const uint8_t type = r.byte();
      if (type > 2) throw CodingError{at, "unknown edge type"};
      e.type = static_cast<compaction::EdgeType>(type);
    }
  }
  expectEnd(r);
}

std::vector<uint8_t> encodeLocations(const compaction::CompactModel& m) {
  std::vector<uint8_t> out;
  putVarint(out, m.locations.size());
  for (const compaction::LocationModel& l : m.locations) {
    putVarint(out, l.location);
    putVarint(out, optionalId(l.root));
    putVarint(out, l.eventCount);
    std::vector<uint8_t> annotations = encodeAnnotations(l.annotations);
    out.insert(out.end(), annotations.begin(), annotations.end());
  }
  return out;
}

namespace {
void readAnnotations(ByteReader& r, std::vector<compaction::Annotation>& a) {
  a.resize(r.count(r.remaining(), "annotation count"));
  for (compaction::Annotation& x : a) {
    x.name = readString(r);
    x.data = getBlob(r);
  }
}
}  // namespace

void decodeLocations(const std::vector<uint8_t>& raw, compaction::CompactModel& m) {
  ByteReader r(raw);
  m.locations.resize(r.count(r.remaining(), "location count"));
  for (compaction::LocationModel& l : m.locations) {
    l.location = r.varint();
    l.root = readOptionalId(r);
    l.eventCount = r.varint();
    readAnnotations(r, l.annotations);
  }
  expectEnd(r);
}

std::vector<uint8_t> encodeAnnotations(const std::vector<compaction::Annotation>& a) {
  std::vector<uint8_t> out;
  putVarint(out, a.size());
  for (const compaction::Annotation& x : a) {
    putString(out, x.name);
    putBlob(out, x.data);
  }
  return out;
}

void decodeAnnotations(const std::vector<uint8_t>& raw, std::vector<compaction::Annotation>& a) {
  ByteReader r(raw);
  readAnnotations(r, a);
  expectEnd(r);
}

std::vector<uint8_t> encodeIndex(const std::vector<IndexEntry>& index) {
  std::vector<uint8_t> out;
  putVarint(out, index.size());
  for (const IndexEntry& e : index) {
    out.push_back(static_cast<uint8_t>(e.kind));
    putVarint(out, e.offset);
    putVarint(out, e.storedSize);
    if (e.kind != ChunkKind::Columns) continue;
    putVarint(out, e.locationIndex);
    for (uint64_t v : {e.meta.firstEvent, e.meta.eventCount, e.meta.firstTime, e.meta.lastTime,
                       e.meta.minTime, e.meta.maxTime})
      putVarint(out, v);
  }
  return out;
}

std::vector<IndexEntry> decodeIndex(const std::vector<uint8_t>& raw) {
  ByteReader r(raw);
  std::vector<IndexEntry> index(r.count(r.remaining() / 3, "index entry count"));
  for (IndexEntry& e : index) {
    const size_t at = r.position();
    const uint8_t kind = r.byte();
    if (kind == 0 || kind > kLastChunkKind) throw CodingError{at, "unknown chunk kind"};
    e.kind = static_cast<ChunkKind>(kind);
    e.offset = r.varint();
    e.storedSize = r.varint();
    if (e.kind != ChunkKind::Columns) continue;
    e.locationIndex = r.varint();
    e.meta.firstEvent = r.varint();
    e.meta.eventCount = r.varint();
    e.meta.firstTime = r.varint();
    e.meta.lastTime = r.varint();
    e.meta.minTime = r.varint();
    e.meta.maxTime = r.varint();
  }
  expectEnd(r);
  return index;
}

}  // namespace mtf::mtfbin
