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

// Indexes into kColumnNames.
enum Column : size_t { kLocation, kTime, kKind, kRegion, kPartner, kTag, kSize, kComm };

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

}  // namespace

ColumnSet columnSetOf(const std::vector<std::string>& names) {
  ColumnSet set = 0;
  for (const std::string& name : names) {
    const auto at = std::find(kColumnNames.begin(), kColumnNames.end(), name);
    if (at == kColumnNames.end()) {
      std::string known;
      for (const char* c : kColumnNames) known += std::string(known.empty() ? "" : ", ") + c;
      throw std::invalid_argument("unknown column '" + name + "' (the columns: " + known + ")");
    }
    set |= ColumnSet{1} << (at - kColumnNames.begin());
  }
  return set;
}

uint64_t EventColumns::roomFor(size_t column, uint64_t expected) const {
  if (!wants(column)) return 0;
  return expected == 0 ? kFirstRoom : std::min(expected, kMaxExpected);
}

EventColumns::EventColumns(uint64_t expected, ColumnSet wanted)
    : wanted_(wanted),
      location_(roomFor(kLocation, expected)),
      time_(roomFor(kTime, expected)),
      size_(roomFor(kSize, expected)),
      kind_(roomFor(kKind, expected)),
      region_(roomFor(kRegion, expected)),
      partner_(roomFor(kPartner, expected)),
      comm_(roomFor(kComm, expected)),
      tag_(roomFor(kTag, expected)) {
  if (api::eventKindCount() > 127) throw std::logic_error("event kinds do not fit int8 codes");
}

void EventColumns::addKinds(const api::EventRows& rows) {
  const size_t n = rows.count;
  int8_t* kinds = kind_.extend(n);
  // Flags, not counts: the same kind in a row would chain increments of one counter.
  for (size_t i = 0; i < n; ++i) {
    kinds[i] = static_cast<int8_t>(rows.kind[i]);
    kindSeen_[rows.kind[i] & 0xff] = true;
  }
}

void EventColumns::add(const api::EventRows& rows) {
  const size_t n = rows.count;
  if (wants(kLocation)) location_.append(rows.location.data(), n);
  if (wants(kTime)) time_.append(rows.time.data(), n);
  if (wants(kKind)) addKinds(rows);
  if (wants(kRegion)) region_.append(rows.region.data(), n);
  if (wants(kPartner)) partner_.append(rows.partner.data(), n);
  if (wants(kTag)) tag_.append(rows.tag.data(), n);
  if (wants(kSize)) size_.append(rows.size.data(), n);
  if (wants(kComm)) comm_.append(rows.comm.data(), n);
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
  if (wants(kLocation)) columns["location"] = toNumpy(location_);
  if (wants(kTime)) columns["time"] = toNumpy(time_);
  if (wants(kKind)) columns["kind"] = toNumpy(kind_);
  if (wants(kRegion)) columns["region"] = toNumpy(region_);
  if (wants(kPartner)) columns["partner"] = toNumpy(partner_);
  if (wants(kTag)) columns["tag"] = toNumpy(tag_);
  if (wants(kSize)) columns["size"] = toNumpy(size_);
  if (wants(kComm)) columns["comm"] = toNumpy(comm_);
  return py::make_tuple(columns, names);
}

}  // namespace mtf::python
