#include "event_columns.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

namespace mtf::python {
namespace {

// The columns trust the trace's own count only up to this many events (a corrupt count
// must not map the machine away); beyond it they grow as they fill.
constexpr uint64_t kMaxExpected = uint64_t{1} << 30;
// Without a count, room for this many events first (the mappings double as they fill).
constexpr uint64_t kFirstRoom = uint64_t{1} << 16;

// A numpy array owning the column's mapping (no copy).
template <typename T>
py::array_t<T> toNumpy(MappedColumn<T>& column) {
  const size_t n = column.size();
  auto owned = std::make_unique<MappedBytes>(column.release());
  const T* data = reinterpret_cast<const T*>(owned->data());
  py::capsule owner(owned.get(), [](void* p) { delete static_cast<MappedBytes*>(p); });
  owned.release();  // the capsule owns it now
  return py::array_t<T>({n}, {sizeof(T)}, data, owner);
}

uint64_t firstRoom(uint64_t expected) {
  return expected == 0 ? kFirstRoom : std::min(expected, kMaxExpected);
}

}  // namespace

EventColumns::EventColumns(uint64_t expected)
    : location_(firstRoom(expected)),
      time_(firstRoom(expected)),
      size_(firstRoom(expected)),
      kind_(firstRoom(expected)),
      region_(firstRoom(expected)),
      partner_(firstRoom(expected)),
      comm_(firstRoom(expected)),
      tag_(firstRoom(expected)) {
  if (api::eventKindCount() > 127) throw std::logic_error("event kinds do not fit int8 codes");
}

void EventColumns::add(const api::EventRows& rows) {
  const size_t n = rows.count;
  location_.append(rows.location.data(), n);
  time_.append(rows.time.data(), n);
  int8_t* kinds = kind_.extend(n);
  // Flags, not counts: the same kind in a row would chain increments of one counter.
  for (size_t i = 0; i < n; ++i) {
    kinds[i] = static_cast<int8_t>(rows.kind[i]);
    kindSeen_[rows.kind[i] & 0xff] = true;
  }
  region_.append(rows.region.data(), n);
  partner_.append(rows.partner.data(), n);
  tag_.append(rows.tag.data(), n);
  size_.append(rows.size.data(), n);
  comm_.append(rows.comm.data(), n);
}

py::tuple EventColumns::release() {
  // Codes into the kinds present, so the categorical lists only those.
  std::array<int8_t, 256> code{};
  py::list names;
  int8_t next = 0;
  for (size_t k = 0; k < api::eventKindCount(); ++k)
    if (kindSeen_[k]) {
      code[k] = next++;
      names.append(std::string(api::eventKindName(static_cast<api::EventKindId>(k))));
    }
  int8_t* kinds = kind_.data();
  for (size_t i = 0; i < kind_.size(); ++i) kinds[i] = code[static_cast<uint8_t>(kinds[i])];
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
