// mtf validate FILE: checks an MTF file completely and says whether it is sound.
//
// COORDINATION (engineer "xml"): validation dispatches on the file kind in
// validateFile() below. The MTF binary branch is validateMtfBinary(); add the MTF XML
// branch as a validateMtfXml(path, out) function in this file and one case in
// validateFile() (kind FileKind::MtfXml, detected by detectFileKind()).
#include <iostream>

#include "cli/command.hpp"
#include "converters/mtf/binary/archive.hpp"
#include "converters/mtf/xml/mtf_xml_format.hpp"
#include "converters/mtf/xml/mtf_xml_model.hpp"
#include "util/error.hpp"

namespace mtf::cli {
namespace {

enum class FileKind { MtfBinary, MtfXml, Unknown };

FileKind detectFileKind(const std::string& path) {
  if (mtfbin::looksLikeMtfBinary(path)) return FileKind::MtfBinary;
  const std::string xmlSuffix = ".mtf.xml";
  if (path.size() >= xmlSuffix.size() &&
      path.compare(path.size() - xmlSuffix.size(), xmlSuffix.size(), xmlSuffix) == 0)
    return FileKind::MtfXml;
  if (xml::looksLikeMtfXml(path)) return FileKind::MtfXml;  // by content, any name
  return FileKind::Unknown;
}

// Every chunk's CRC32, the index layout, the model's consistency (node references in
// range, event counts), and a full decode of every location's columns against the DAG.
// Throws InputError naming the byte offset or location at the first problem.
void validateMtfBinary(const std::string& path, std::ostream& out) {
  mtfbin::ArchiveReader reader(path);
  reader.verifyEverything();
  const auto& m = *reader.model();
  uint64_t events = 0;
  for (const auto& l : m.locations) events += l.eventCount;
  out << path << ": valid MTF binary archive: " << m.locations.size() << " locations, " << events
      << " events, " << m.nodes.size() << " DAG nodes, " << reader.sizes().columnChunks
      << " column chunks, all checksums correct\n";
}

// MTF XML (engineer "xml"): Xerces-C validation against schema/mtf.xsd (refusal with
// line and column), then the model's consistency and a decode of every value column.
void validateMtfXml(const std::string& path, const std::string& schema, std::ostream& out) {
  out << xml::validateMtfXmlFile(path, schema) << "\n";
}

void validateFile(const std::string& path, const std::string& schema, std::ostream& out) {
  switch (detectFileKind(path)) {
    case FileKind::MtfBinary:
      validateMtfBinary(path, out);
      return;
    case FileKind::MtfXml:
      validateMtfXml(path, schema, out);
      return;
    case FileKind::Unknown:
      break;
  }
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError(path, "", "no such file");
  throw InputError(path, "byte 0", "not an MTF file (neither the .mtf magic nor .mtf.xml)");
}

void setupValidate(CLI::App& app, const GlobalOptions&) {
  auto path = std::make_shared<std::string>();
  auto schema = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "validate",
      "Check an MTF file completely (.mtf: every checksum, the index, the DAG's "
      "consistency and every value column); exit 2 with the place of the first problem");
  cmd->add_option("FILE", *path, "An .mtf archive or .mtf.xml file")->required();
  cmd->add_option("--schema", *schema,
                  "The XSD for .mtf.xml files (default: installed mtf.xsd, else the source tree's "
                  "schema/mtf.xsd)");
  cmd->callback([path, schema] { validateFile(*path, *schema, std::cout); });
}

MTF_COMMAND(70, "validate", setupValidate);

}  // namespace
}  // namespace mtf::cli
