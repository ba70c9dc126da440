#include "api/stored_model.hpp"

#include "converters/mtf/binary/archive.hpp"
#include "converters/mtf/xml/mtf_xml_model.hpp"
#include "program/model_blob.hpp"
#include "registry/registry.hpp"

namespace mtf::api_impl {

std::shared_ptr<const compaction::CompactModel> storedCompactModel(const std::string& path) {
  const std::string format = detectInputFormat(path).name;
  if (format == "mtf") return mtfbin::ArchiveReader(path).model();
  if (format == "mtf-xml")
    return std::make_shared<compaction::CompactModel>(xml::readModelXml(path).model);
  return nullptr;
}

std::optional<program::ProgramModel> storedProgramModel(const compaction::CompactModel& model,
                                                        const std::string& path) {
  const compaction::Annotation* a =
      compaction::findAnnotation(model.annotations, program::kModelAnnotationName);
  if (!a) return std::nullopt;
  return program::decodeProgramModel(a->bytes(),
                                     path + ": annotation " + program::kModelAnnotationName);
}

}  // namespace mtf::api_impl
