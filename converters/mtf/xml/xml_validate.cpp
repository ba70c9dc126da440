#include "converters/mtf/xml/xml_validate.hpp"

#include <memory>
#include <string>
#include <system_error>
#include <vector>
#include <xercesc/framework/LocalFileInputSource.hpp>
#include <xercesc/framework/XMLGrammarPool.hpp>
#include <xercesc/sax/Locator.hpp>
#include <xercesc/sax/SAXParseException.hpp>
#include <xercesc/sax2/DefaultHandler.hpp>
#include <xercesc/sax2/SAX2XMLReader.hpp>
#include <xercesc/sax2/XMLReaderFactory.hpp>
#include <xercesc/util/PlatformUtils.hpp>
#include <xercesc/util/SecurityManager.hpp>
#include <xercesc/util/XMLString.hpp>
#include <xercesc/util/XMLUni.hpp>
#include <xercesc/validators/common/Grammar.hpp>

#include "util/error.hpp"

#ifndef MTF_SCHEMA_SOURCE_DIR
#define MTF_SCHEMA_SOURCE_DIR ""
#endif

namespace fs = std::filesystem;
using namespace xercesc;

namespace mtf::xml {

namespace {

// XMLPlatformUtils::Initialize/Terminate are reference counted, so nesting is fine.
struct XercesPlatform {
  XercesPlatform() { XMLPlatformUtils::Initialize(); }
  ~XercesPlatform() { XMLPlatformUtils::Terminate(); }
  XercesPlatform(const XercesPlatform&) = delete;
  XercesPlatform& operator=(const XercesPlatform&) = delete;
};

std::string narrow(const XMLCh* text) {
  if (!text) return {};
  char* bytes = XMLString::transcode(text);
  std::string result(bytes ? bytes : "");
  XMLString::release(&bytes);
  return result;
}

// RAII for the XMLCh copy of a path or name.
struct WideString {
  explicit WideString(const std::string& text) : data(XMLString::transcode(text.c_str())) {}
  ~WideString() { XMLString::release(&data); }
  WideString(const WideString&) = delete;
  WideString& operator=(const WideString&) = delete;
  XMLCh* data;
};

struct DoctypeRefused {
  XMLFileLoc line, column;
};

// Turns every warning-free problem into an exception carrying line and column.
class StrictHandler : public DefaultHandler {
 public:
  void error(const SAXParseException& e) override { throw e; }
  void fatalError(const SAXParseException& e) override { throw e; }
  void warning(const SAXParseException&) override {}
  void setDocumentLocator(const Locator* const locator) override { locator_ = locator; }
  void startDTD(const XMLCh* const, const XMLCh* const, const XMLCh* const) override {
    throw DoctypeRefused{locator_ ? locator_->getLineNumber() : 0,
                         locator_ ? locator_->getColumnNumber() : 0};
  }
  // Any entity Xerces would fetch (external DTD subset, external entity) is refused.
  InputSource* resolveEntity(const XMLCh* const, const XMLCh* const systemId) override {
    throw std::runtime_error("external entity refused: " + narrow(systemId));
  }

 private:
  const Locator* locator_ = nullptr;
};

void configure(SAX2XMLReader& parser, SecurityManager& security) {
  parser.setFeature(XMLUni::fgSAX2CoreNameSpaces, true);
  parser.setFeature(XMLUni::fgSAX2CoreValidation, true);
  parser.setFeature(XMLUni::fgXercesDynamic, false);
  parser.setFeature(XMLUni::fgXercesSchema, true);
  parser.setFeature(XMLUni::fgXercesSchemaFullChecking, true);
  parser.setFeature(XMLUni::fgXercesIdentityConstraintChecking, true);
  parser.setFeature(XMLUni::fgXercesLoadSchema, false);  // ignore schemaLocation hints
  parser.setFeature(XMLUni::fgXercesUseCachedGrammarInParse, true);
  parser.setFeature(XMLUni::fgXercesLoadExternalDTD, false);
  parser.setFeature(XMLUni::fgXercesDisableDefaultEntityResolution, true);
  security.setEntityExpansionLimit(100);
  parser.setProperty(XMLUni::fgXercesSecurityManager, &security);
}

std::string place(XMLFileLoc line, XMLFileLoc column) {
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

void loadSchema(SAX2XMLReader& parser, const fs::path& schema) {
  const WideString schemaPath(schema.string());
  try {
    LocalFileInputSource source(schemaPath.data);
    if (!parser.loadGrammar(source, Grammar::SchemaGrammarType, true))
      throw IoError(schema.string(), "not an XML schema");
  } catch (const SAXParseException& e) {
    throw IoError(schema.string(), place(e.getLineNumber(), e.getColumnNumber()) +
                                       ": invalid schema: " + narrow(e.getMessage()));
  } catch (const XMLException& e) {
    throw IoError(schema.string(), "cannot load the schema: " + narrow(e.getMessage()));
  }
}

}  // namespace

fs::path locateSchema(const fs::path& explicitPath) {
  std::error_code ec;
  if (!explicitPath.empty()) {
    if (!fs::is_regular_file(explicitPath, ec))
      throw IoError(explicitPath.string(), "schema not found");
    return explicitPath;
  }
  const fs::path binary = fs::read_symlink("/proc/self/exe", ec).parent_path();
  std::vector<fs::path> candidates;
  if (!ec) {
    candidates.push_back(binary / ".." / "share" / "mtf" / "mtf.xsd");
    candidates.push_back(binary / "schema" / "mtf.xsd");
  }
  if (*MTF_SCHEMA_SOURCE_DIR) candidates.push_back(fs::path(MTF_SCHEMA_SOURCE_DIR) / "mtf.xsd");
  for (const fs::path& candidate : candidates)
    if (fs::is_regular_file(candidate, ec)) return candidate.lexically_normal();
  throw IoError("mtf.xsd",
                "schema not found beside the program nor in the source tree (use --schema)");
}

void validateAgainstSchema(const fs::path& document, const fs::path& schema) {
  std::error_code ec;
  if (!fs::is_regular_file(document, ec)) throw IoError(document.string(), "no such file");
  XercesPlatform platform;
  SecurityManager security;
  StrictHandler handler;
  std::unique_ptr<SAX2XMLReader> parser(XMLReaderFactory::createXMLReader());
  configure(*parser, security);
  parser->setErrorHandler(&handler);
  parser->setEntityResolver(&handler);
  loadSchema(*parser, schema);
  parser->setContentHandler(&handler);
  parser->setLexicalHandler(&handler);
  const WideString documentPath(document.string());
  try {
    LocalFileInputSource source(documentPath.data);
    parser->parse(source);
  } catch (const SAXParseException& e) {
    throw InputError(document.string(), place(e.getLineNumber(), e.getColumnNumber()),
                     narrow(e.getMessage()));
  } catch (const DoctypeRefused& d) {
    throw InputError(document.string(), place(d.line, d.column), "a DOCTYPE is not allowed");
  } catch (const XMLException& e) {
    throw InputError(document.string(), "", narrow(e.getMessage()));
  } catch (const std::runtime_error& e) {
    throw InputError(document.string(), "", e.what());
  }
}

}  // namespace mtf::xml
