#include "converters/tau/tau_edf_out.hpp"

#include <algorithm>

namespace mtf::tau {
namespace {
// Ids of user entities stay below the tracer's fixed range (60000 and up).
constexpr int64_t kFirstTracerId = 60000;
}  // namespace

EdfOut::EdfOut(std::optional<EdfTable> stored) : stored_(std::move(stored)) {
  if (!stored_) return;
  for (const EdfEntry& e : stored_->entries) {
    idOfLine_.emplace(e.line, e.id);
    if (e.group == "TRACER" || e.group == "TAU_MESSAGE") idOfName_.emplace(e.name, e.id);
    used_.insert(e.id);
  }
}

int64_t EdfOut::freeId() {
  while (used_.count(nextId_) || nextId_ == 0) ++nextId_;
  return nextId_;
}

int64_t EdfOut::add(const std::string& lineWithoutId, std::optional<int64_t> preferred) {
  int64_t id = preferred && *preferred > 0 && !used_.count(*preferred) ? *preferred : freeId();
  if (id >= kFirstTracerId && !preferred) id = freeId();
  used_.insert(id);
  added_.emplace_back(id, lineWithoutId);
  return id;
}

int64_t EdfOut::idFor(uint64_t cacheKey, const EdfIdentity& identity) {
  if (const auto it = cache_.find(cacheKey); it != cache_.end()) return it->second;
  int64_t id = 0;
  if (const auto it = idOfLine_.find(identity.line);
      !identity.line.empty() && it != idOfLine_.end()) {
    id = it->second;
  } else {
    const std::string rest = formatEdfLine(0, identity.group, identity.tag, identity.name,
                                           identity.param)
                                 .substr(2);  // drop "0 "
    id = add(rest, identity.preferredId);
  }
  cache_.emplace(cacheKey, id);
  return id;
}

int64_t EdfOut::idForTracer(int64_t canonicalId) {
  if (const auto it = tracerCache_.find(canonicalId); it != tracerCache_.end()) return it->second;
  const TracerEvent* t = tracerEventById(canonicalId);
  int64_t id = canonicalId;
  if (const auto it = t ? idOfName_.find(std::string(t->name)) : idOfName_.end();
      it != idOfName_.end()) {
    id = it->second;
  } else if (t) {
    const std::string rest = formatEdfLine(0, t->group, t->tag, t->name, t->param).substr(2);
    id = add(rest, canonicalId);
  }
  tracerCache_.emplace(canonicalId, id);
  return id;
}

// The stored text is kept line for line (comments included); only the count of the
// header is corrected (real TAU files declare one event more than they list) and the
// lines this writer added follow.
std::string EdfOut::text() const {
  const size_t count = (stored_ ? stored_->entries.size() : 0) + added_.size();
  const std::string header = std::to_string(count) + " dynamic_trace_events";
  std::string out;
  if (stored_) {
    out = correctedHeader(stored_->text, header);
    if (!out.empty() && out.back() != '\n') out += '\n';
  } else {
    out = header + '\n' + std::string(kEdfComment) + '\n';
  }
  for (const auto& [id, rest] : added_) out += std::to_string(id) + " " + rest + '\n';
  return out;
}

std::string EdfOut::correctedHeader(const std::string& text, const std::string& header) {
  size_t begin = 0;
  while (begin < text.size()) {
    const size_t end = std::min(text.find('\n', begin), text.size());
    const size_t first = text.find_first_not_of(" \t\r", begin);
    if (first < end && text[first] != '#') return text.substr(0, begin) + header + text.substr(end);
    begin = end + 1;
  }
  return header + '\n' + text;
}

}  // namespace mtf::tau
