#include "program/model_blob.hpp"

#include "nlr/loop_blob.hpp"
#include "util/blob_cursor.hpp"
#include "util/error.hpp"

namespace mtf::program {

namespace {

constexpr std::string_view kMagic = "MTFPRG\x02";
constexpr char kFirstVersion = '\x01';  // no rank forms
constexpr unsigned kMaxDepth = 4096;

void putForm(std::string& out, const RankForm& f) {
  putBlobVarint(out, static_cast<uint64_t>(f.kind));
  if (f.kind != RankForm::Kind::Torus) return;
  putBlobVarint(out, f.dimensions);
  for (size_t i = 0; i < f.dimensions; ++i) putBlobVarint(out, f.extent[i]);
}

void putSystem(std::string& out, const System& s) {
  putBlobVarint(out, s.size());
  for (const Construct& c : s) {
    putBlobVarint(out, static_cast<uint64_t>(c.type));
    putBlobVarint(out, c.procs.size());
    for (size_t i = 0; i < c.procs.size(); ++i)
      putBlobVarint(out, i == 0 ? c.procs[0] : c.procs[i] - c.procs[i - 1] - 1);
    putBlobString(out, c.note);
    if (c.isLoop()) {
      putBlobVarint(out, c.count);
      putSystem(out, c.body);
    } else {
      nlr::putSignature(out, c.signature);
      putForm(out, c.form);
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
  void magic() {
    if (blob_.substr(0, kMagic.size() - 1) != kMagic.substr(0, kMagic.size() - 1))
      fail("not a program model (bad magic)");
    if (blob_.size() < kMagic.size()) fail("unknown version");
    version_ = blob_[kMagic.size() - 1];
    if (version_ != kMagic.back() && version_ != kFirstVersion) fail("unknown version");
    pos_ = kMagic.size();
  }
  RankForm form();
  void finish() const {
    if (pos_ != blob_.size()) fail("trailing bytes");
  }
  System system(unsigned depth, size_t processes);

 private:
  char version_ = 0;
};

RankForm Reader::form() {
  RankForm f;
  if (version_ == kFirstVersion) return f;
  const uint64_t kind = varint();
  if (kind > 2) fail("unknown rank form " + std::to_string(kind));
  f.kind = static_cast<RankForm::Kind>(kind);
  if (f.kind != RankForm::Kind::Torus) return f;
  const uint64_t dimensions = varint();
  if (dimensions < 1 || dimensions > RankForm::kMaxDims) fail("a torus of 0 or over 3 dimensions");
  f.dimensions = static_cast<uint8_t>(dimensions);
  for (size_t i = 0; i < f.dimensions; ++i) {
    const uint64_t extent = varint();
    if (extent < 1 || extent > UINT32_MAX) fail("a torus extent out of range");
    f.extent[i] = static_cast<uint32_t>(extent);
  }
  return f;
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
      c.signature = nlr::readSignature(*this);
      c.form = form();
    }
  }
  return s;
}

}  // namespace

std::string encodeProgramModel(const ProgramModel& model) {
  std::string out(kMagic);
  putBlobVarint(out, model.eventsIn);
  putBlobVarint(out, model.processes.size());
  for (const Process& p : model.processes) {
    putBlobVarint(out, p.location);
    putBlobVarint(out, blobZigzag(p.worldRank));
    putBlobString(out, p.name);
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
    p.worldRank = blobUnzigzag(r.varint());
    p.name = r.string();
  }
  model.constructs = r.system(0, model.processes.size());
  r.finish();
  return model;
}

}  // namespace mtf::program
