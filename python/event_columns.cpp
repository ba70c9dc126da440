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

uint64_t EventColumns::roomFor(size_t column, uint64_t expected, bool exact) const {
  if (!wants(column)) return 0;
  if (exact) return expected;
  return expected == 0 ? kFirstRoom : std::min(expected, kMaxExpected);
}

EventColumns::EventColumns(uint64_t expected, ColumnSet wanted, bool exact)
    : wanted_(wanted),
      location_(roomFor(kLocation, expected, exact)),
      time_(roomFor(kTime, expected, exact)),
      size_(roomFor(kSize, expected, exact)),
      kind_(roomFor(kKind, expected, exact)),
      region_(roomFor(kRegion, expected, exact)),
      partner_(roomFor(kPartner, expected, exact)),
      comm_(roomFor(kComm, expected, exact)),
      tag_(roomFor(kTag, expected, exact)) {
  if (api::eventKindCount() > kindSeen_.size() - 1)
    throw std::logic_error("event kinds do not fit int8 codes");
  if (exact) resizeWanted(expected);
}

void EventColumns::resizeWanted(uint64_t rows) {
  // Only the sizes: the kernel maps each page when a row of it is first written.
  if (wants(kLocation)) location_.extend(rows);
  if (wants(kTime)) time_.extend(rows);
  if (wants(kKind)) kind_.extend(rows);
  if (wants(kRegion)) region_.extend(rows);
  if (wants(kPartner)) partner_.extend(rows);
  if (wants(kTag)) tag_.extend(rows);
  if (wants(kSize)) size_.extend(rows);
  if (wants(kComm)) comm_.extend(rows);
}

void EventColumns::writeKinds(int8_t* to, const api::EventRows& rows) {
  const size_t n = rows.count;
  // Flags, not counts: the same kind in a row would chain increments of one counter.
  std::array<bool, 128> seen{};
  for (size_t i = 0; i < n; ++i) {
    to[i] = static_cast<int8_t>(rows.kind[i]);
    seen[rows.kind[i] & 0x7f] = true;
  }
  for (size_t k = 0; k < seen.size(); ++k)
    if (seen[k]) kindSeen_[k].store(true, std::memory_order_relaxed);
}

void EventColumns::add(const api::EventRows& rows) {
  const size_t n = rows.count;
  if (wants(kLocation)) location_.append(rows.location.data(), n);
  if (wants(kTime)) time_.append(rows.time.data(), n);
  if (wants(kKind)) writeKinds(kind_.extend(n), rows);
  if (wants(kRegion)) region_.append(rows.region.data(), n);
  if (wants(kPartner)) partner_.append(rows.partner.data(), n);
  if (wants(kTag)) tag_.append(rows.tag.data(), n);
  if (wants(kSize)) size_.append(rows.size.data(), n);
  if (wants(kComm)) comm_.append(rows.comm.data(), n);
}

void EventColumns::place(uint64_t first, const api::EventRows& rows) {
  const size_t n = rows.count;
  if (wants(kLocation)) location_.write(first, rows.location.data(), n);
  if (wants(kTime)) time_.write(first, rows.time.data(), n);
  if (wants(kKind)) writeKinds(kind_.at(first, n), rows);
  if (wants(kRegion)) region_.write(first, rows.region.data(), n);
  if (wants(kPartner)) partner_.write(first, rows.partner.data(), n);
  if (wants(kTag)) tag_.write(first, rows.tag.data(), n);
  if (wants(kSize)) size_.write(first, rows.size.data(), n);
  if (wants(kComm)) comm_.write(first, rows.comm.data(), n);
}

py::tuple EventColumns::release() {
  // Codes into the kinds present, so the categorical lists only those.
  std::array<int8_t, 256> code{};
  py::list names;
  int8_t next = 0;
  for (size_t k = 0; k < api::eventKindCount(); ++k)
    if (kindSeen_[k].load(std::memory_order_relaxed)) {
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
