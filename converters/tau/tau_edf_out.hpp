// The edf a writer produces for one node (or for a merged file): ids stable where the
// trace came from TAU (the stored edf is reused verbatim when it covers every event),
// fresh TAU-style ids otherwise.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "converters/tau/tau_edf.hpp"

namespace mtf::tau {

// What a region or trigger looks like in an edf.
struct EdfIdentity {
  std::string group;
  int64_t tag = 0;
  std::string name;  // raw TAU name
  std::string param;
  std::string line;  // the original edf line ("" if the trace did not come from TAU)
  std::optional<int64_t> preferredId;
};

class EdfOut {
 public:
  explicit EdfOut(std::optional<EdfTable> stored = std::nullopt);
  // The id of an entity; `cacheKey` identifies it for fast repeated look-ups.
  int64_t idFor(uint64_t cacheKey, const EdfIdentity& identity);
  // The id of a tracer event (EV_INIT, WALL_CLOCK, MESSAGE_SEND, ...) by canonical id.
  int64_t idForTracer(int64_t canonicalId);
  // True if the stored edf defines `rawId` (Generic events of TAU origin).
  bool defines(int64_t rawId) const { return stored_ && stored_->find(rawId); }
  // The file's text: the stored text (header count corrected) plus added lines.
  std::string text() const;

 private:
  int64_t add(const std::string& line, std::optional<int64_t> preferred);
  // `text` with its "N dynamic_trace_events" line replaced by `header`.
  static std::string correctedHeader(const std::string& text, const std::string& header);
  int64_t freeId();

  std::optional<EdfTable> stored_;
  std::unordered_map<std::string, int64_t> idOfLine_;  // stored lines
  std::unordered_map<std::string, int64_t> idOfName_;  // stored tracer names
  std::unordered_map<uint64_t, int64_t> cache_;
  std::unordered_map<int64_t, int64_t> tracerCache_;
  std::set<int64_t> used_;
  std::vector<std::pair<int64_t, std::string>> added_;  // (id, line without the id)
  int64_t nextId_ = 1;
};

}  // namespace mtf::tau
