#include "nlr/loop_blob.hpp"

#include <algorithm>

#include "util/blob_cursor.hpp"
#include "util/error.hpp"

namespace mtf::nlr {

namespace {

constexpr std::string_view kMagic = "MTFNLR\x01";

void putElements(std::string& out, const std::vector<ElementKey>& elements) {
  putBlobVarint(out, elements.size());
  for (ElementKey k : elements) {
    if (isLoop(k)) {
      putBlobVarint(out, (uint64_t{bodyOf(k)} << 1) | 1);
      putBlobVarint(out, countOf(k));
    } else {
      putBlobVarint(out, uint64_t{symbolOf(k)} << 1);
    }
  }
}

class BlobReader : public BlobCursor {
 public:
  BlobReader(std::string_view blob, const std::string& source)
      : BlobCursor(blob, source, "loop annotation") {}
  void expectMagic() {
    if (blob_.substr(0, kMagic.size()) != kMagic) fail("not an NLR loop blob (bad magic)");
    pos_ = kMagic.size();
  }
};

// Reads a sequence whose loops may refer to bodies [0, bodyLimit); returns its depth.
unsigned readElements(BlobReader& in, const LoopModel& m, size_t bodyLimit,
                      const std::vector<unsigned>& depth, std::vector<ElementKey>& out) {
  const size_t n = in.count();
  out.reserve(n);
  unsigned deepest = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t v = in.varint();
    const uint64_t id = v >> 1;
    if (!(v & 1)) {
      if (id >= m.signatures.size()) in.fail("unknown symbol " + std::to_string(id));
      out.push_back(eventKey(static_cast<uint32_t>(id)));
      continue;
    }
    if (id >= bodyLimit) in.fail("loop refers to body " + std::to_string(id) + " not before it");
    const uint64_t count = in.varint();
    if (count == 0 || count > kMaxIterations) in.fail("bad iteration count");
    deepest = std::max(deepest, depth[id] + 1);
    out.push_back(loopKey(static_cast<uint32_t>(id), count));
  }
  return deepest;
}

}  // namespace

void putSignature(std::string& out, const Signature& s) {
  putBlobVarint(out, static_cast<uint64_t>(s.kind));
  putBlobVarint(out, s.partnerRelative ? 1 : 0);
  putBlobVarint(out, blobRef(s.region));
  putBlobVarint(out, blobRef(s.comm));
  putBlobVarint(out, s.tag);
  putBlobVarint(out, blobZigzag(s.partner));
  putBlobVarint(out, s.size);
  putBlobVarint(out, s.size2);
  putBlobVarint(out, s.ident);
}

Signature readSignature(BlobCursor& in) {
  Signature s;
  const uint64_t kind = in.varint();
  if (kind >= kEventKindCount) in.fail("unknown event kind " + std::to_string(kind));
  s.kind = static_cast<EventKind>(kind);
  const uint64_t flags = in.varint();
  if (flags > 1) in.fail("unknown signature flags");
  s.partnerRelative = flags & 1;
  s.region = in.ref();
  s.comm = in.ref();
  const uint64_t tag = in.varint();
  if (tag > 0xFFFFFFFFu) in.fail("tag out of range");
  s.tag = static_cast<uint32_t>(tag);
  s.partner = blobUnzigzag(in.varint());
  s.size = in.varint();
  s.size2 = in.varint();
  s.ident = in.varint();
  return s;
}

std::string encodeLoopModel(const LoopModel& model) {
  std::string out(kMagic);
  putBlobVarint(out, model.eventsIn);
  putBlobVarint(out, model.signatures.size());
  for (const Signature& s : model.signatures) putSignature(out, s);
  putBlobVarint(out, model.bodies.size());
  for (const std::vector<ElementKey>& body : model.bodies) putElements(out, body);
  putElements(out, model.top);
  return out;
}

LoopModel decodeLoopModel(std::string_view blob, const std::string& source) {
  BlobReader in(blob, source);
  in.expectMagic();
  LoopModel m;
  m.eventsIn = in.varint();
  m.signatures.resize(in.count());
  for (Signature& s : m.signatures) s = readSignature(in);
  const size_t nBodies = in.count();
  if (nBodies > kMaxBodyId + 1) in.fail("too many bodies");
  std::vector<unsigned> depth(nBodies, 0);
  m.bodies.resize(nBodies);
  for (size_t id = 0; id < nBodies; ++id) {
    depth[id] = readElements(in, m, id, depth, m.bodies[id]);
    if (m.bodies[id].empty()) in.fail("empty loop body");
    if (depth[id] > kMaxLoopDepth) in.fail("loops nested too deep");
  }
  readElements(in, m, nBodies, depth, m.top);
  if (!in.atEnd()) in.fail("unexpected bytes after the model");
  return m;
}

}  // namespace mtf::nlr
