// The XSD validation module (mtf-xsd-validator.so): Xerces-C validation of a document
// against a schema, streaming (SAX2, so a large file is never held in memory). DTDs and
// every external entity are refused; the only file Xerces opens besides the document is
// the schema. Loaded by xml_validate.cpp with dlopen; its only interface is the C one of
// xsd_validator_abi.h, and nothing is thrown across it.
#include <memory>
#include <stdexcept>
#include <string>
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

#include "converters/mtf/xml/xsd_validator_abi.h"

using namespace xercesc;

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

// RAII for the XMLCh copy of a path.
struct WideString {
  explicit WideString(const char* text) : data(XMLString::transcode(text)) {}
  ~WideString() { XMLString::release(&data); }
  WideString(const WideString&) = delete;
  WideString& operator=(const WideString&) = delete;
  XMLCh* data;
};

// What the module reports: the outcome, the place and the message.
struct Failure {
  MtfXsdOutcome outcome;
  std::string place;
  std::string message;
};

std::string place(XMLFileLoc line, XMLFileLoc column) {
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// Turns every warning-free problem into an exception carrying line and column.
class StrictHandler : public DefaultHandler {
 public:
  void error(const SAXParseException& e) override { throw e; }
  void fatalError(const SAXParseException& e) override { throw e; }
  void warning(const SAXParseException&) override {}
  void setDocumentLocator(const Locator* const locator) override { locator_ = locator; }
  void startDTD(const XMLCh* const, const XMLCh* const, const XMLCh* const) override {
    throw Failure{MTF_XSD_DOCUMENT_INVALID,
                  locator_ ? place(locator_->getLineNumber(), locator_->getColumnNumber()) : "",
                  "a DOCTYPE is not allowed"};
  }
  // Any entity Xerces would fetch (external DTD subset, external entity) is refused.
  InputSource* resolveEntity(const XMLCh* const, const XMLCh* const systemId) override {
    throw Failure{MTF_XSD_DOCUMENT_INVALID, "", "external entity refused: " + narrow(systemId)};
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

void loadSchema(SAX2XMLReader& parser, const char* schema) {
  const WideString schemaPath(schema);
  try {
    LocalFileInputSource source(schemaPath.data);
    if (!parser.loadGrammar(source, Grammar::SchemaGrammarType, true))
      throw Failure{MTF_XSD_SCHEMA_UNUSABLE, "", "not an XML schema"};
  } catch (const SAXParseException& e) {
    throw Failure{MTF_XSD_SCHEMA_UNUSABLE, place(e.getLineNumber(), e.getColumnNumber()),
                  "invalid schema: " + narrow(e.getMessage())};
  } catch (const XMLException& e) {
    throw Failure{MTF_XSD_SCHEMA_UNUSABLE, "", "cannot load the schema: " + narrow(e.getMessage())};
  } catch (const Failure& f) {
    throw Failure{MTF_XSD_SCHEMA_UNUSABLE, f.place, "invalid schema: " + f.message};
  }
}

void parseDocument(SAX2XMLReader& parser, const char* document) {
  const WideString documentPath(document);
  try {
    LocalFileInputSource source(documentPath.data);
    parser.parse(source);
  } catch (const SAXParseException& e) {
    throw Failure{MTF_XSD_DOCUMENT_INVALID, place(e.getLineNumber(), e.getColumnNumber()),
                  narrow(e.getMessage())};
  } catch (const XMLException& e) {
    throw Failure{MTF_XSD_DOCUMENT_INVALID, "", narrow(e.getMessage())};
  }
}

void validate(const char* document, const char* schema) {
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
  parseDocument(*parser, document);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int mtf_xsd_validator_abi_version(void) {
  return MTF_XSD_VALIDATOR_ABI_VERSION;
}

extern "C" __attribute__((visibility("default"))) int mtf_xsd_validate(const char* document,
                                                                       const char* schema,
                                                                       MtfXsdReport report,
                                                                       void* context) {
  try {
    validate(document, schema);
    return MTF_XSD_VALID;
  } catch (const Failure& f) {
    report(context, f.place.c_str(), f.message.c_str());
    return f.outcome;
  } catch (const std::exception& e) {
    report(context, "", e.what());
  } catch (...) {
    report(context, "", "unknown failure of the XSD validator");
  }
  return MTF_XSD_DOCUMENT_INVALID;
}
