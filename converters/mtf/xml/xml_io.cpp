#include "converters/mtf/xml/xml_io.hpp"

#include <libxml/xmlreader.h>
#include <libxml/xmlwriter.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "util/error.hpp"

namespace mtf::xml {

namespace {

const xmlChar* X(const char* s) {
  return reinterpret_cast<const xmlChar*>(s);
}
std::string_view view(const xmlChar* s) {
  return s ? std::string_view(reinterpret_cast<const char*>(s)) : std::string_view();
}

int writeToFile(void* context, const char* buffer, int length) {
  auto* file = static_cast<std::FILE*>(context);
  return std::fwrite(buffer, 1, static_cast<size_t>(length), file) == static_cast<size_t>(length)
             ? length
             : -1;
}
int closeNothing(void*) {
  return 0;
}  // XmlWriter closes the FILE itself, checking errors

}  // namespace

XmlWriter::XmlWriter(const std::filesystem::path& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) throw IoError(path.string(), std::string("cannot create: ") + std::strerror(errno));
  xmlOutputBufferPtr out = xmlOutputBufferCreateIO(writeToFile, closeNothing, file_, nullptr);
  if (out) writer_ = xmlNewTextWriter(out);  // the writer owns `out` from here on
  if (!writer_) {
    if (out) xmlOutputBufferClose(out);
    std::fclose(file_);
    throw IoError(path.string(), "cannot create the XML writer (out of memory)");
  }
  xmlTextWriterSetIndent(writer_, 1);
  xmlTextWriterSetIndentString(writer_, X(" "));
}

XmlWriter::~XmlWriter() {
  if (writer_) xmlFreeTextWriter(writer_);
  if (file_) std::fclose(file_);
}

void XmlWriter::check(int result, const char* what) {
  if (result < 0) throw IoError(path_.string(), std::string("cannot write XML (") + what + ")");
}

void XmlWriter::startDocument() {
  check(xmlTextWriterStartDocument(writer_, "1.0", "UTF-8", nullptr), "declaration");
}
void XmlWriter::startElement(const char* name) {
  check(xmlTextWriterStartElement(writer_, X(name)), name);
}
void XmlWriter::namespaceDeclaration(const char* uri) {
  check(xmlTextWriterWriteAttribute(writer_, X("xmlns"), X(uri)), "xmlns");
}
void XmlWriter::attribute(const char* name, std::string_view value) {
  const std::string copy(value);  // libxml2 wants a NUL-terminated string
  check(xmlTextWriterWriteAttribute(writer_, X(name), X(copy.c_str())), name);
}
void XmlWriter::attribute(const char* name, uint64_t value) {
  char digits[24];
  std::snprintf(digits, sizeof digits, "%llu", static_cast<unsigned long long>(value));
  check(xmlTextWriterWriteAttribute(writer_, X(name), X(digits)), name);
}
void XmlWriter::text(std::string_view text) {
  const std::string copy(text);
  check(xmlTextWriterWriteString(writer_, X(copy.c_str())), "text");
}
void XmlWriter::endElement() {
  check(xmlTextWriterEndElement(writer_), "end tag");
}

void XmlWriter::finish() {
  check(xmlTextWriterEndDocument(writer_), "end of document");
  check(xmlTextWriterFlush(writer_), "flush");
  xmlFreeTextWriter(writer_);
  writer_ = nullptr;
  const bool failed = std::ferror(file_) != 0;
  const int closed = std::fclose(file_);
  file_ = nullptr;
  if (failed || closed != 0) throw IoError(path_.string(), "write failed (disk full?)");
}

// ---------------------------------------------------------------------------------------

namespace {

void recordError(void* context, xmlErrorPtr error) {
  auto* message = static_cast<std::string*>(context);
  if (!error || error->level < XML_ERR_ERROR || !message->empty()) return;
  std::string text = error->message ? error->message : "malformed XML";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  *message = "line " + std::to_string(error->line) + "\t" + text;
}

}  // namespace

XmlReader::XmlReader(const std::filesystem::path& path, int maxDepth)
    : path_(path), maxDepth_(maxDepth) {
  const Prolog prolog = scanProlog(path);
  if (prolog.hasDoctype) throw InputError(path.string(), "", "a DOCTYPE is not allowed in MTF XML");
  // The root must start early, so that no DOCTYPE can hide behind a long prolog.
  if (!prolog.wellFormedStart)
    throw InputError(path.string(), "", "not XML: no root element in the first 64 KiB");
  // NONET: never fetch anything; no DTDLOAD/NOENT: entities are neither loaded nor
  // expanded (and a DOCTYPE is refused above). HUGE lifts the 10 MB limit on one text
  // node (a large annotation in base64); depth is bounded by maxDepth instead.
  reader_ =
      xmlReaderForFile(path.c_str(), nullptr, XML_PARSE_NONET | XML_PARSE_COMPACT | XML_PARSE_HUGE);
  if (!reader_) throw IoError(path.string(), "cannot open for reading");
  xmlTextReaderSetStructuredErrorHandler(reader_, recordError, &error_);
}

