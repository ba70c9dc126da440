#include "event_columns.hpp"

#include <utility>

namespace mtf::python {
namespace {

// Preallocation trusts the trace's own count only up to this many events (a corrupt
// count must not allocate the machine away); beyond it the columns grow as they fill.
constexpr uint64_t kMaxReserve = uint64_t{1} << 30;

// A numpy array owning the vector's buffer (no copy). A buffer much larger than its
// contents (the hint was wrong) is shrunk first, so the array costs what it holds.
template <typename T>
py::array_t<T> toNumpy(std::vector<T>& column) {
  if (column.capacity() > column.size() + column.size() / 16) column.shrink_to_fit();
  auto* owned = new std::vector<T>(std::move(column));
  py::capsule owner(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({owned->size()}, {sizeof(T)}, owned->data(), owner);
}

// Appends rows [0, n) of `rows` to `column`, converted to its type (region and comm:
// kNoRef becomes -1; partner: world ranks fit int32).
template <typename To, typename From>
void append(std::vector<To>& column, const std::vector<From>& rows, size_t n) {
  column.insert(column.end(), rows.begin(), rows.begin() + static_cast<ptrdiff_t>(n));
}

}  // namespace

EventColumns::EventColumns(uint64_t expected) {
  static_assert(sizeof(int8_t) == 1);
  if (api::eventKindCount() > 127) throw std::logic_error("event kinds do not fit int8 codes");
  const size_t n = expected <= kMaxReserve ? expected : 0;
  location_.reserve(n);
  time_.reserve(n);
  size_.reserve(n);
  kind_.reserve(n);
  region_.reserve(n);
  partner_.reserve(n);
  comm_.reserve(n);
  tag_.reserve(n);
}

void EventColumns::add(const api::EventRows& rows) {
  const size_t n = rows.count;
  append(location_, rows.location, n);
  append(time_, rows.time, n);
  append(kind_, rows.kind, n);
  for (size_t i = 0; i < n; ++i) ++kindCounts_[rows.kind[i] & 0xff];
  append(region_, rows.region, n);
  append(partner_, rows.partner, n);
  append(tag_, rows.tag, n);
  append(size_, rows.size, n);
  append(comm_, rows.comm, n);
}

py::tuple EventColumns::release() {
  // Codes into the kinds present, so the categorical lists only those.
  std::array<int8_t, 256> code{};
  py::list names;
  int8_t next = 0;
  for (size_t k = 0; k < api::eventKindCount(); ++k)
    if (kindCounts_[k]) {
      code[k] = next++;
      names.append(std::string(api::eventKindName(static_cast<api::EventKindId>(k))));
    }
  for (int8_t& k : kind_) k = code[static_cast<uint8_t>(k)];
  py::dict columns;
  columns["location"] = toNumpy(location_);
  columns["time"] = toNumpy(time_);
  columns["kind"] = toNumpy(kind_);
  columns["region"] = toNumpy(region_);
  columns["partner"] = toNumpy(partner_);
  columns["tag"] = toNumpy(tag_);
  columns["size"] = toNumpy(size_);
  columns["comm"] = toNumpy(comm_);
  return py::make_tuple(columns, names);
}

}  // namespace mtf::python
