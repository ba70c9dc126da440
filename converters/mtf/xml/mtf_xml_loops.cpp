#include "converters/mtf/xml/mtf_xml_loops.hpp"

#include <algorithm>

#include "converters/mtf/xml/xml_text.hpp"
#include "nlr/loop_blob.hpp"
#include "nlr/loop_print.hpp"
#include "util/error.hpp"

namespace mtf::xml {

namespace {

// The deepest loop nesting of `model` (bodies only refer to bodies with smaller ids).
unsigned loopDepth(const nlr::LoopModel& model) {
  std::vector<unsigned> depth(model.bodies.size(), 0);
  auto deepest = [&](const std::vector<nlr::ElementKey>& elements) {
    unsigned d = 0;
    for (nlr::ElementKey k : elements)
      if (nlr::isLoop(k) && nlr::bodyOf(k) < depth.size()) d = std::max(d, depth[nlr::bodyOf(k)]);
    return d;
  };
  for (size_t b = 0; b < model.bodies.size(); ++b) depth[b] = 1 + deepest(model.bodies[b]);
  return deepest(model.top);
}

class XmlLoopWriter : public nlr::LoopTreeWriter {
 public:
  XmlLoopWriter(XmlWriter& w, const nlr::EventNamer& namer, int64_t ownRank, LocationId location)
      : w_(w), namer_(namer), ownRank_(ownRank), location_(location) {}
  void beginLoop(uint64_t iterations, unsigned) override {
    w_.startElement("Loop");
    w_.attribute("iterations", iterations);
  }
  void endLoop(unsigned) override { w_.endElement(); }
  void event(uint32_t symbol, const nlr::Signature& signature, unsigned) override {
    w_.startElement("Event");
    w_.attribute("symbol", uint64_t{symbol});
    w_.attribute("kind", nameOf(signature.kind));
    const std::string label = namer_.describe(signature, ownRank_, location_);
    if (isPlainXmlText(label)) w_.attribute("label", label);
    w_.endElement();
  }

 private:
  XmlWriter& w_;
  const nlr::EventNamer& namer_;
  int64_t ownRank_;
  LocationId location_;
};

}  // namespace

void attachLoopAnnotations(const nlr::NlrSink& loops, compaction::CompactModel& model) {
  for (const nlr::LocationLoops& result : loops.results()) {
    compaction::LocationModel* location = model.findLocation(result.location);
    if (!location) continue;
    const std::string blob = nlr::encodeLoopModel(result.model);
    location->annotations.push_back(
        {std::string(kLoopAnnotation), std::vector<uint8_t>(blob.begin(), blob.end())});
  }
}

void writeLoopsView(XmlWriter& w, const compaction::LocationModel& location,
                    const Definitions& defs) {
  for (const compaction::Annotation& a : location.annotations) {
    if (a.name != kLoopAnnotation) continue;
    nlr::LoopModel model;
    try {
      model = nlr::decodeLoopModel(
          std::string_view(reinterpret_cast<const char*>(a.data.data()), a.data.size()),
          "annotation " + std::string(kLoopAnnotation));
    } catch (const InputError&) {
      return;  // not ours to judge: the annotation is kept as is, only the view is left out
    }
    if (loopDepth(model) > kMaxViewedLoopDepth) return;
    const nlr::EventNamer namer(defs, {});
    const int64_t ownRank = nlr::CommRanks(defs).worldRankOfLocation(location.location);
    XmlLoopWriter writer(w, namer, ownRank, location.location);
    w.startElement("Loops");
    nlr::writeLoopTree(model, writer);
    w.endElement();
    return;
  }
}

}  // namespace mtf::xml
