#include "nlr/loop_blob.hpp"

#include <algorithm>

#include "util/blob_cursor.hpp"
#include "util/error.hpp"

namespace mtf::nlr {

namespace {

constexpr std::string_view kMagic = "MTFNLR\x01";

void putVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

uint64_t zigzag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
int64_t unzigzag(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}
uint64_t refPlusOne(Ref r) {
  return r == kUndefinedRef ? 0 : uint64_t{r} + 1;
}

void putElements(std::string& out, const std::vector<ElementKey>& elements) {
  putVarint(out, elements.size());
  for (ElementKey k : elements) {
    if (isLoop(k)) {
      putVarint(out, (uint64_t{bodyOf(k)} << 1) | 1);
      putVarint(out, countOf(k));
    } else {
      putVarint(out, uint64_t{symbolOf(k)} << 1);
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

Signature readSignature(BlobReader& in) {
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
  s.partner = unzigzag(in.varint());
  s.size = in.varint();
  s.size2 = in.varint();
  s.ident = in.varint();
  return s;
}

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

std::string encodeLoopModel(const LoopModel& model) {
  std::string out(kMagic);
  putVarint(out, model.eventsIn);
  putVarint(out, model.signatures.size());
  for (const Signature& s : model.signatures) {
    putVarint(out, static_cast<uint64_t>(s.kind));
    putVarint(out, s.partnerRelative ? 1 : 0);
    putVarint(out, refPlusOne(s.region));
    putVarint(out, refPlusOne(s.comm));
    putVarint(out, s.tag);
    putVarint(out, zigzag(s.partner));
    putVarint(out, s.size);
    putVarint(out, s.size2);
    putVarint(out, s.ident);
  }
  putVarint(out, model.bodies.size());
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
