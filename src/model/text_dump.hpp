// The canonical text form of a trace (`mtf dump`): definitions, then one line per event.
// Deterministic: the same trace always gives the same text, so golden tests can diff it.
#pragma once

#include <ostream>
#include <string>

#include "model/trace_stream.hpp"

namespace mtf {

// "Region self=3 name=7(\"main\") ..." — a definition record on one line.
std::string formatDefinition(const DefRecord& record, const Definitions& defs);
// "L0 1234 Enter region=3(\"main\")" — an event on one line, attributes after " |".
std::string formatEvent(const Event& event, const Definitions& defs);
// The same appended to `out` (no allocation once `out` has grown).
void appendEvent(std::string& out, const Event& event, const Definitions& defs);

class TextDumpSink : public TraceSink {
 public:
  explicit TextDumpSink(std::ostream& out, bool withDefinitions = true)
      : out_(out), withDefinitions_(withDefinitions) {}
  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void end() override;

 private:
  static constexpr size_t kBufferBytes = size_t{1} << 20;  // written in large blocks
  void flushBuffer();
  std::ostream& out_;
  std::string buffer_;
  bool withDefinitions_;
  const Definitions* defs_ = nullptr;
};

}  // namespace mtf