XmlReader::~XmlReader() {
  if (reader_) xmlFreeTextReader(reader_);
}

void XmlReader::fail(const std::string& what) const {
  throw InputError(path_.string(), place(), what);
}

std::string XmlReader::place() const {
  return "line " + std::to_string(line());
}

bool XmlReader::next() {
  for (;;) {
    const int status = xmlTextReaderRead(reader_);
    if (status < 0 || !error_.empty()) {
      const size_t tab = error_.find('\t');
      if (tab == std::string::npos) fail("malformed XML");
      throw InputError(path_.string(), error_.substr(0, tab), error_.substr(tab + 1));
    }
    if (status == 0) return false;
    switch (xmlTextReaderNodeType(reader_)) {
      case XML_READER_TYPE_ELEMENT:
        if (depth() > maxDepth_) fail("elements nested deeper than " + std::to_string(maxDepth_));
        type_ = NodeType::StartElement;
        return true;
      case XML_READER_TYPE_END_ELEMENT:
        type_ = NodeType::EndElement;
        return true;
      case XML_READER_TYPE_TEXT:
      case XML_READER_TYPE_CDATA:
        type_ = NodeType::Text;
        return true;
      case XML_READER_TYPE_WHITESPACE:
      case XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
        type_ = NodeType::Whitespace;
        return true;
      case XML_READER_TYPE_DOCUMENT_TYPE:
        fail("a DOCTYPE is not allowed in MTF XML");
      case XML_READER_TYPE_ENTITY_REFERENCE:
        fail("entity references are not allowed in MTF XML");
      default:
        continue;  // comments, processing instructions
    }
  }
}

std::string_view XmlReader::name() const {
  return view(xmlTextReaderConstLocalName(reader_));
}
std::string_view XmlReader::namespaceUri() const {
  return view(xmlTextReaderConstNamespaceUri(reader_));
}
bool XmlReader::isEmptyElement() const {
  return xmlTextReaderIsEmptyElement(reader_) == 1;
}
int XmlReader::depth() const {
  return xmlTextReaderDepth(reader_);
}
uint64_t XmlReader::line() const {
  const int line = xmlTextReaderGetParserLineNumber(reader_);
  return line > 0 ? static_cast<uint64_t>(line) : 0;
}
std::string_view XmlReader::value() const {
  return view(xmlTextReaderConstValue(reader_));
}

std::optional<std::string> XmlReader::attribute(const char* name) const {
  xmlChar* value = xmlTextReaderGetAttribute(reader_, X(name));
  if (!value) return std::nullopt;
  std::string result(view(value));
  xmlFree(value);
  return result;
}

std::string XmlReader::elementText() {
  std::string text;
  if (isEmptyElement()) return text;
  const int elementDepth = depth();
  while (next()) {
    if (type_ == NodeType::Text || type_ == NodeType::Whitespace)
      text += value();
    else if (type_ == NodeType::EndElement && depth() == elementDepth)
      return text;
    else
      fail("unexpected element <" + std::string(name()) + "> inside text");
  }
  fail("unexpected end of document");
}

// ---------------------------------------------------------------------------------------

namespace {

// Skips a construct starting at `at` that ends with `terminator`; npos if unterminated.
size_t skipPast(const std::string& text, size_t at, std::string_view terminator) {
  const size_t end = text.find(terminator, at);
  return end == std::string::npos ? end : end + terminator.size();
}

bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '-' ||
         c == '.' || static_cast<unsigned char>(c) >= 0x80;
}

}  // namespace

Prolog scanProlog(const std::filesystem::path& path, size_t limit) {
  Prolog prolog;
  std::ifstream in(path, std::ios::binary);
  if (!in) return prolog;
  std::string head(limit, '\0');
  in.read(head.data(), static_cast<std::streamsize>(limit));
  head.resize(static_cast<size_t>(in.gcount()));
  size_t at = head.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // UTF-8 byte order mark
  while (at != std::string::npos && at < head.size()) {
    at = head.find('<', at);
    if (at == std::string::npos) break;
    if (head.compare(at, 4, "<!--") == 0)
      at = skipPast(head, at, "-->");
    else if (head.compare(at, 2, "<?") == 0)
      at = skipPast(head, at, "?>");
    else if (head.compare(at, 9, "<!DOCTYPE") == 0) {
      prolog.hasDoctype = true;
      return prolog;
    } else {
      size_t end = at + 1;
      while (end < head.size() && isNameChar(head[end])) ++end;
      prolog.rootName = head.substr(at + 1, end - at - 1);
      const size_t close = head.find('>', end);
      prolog.wellFormedStart = !prolog.rootName.empty() && close != std::string::npos;
      if (prolog.wellFormedStart) prolog.rootAttributes = head.substr(end, close - end);
      return prolog;
    }
  }
  return prolog;
}

}  // namespace mtf::xml
