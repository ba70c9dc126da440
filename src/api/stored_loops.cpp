#include "api/stored_loops.hpp"

#include <memory>

#include "converters/mtf/binary/archive.hpp"
#include "converters/mtf/xml/mtf_xml_model.hpp"
#include "nlr/loop_annotation.hpp"
#include "registry/registry.hpp"

namespace mtf::api_impl {
namespace {

std::shared_ptr<const compaction::CompactModel> mtfModel(const std::string& path) {
  const std::string format = detectInputFormat(path).name;
  if (format == "mtf") return mtfbin::ArchiveReader(path).model();
  if (format == "mtf-xml")
    return std::make_shared<compaction::CompactModel>(xml::readModelXml(path).model);
  return nullptr;
}

}  // namespace

std::optional<StoredLoops> storedLoops(const std::string& path, std::optional<uint64_t> only) {
  const auto model = mtfModel(path);
  if (!model) return std::nullopt;
  StoredLoops stored{model->definitions, {}};
  const nlr::SignatureContext context(stored.defs);
  for (const compaction::LocationModel& location : model->locations) {
    if (only && location.location != *only) continue;
    for (const compaction::Annotation& a : location.annotations) {
      if (a.name != nlr::kLoopAnnotationName) continue;
      nlr::LocationLoops l;
      l.location = location.location;
      if (const DefRecord* def = stored.defs.find(DefKind::Location, location.location))
        l.name = std::string(stored.defs.string(def->field("name")));
      l.worldRank = context.worldRankOfLocation(location.location);
      l.model = nlr::decodeLoopModel(
          std::string_view(reinterpret_cast<const char*>(a.data.data()), a.data.size()),
          path + ": location " + std::to_string(location.location) + " annotation nlr.loops");
      l.eventsRead = l.model.eventsIn;
      stored.loops.push_back(std::move(l));
    }
  }
  if (stored.loops.empty()) return std::nullopt;
  return stored;
}

}  // namespace mtf::api_impl
