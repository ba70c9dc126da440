// RAII wrappers around libxml2's streaming writer (xmlTextWriter) and reader
// (xmlTextReader), plus a prolog scanner used by the format sniffer and the reader to
// refuse DOCTYPEs before libxml2 ever sees them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

// libxml2's handle types, declared here so that users need not include libxml2.
struct _xmlTextWriter;
struct _xmlTextReader;

namespace mtf::xml {

// Streams XML into a file. Every failure throws mtf::IoError naming the path.
class XmlWriter {
 public:
  explicit XmlWriter(const std::filesystem::path& path);
  ~XmlWriter();
  XmlWriter(const XmlWriter&) = delete;
  XmlWriter& operator=(const XmlWriter&) = delete;

  void startDocument();
  void startElement(const char* name);
  void namespaceDeclaration(const char* uri);  // xmlns="uri" on the open element
  void attribute(const char* name, std::string_view value);
  void attribute(const char* name, uint64_t value);
  void text(std::string_view text);
  void endElement();
  // Ends the document, flushes and closes the file; throws if anything failed.
  void finish();

 private:
  void check(int result, const char* what);
  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
  ::_xmlTextWriter* writer_ = nullptr;
};

enum class NodeType { StartElement, EndElement, Text, Whitespace, Other };

// Pulls nodes from a file, one at a time; refuses DTDs, external entities and nesting
// deeper than `maxDepth`. Malformed XML throws mtf::InputError with the line.
class XmlReader {
 public:
  XmlReader(const std::filesystem::path& path, int maxDepth);
  ~XmlReader();
  XmlReader(const XmlReader&) = delete;
  XmlReader& operator=(const XmlReader&) = delete;

  // Advances to the next element start, element end, text or whitespace node; false at
  // the end. Comments and processing instructions are skipped.
  bool next();
  NodeType type() const { return type_; }
  std::string_view name() const;          // local name of the current element
  std::string_view namespaceUri() const;  // "" if none
  bool isEmptyElement() const;            // <x/>: no EndElement follows
  int depth() const;
  uint64_t line() const;
  std::optional<std::string> attribute(const char* name) const;
  std::string_view value() const;  // characters of a text node
  // The concatenated text of the current element up to its end (consumes the end).
  std::string elementText();
  const std::filesystem::path& path() const { return path_; }
  std::string place() const;  // "line N"

 private:
  [[noreturn]] void fail(const std::string& what) const;
  std::filesystem::path path_;
  int maxDepth_;
  ::_xmlTextReader* reader_ = nullptr;
  NodeType type_ = NodeType::Other;
  mutable std::string error_;
};

// What the first bytes of a file say about it as XML.
struct Prolog {
  bool wellFormedStart = false;  // an element start was found in the scanned bytes
  bool hasDoctype = false;
  std::string rootName;        // qualified name of the root element
  std::string rootAttributes;  // the raw text of the root start tag after its name
};
// Scans at most `limit` bytes: XML declaration, comments, PIs, DOCTYPE, root start tag.
Prolog scanProlog(const std::filesystem::path& path, size_t limit = 64 * 1024);

}  // namespace mtf::xml
