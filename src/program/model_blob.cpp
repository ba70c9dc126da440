#include "program/model_blob.hpp"

#include "util/blob_cursor.hpp"
#include "util/error.hpp"

namespace mtf::program {

namespace {

constexpr std::string_view kMagic = "MTFPRG\x01";
constexpr unsigned kMaxDepth = 4096;

void putVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}
void putString(std::string& out, const std::string& s) {
  putVarint(out, s.size());
  out += s;
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

void putSignature(std::string& out, const nlr::Signature& s) {
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

void putSystem(std::string& out, const System& s) {
  putVarint(out, s.size());
  for (const Construct& c : s) {
    putVarint(out, static_cast<uint64_t>(c.type));
    putVarint(out, c.procs.size());
    for (size_t i = 0; i < c.procs.size(); ++i)
      putVarint(out, i == 0 ? c.procs[0] : c.procs[i] - c.procs[i - 1] - 1);
    putString(out, c.note);
    if (c.isLoop()) {
      putVarint(out, c.count);
      putSystem(out, c.body);
    } else {
      putSignature(out, c.signature);
    }
  }
}

class Reader : public BlobCursor {
 public:
  Reader(std::string_view blob, const std::string& source)
      : BlobCursor(blob, source, "program model annotation") {}
  std::string string() {
    const uint64_t n = count();
    std::string s(blob_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  uint32_t u32(const char* what) {
    const uint64_t v = varint();
    if (v > 0xFFFFFFFFu) fail(std::string(what) + " out of range");
    return static_cast<uint32_t>(v);
  }
  void magic() {
    if (blob_.substr(0, kMagic.size() - 1) != kMagic.substr(0, kMagic.size() - 1))
      fail("not a program model (bad magic)");
    if (blob_.size() < kMagic.size() || blob_[kMagic.size() - 1] != kMagic.back())
      fail("unknown version");
    pos_ = kMagic.size();
  }
  void finish() const {
    if (pos_ != blob_.size()) fail("trailing bytes");
  }
  nlr::Signature signature();
  System system(unsigned depth, size_t processes);
};

nlr::Signature Reader::signature() {
  nlr::Signature s;
  const uint64_t kind = varint();
  if (kind >= kEventKindCount) fail("unknown event kind " + std::to_string(kind));
  s.kind = static_cast<EventKind>(kind);
  s.partnerRelative = (varint() & 1) != 0;
  s.region = ref();
  s.comm = ref();
  s.tag = u32("tag");
  s.partner = unzigzag(varint());
  s.size = varint();
  s.size2 = varint();
  s.ident = varint();
  return s;
}

System Reader::system(unsigned depth, size_t processes) {
  if (depth > kMaxDepth) fail("loops nested deeper than " + std::to_string(kMaxDepth));
  System s(count());
  for (Construct& c : s) {
    const uint64_t type = varint();
    if (type > 2) fail("unknown construct type " + std::to_string(type));
    c.type = static_cast<ConstructType>(type);
    c.procs.resize(count());
    uint64_t next = 0;
    for (uint32_t& p : c.procs) {
      next += varint();
      if (next >= processes) fail("process index out of range");
      p = static_cast<uint32_t>(next++);
    }
    if (c.procs.empty()) fail("a construct covers no process");
    c.note = string();
    if (c.isLoop()) {
      c.count = varint();
      if (c.count == 0) fail("a loop of 0 iterations");
      c.body = system(depth + 1, processes);
    } else {
      c.signature = signature();
    }
  }
  return s;
}

}  // namespace

std::string encodeProgramModel(const ProgramModel& model) {
  std::string out(kMagic);
  putVarint(out, model.eventsIn);
  putVarint(out, model.processes.size());
  for (const Process& p : model.processes) {
    putVarint(out, p.location);
    putVarint(out, zigzag(p.worldRank));
    putString(out, p.name);
  }
  putSystem(out, model.constructs);
  return out;
}

ProgramModel decodeProgramModel(std::string_view blob, const std::string& source) {
  Reader r(blob, source);
  r.magic();
  ProgramModel model;
  model.eventsIn = r.varint();
  model.processes.resize(r.count());
  for (Process& p : model.processes) {
    p.location = r.varint();
    p.worldRank = unzigzag(r.varint());
    p.name = r.string();
  }
  model.constructs = r.system(0, model.processes.size());
  r.finish();
  return model;
}

}  // namespace mtf::program
