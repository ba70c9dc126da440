#include "model/text_dump.hpp"

#include <charconv>
#include <cstdio>
#include <span>

namespace mtf {

namespace {

// append(pointer, length): append(pointer, pointer) is the slow iterator-range overload.
void appendNumber(std::string& out, uint64_t v) {
  char digits[24];
  const char* end = std::to_chars(digits, digits + sizeof digits, v).ptr;
  out.append(digits, static_cast<size_t>(end - digits));
}

void appendSigned(std::string& out, int64_t v) {
  char digits[24];
  const char* end = std::to_chars(digits, digits + sizeof digits, v).ptr;
  out.append(digits, static_cast<size_t>(end - digits));
}

// (string_view comparisons test the length first: most fail there, without a memcmp.)
void appendName(std::string& out, const Definitions& defs, std::string_view refKind,
                uint64_t value) {
  std::string_view name;
  if (refKind == "string") {
    name = defs.string(value);
  } else if (refKind == "region") {
    name = defs.regionName(static_cast<Ref>(value));
  } else if (const DefRecord* r = nullptr; refKind == "comm" || refKind == "param" ||
                                           refKind == "group" || refKind == "attribute") {
    DefKind kind = refKind == "comm"    ? DefKind::Comm
                   : refKind == "param" ? DefKind::Parameter
                   : refKind == "group" ? DefKind::Group
                                        : DefKind::Attribute;
    r = defs.find(kind, value);
    if (r && r->fields.size() > 1) name = defs.string(r->fields[1]);
  }
  if (name.empty()) return;
  out += "(\"";
  out += name;
  out += "\")";
}

void appendValue(std::string& out, const FieldSpec& spec, uint64_t value, const Definitions& defs) {
  switch (spec.type) {
    case FieldType::I64:
      return appendSigned(out, asSigned(value));
    case FieldType::F64: {
      char buf[64];
      const int n = std::snprintf(buf, sizeof buf, "%.17g", asDouble(value));
      out.append(buf, static_cast<size_t>(n));
      return;
    }
    case FieldType::Ref:
      if (value == kUndefinedRef && std::string_view(spec.refKind) != "loc") {
        out += "undef";
        return;
      }
      appendNumber(out, value);
      return appendName(out, defs, spec.refKind, value);
    default:
      return appendNumber(out, value);
  }
}

void appendFields(std::string& out, const KindSchema& schema, std::span<const uint64_t> fields,
                  const Definitions& defs) {
  for (size_t i = 0; i < fields.size(); ++i) {
    const size_t specIndex = i < schema.fixedCount || !schema.hasGroup()
                                 ? std::min(i, schema.fields.size() - 1)
                                 : schema.fixedCount + (i - schema.fixedCount) % schema.groupSize;
    const FieldSpec& spec = schema.fields[specIndex];
    out += ' ';
    out += spec.name;
    out += '=';
    // A record's own id is printed bare; references name what they point at.
    if (std::string_view(spec.name) == "self") {
      appendNumber(out, fields[i]);
    } else {
      appendValue(out, spec, fields[i], defs);
    }
  }
}

}  // namespace

std::string formatDefinition(const DefRecord& record, const Definitions& defs) {
  const KindSchema& schema = schemaOf(record.kind);
  std::string out(schema.name);
  appendFields(out, schema, record.fields, defs);
  if (record.kind == DefKind::String) {
    out += " text=\"";
    for (char c : record.text) {
      if (c == '"' || c == '\\') out += '\\';
      if (c == '\n') {
        out += "\\n";
        continue;
      }
      out += c;
    }
    out += '"';
  }
  return out;
}

void appendEvent(std::string& out, const Event& event, const Definitions& defs) {
  out += 'L';
  appendNumber(out, event.location);
  out += ' ';
  appendNumber(out, event.time);
  out += ' ';
  const KindSchema& schema = schemaOf(event.kind);
  out += schema.name;
  if (!event.fields.empty()) appendFields(out, schema, event.fields, defs);
  if (event.attributes.empty()) return;
  out += " |";
  for (const EventAttribute& a : event.attributes) {
    out += " attr";
    appendNumber(out, a.attribute);
    out += ':';
    appendNumber(out, a.type);
    out += '=';
    appendNumber(out, a.value);
  }
}

std::string formatEvent(const Event& event, const Definitions& defs) {
  std::string out;
  appendEvent(out, event, defs);
  return out;
}

void TextDumpSink::begin(const Definitions& defs) {
  defs_ = &defs;
  if (!withDefinitions_) return;
  const ClockProperties& c = defs.clock;
  out_ << "# format " << defs.info.format << '\n';
  out_ << "ClockProperties resolution=" << c.resolution << " offset=" << c.globalOffset
       << " length=" << c.traceLength << '\n';
  for (const DefRecord& r : defs.records()) out_ << formatDefinition(r, defs) << '\n';
  out_ << "# events\n";
}

void TextDumpSink::event(const Event& e) {
  appendEvent(buffer_, e, *defs_);
  buffer_ += '\n';
  if (buffer_.size() >= kBufferBytes) flushBuffer();
}

void TextDumpSink::flushBuffer() {
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
}

void TextDumpSink::end() {
  flushBuffer();
  out_.flush();
}

}  // namespace mtf
