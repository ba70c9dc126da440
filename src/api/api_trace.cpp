// Trace: opening, definitions and the event stream of the public API.
#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "api/api_impl.hpp"
#include "compaction/decompactor.hpp"
#include "compaction/expander.hpp"
#include "compaction/expansion_lanes.hpp"
#include "converters/mtf/binary/archive.hpp"
#include "converters/otf2/otf2_reader.hpp"
#include "model/event_batch.hpp"
#include "model/event_block.hpp"
#include "model/mpi_ranks.hpp"
#include "registry/registry.hpp"

namespace mtf::api {
namespace {

// True if `filter` has no time window (it may still select locations).
bool keepsAllTimes(const EventFilter& filter) {
  return filter.from == 0 && filter.to == ~Tick{0};
}

// The common fields of a public event (Event: region, partner, tag, size, comm), decoded
// from an internal event (partners as world ranks).
struct CommonFields {
  uint32_t region = kNoRef;
  int64_t partner = -1;
  int64_t tag = -1;
  uint64_t size = 0;
  uint32_t comm = kNoRef;
};

// World ranks of ranks in communicators, with the view of the last communicator and
// location kept (RankMap looks both up in hash maps; events of one location mostly use
// one communicator).
class WorldRanks {
 public:
  explicit WorldRanks(const mtf::Definitions& defs) : ranks_(defs) {}
  int64_t of(Ref comm, uint64_t rank, LocationId self) {
    if (!known_ || comm != comm_ || self != self_) [[unlikely]] {
      view_ = ranks_.view(comm, self);
      comm_ = comm;
      self_ = self;
      known_ = true;
    }
    return view_.worldRankOf(rank);
  }

 private:
  RankMap ranks_;
  bool known_ = false;
  Ref comm_ = 0;
  LocationId self_ = 0;
  CommView view_;
};

// Which fields commonFields() reads, by kind: the one list of kinds whose fields are
// values (a partner, a tag or a size), which an EventBlock's shapes do not hold.
enum class FieldShape { None, Region, PointToPoint, Collective };

constexpr FieldShape fieldShapeOfKind(EventKind kind) {
  switch (kind) {
    case EventKind::Enter:
    case EventKind::Leave:
      return FieldShape::Region;
    case EventKind::MpiSend:
    case EventKind::MpiIsend:
    case EventKind::MpiRecv:
    case EventKind::MpiIrecv:
      return FieldShape::PointToPoint;
    case EventKind::MpiCollectiveEnd:
    case EventKind::NonBlockingCollectiveComplete:
      return FieldShape::Collective;
    default:
      return FieldShape::None;
  }
}

// A table, not the switch, per event: one load where two jumps through tables cost 2%
// more instructions in eventBlock() (callgrind).
constexpr std::array<FieldShape, kEventKindCount> kFieldShapes = [] {
  std::array<FieldShape, kEventKindCount> shapes{};
  for (size_t k = 0; k < kEventKindCount; ++k)
    shapes[k] = fieldShapeOfKind(static_cast<EventKind>(k));
  return shapes;
}();

constexpr FieldShape fieldShapeOf(EventKind kind) {
  return kFieldShapes[static_cast<size_t>(kind)];
}

// True if commonFields() reads fields of `kind` that are values, not references.
constexpr bool hasValueFields(EventKind kind) {
  const FieldShape shape = fieldShapeOf(kind);
  return shape == FieldShape::PointToPoint || shape == FieldShape::Collective;
}

// Inlined: called per event, its result then lives in registers (measured with callgrind
// on the 14 M-event wavefront: 37 instructions per event out of line).
[[gnu::always_inline]] inline CommonFields commonFields(const mtf::Event& e, WorldRanks& ranks) {
  CommonFields c;
  const uint64_t* f = e.fields.data();
  switch (fieldShapeOf(e.kind)) {
    case FieldShape::Region:
      c.region = static_cast<uint32_t>(f[0]);
      break;
    case FieldShape::PointToPoint:  // peer, comm, tag, length
      c.comm = static_cast<uint32_t>(f[1]);
      c.partner = ranks.of(c.comm, f[0], e.location);
      c.tag = static_cast<int64_t>(f[2]);
      c.size = f[3];
      break;
    case FieldShape::Collective:  // op, comm, root, sent, received
      c.comm = static_cast<uint32_t>(f[1]);
      c.partner = ranks.of(c.comm, f[2], e.location);
      c.size = f[3];
      break;
    case FieldShape::None:
      break;
  }
  return c;
}

// What both public sinks share: the filter, the rank map, batches.
class FilteringSink : public TraceSink {
 public:
  explicit FilteringSink(const EventFilter& filter)
      : filter_(filter), selectsAll_(filter.locations.empty() && keepsAllTimes(filter)) {
    std::sort(filter_.locations.begin(), filter_.locations.end());
  }
  void begin(const mtf::Definitions& defs) override { ranks_ = std::make_unique<WorldRanks>(defs); }
  // Batches let the OTF2 reader read on two threads.
  bool prefersBatches() const override { return true; }

 protected:
  bool selected(const mtf::Event& e) const {
    if (selectsAll_) return true;
    if (e.time < filter_.from || e.time > filter_.to) return false;
    return selectsLocation(e.location);
  }
  bool selectsLocation(LocationId location) const {
    return filter_.locations.empty() ||
           std::binary_search(filter_.locations.begin(), filter_.locations.end(), location);
  }
  bool noTimeWindow() const { return keepsAllTimes(filter_); }
  WorldRanks& ranks() { return *ranks_; }

 private:
  EventFilter filter_;
  bool selectsAll_;  // the default filter: no test per event
  std::unique_ptr<WorldRanks> ranks_;
};

// Hands each selected event, made public, to the callback.
class PublicEventSink : public FilteringSink {
 public:
  PublicEventSink(const EventCallback& callback, const EventFilter& filter)
      : FilteringSink(filter), callback_(callback) {}
  void event(const mtf::Event& e) override {
    if (selected(e)) deliver(e);
  }
  void events(const SharedEventBatch& batch) override {
    forEachEvent(*batch, [this](const mtf::Event& e) { event(e); });
  }
  void end() override {}

 private:
  void deliver(const mtf::Event& e) {
    const CommonFields c = commonFields(e, ranks());
    out_.location = e.location;
    out_.time = e.time;
    out_.kind = static_cast<EventKindId>(e.kind);
    out_.region = c.region;
    out_.partner = c.partner;
    out_.tag = c.tag;
    out_.size = c.size;
    out_.comm = c.comm;
    out_.fields = std::span<const uint64_t>(e.fields.data(), e.fields.size());
    callback_(out_);
  }

  const EventCallback& callback_;
  Event out_;
};

// Gathers the selected events, made public, into blocks of rows for the callback.
class EventRowsSink : public FilteringSink {
 public:
  static constexpr size_t kRows = 4096;
  EventRowsSink(const EventRowsCallback& callback, const EventFilter& filter)
      : FilteringSink(filter), callback_(callback) {
    rows_.location.resize(kRows);
    rows_.time.resize(kRows);
    rows_.kind.resize(kRows);
    rows_.region.resize(kRows);
    rows_.partner.resize(kRows);
    rows_.tag.resize(kRows);
    rows_.size.resize(kRows);
    rows_.comm.resize(kRows);
  }
  void event(const mtf::Event& e) override {
    if (selected(e)) add(e);
  }
  void events(const SharedEventBatch& batch) override {
    forEachEvent(*batch, [this](const mtf::Event& e) {
      if (selected(e)) add(e);
    });
  }
  // A decoder's block of one location, whole (an .mtf archive read without a time window).
  void eventBlock(const EventBlock& block) override {
    const size_t n = block.size();
    if (n == 0 || !selectsLocation(block.shape(0).location)) return;
    for (size_t done = 0; done < n;) {
      const size_t take = std::min(n - done, kRows - rows_.count);
      addBlockRows(block, done, take);
      done += take;
      if (rows_.count == kRows) flush();
    }
  }
  bool takesEventBlocks() const override { return noTimeWindow(); }
  void end() override { flush(); }
  // The rows gathered so far to the callback (if any).
  void flush() {
    if (rows_.count == 0) return;
    callback_(rows_);
    rows_.count = 0;
  }

 private:
  // The row count is read once and written once: a store into a uint64_t column could
  // alias it (size_t), which would make the compiler reload it after every store.
  void add(const mtf::Event& e) {
    const CommonFields c = commonFields(e, ranks());
    const size_t i = rows_.count;
    rows_.location.data()[i] = e.location;
    rows_.time.data()[i] = e.time;
    rows_.kind.data()[i] = static_cast<EventKindId>(e.kind);
    rows_.region.data()[i] = c.region;
    rows_.partner.data()[i] = c.partner;
    rows_.tag.data()[i] = c.tag;
    rows_.size.data()[i] = c.size;
    rows_.comm.data()[i] = c.comm;
    rows_.count = i + 1;
    if (i + 1 == kRows) flush();
  }

  // Rows of events [from, from + n) of `block`. Only messages and collectives have public
  // fields that are values (partner, tag, size): the decoder builds those events; every
  // other kind's public fields are references (a region) or none, which the event's shape
  // holds, so it is never built. The columns' places are kept in locals: a store through
  // one could alias the vectors' own pointers, which the compiler would then reload.
  void addBlockRows(const EventBlock& block, size_t from, size_t n) {
    const size_t at = rows_.count;
    std::copy_n(block.times() + from, n, rows_.time.data() + at);
    LocationId* location = rows_.location.data() + at;
    EventKindId* kind = rows_.kind.data() + at;
    uint32_t* region = rows_.region.data() + at;
    int64_t* partner = rows_.partner.data() + at;
    int64_t* tag = rows_.tag.data() + at;
    uint64_t* size = rows_.size.data() + at;
    uint32_t* comm = rows_.comm.data() + at;
    const mtf::Event* const* shapes = block.shapes() + from;
    for (size_t i = 0; i < n; ++i) {
      const mtf::Event& shape = *shapes[i];
      const mtf::Event& e = hasValueFields(shape.kind) ? block.event(from + i) : shape;
      const CommonFields c = commonFields(e, ranks());
      location[i] = shape.location;
      kind[i] = static_cast<EventKindId>(shape.kind);
      region[i] = c.region;
      partner[i] = c.partner;
      tag[i] = c.tag;
      size[i] = c.size;
      comm[i] = c.comm;
    }
    rows_.count = at + n;
  }

  const EventRowsCallback& callback_;
  EventRows rows_;
};

// True if a trace of `format` counts the events `filter` selects before they are read (its
// index): an .mtf archive, no time window.
bool indexCounts(const std::string& format, const EventFilter& filter) {
  return format == "mtf" && keepsAllTimes(filter);
}

// Indices into the archive's locations of those `filter` selects, in the order an
// ArchiveSource reads them (ModelSource::read).
std::vector<size_t> selectedIndices(const compaction::CompactModel& model,
                                    const EventFilter& filter) {
  std::vector<size_t> indices;
  for (size_t i = 0; i < model.locations.size(); ++i) {
    const std::vector<LocationId>& asked = filter.locations;
    if (asked.empty() ||
        std::find(asked.begin(), asked.end(), model.locations[i].location) != asked.end())
      indices.push_back(i);
  }
  return indices;
}

// An archive's selected locations read on several threads, each thread taking the next
// location no thread has taken yet and handing its rows, placed by the index's event
// counts, to the callback. A location whose events disagree with its count fails the read.
class PlacedRowsReader {
 public:
  PlacedRowsReader(std::shared_ptr<mtfbin::ArchiveReader> reader, std::vector<size_t> indices,
                   const PlacedEventRowsCallback& callback, const EventFilter& filter)
      : reader_(std::move(reader)),
        model_(*reader_->model()),
        indices_(std::move(indices)),
        callback_(callback),
        filter_(filter),
        flat_(model_) {
    firstRows_.push_back(0);
    for (size_t i : indices_)
      firstRows_.push_back(firstRows_.back() + model_.locations[i].eventCount);
    options_.sourceName = reader_->name();
    options_.loader = [this](size_t l, size_t c) { return reader_->loadColumns(l, c); };
    options_.flat = &flat_;
    options_.lanes = 1;  // the threads are the locations'
  }

  // On `threads` threads, the calling thread one of them; rethrows the first error.
  void run(size_t threads) {
    {
      std::vector<std::jthread> others;  // joined when they leave scope, also on a throw
      for (size_t t = 1; t < std::min(threads, indices_.size()); ++t)
        others.emplace_back([this] { work(); });
      work();
    }
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void work() {
    try {
      uint64_t row = 0, end = 0;
      LocationId location = 0;
      const EventRowsCallback placed = [&](const EventRows& rows) {
        if (rows.count > end - row) throw miscount(location, "more");
        callback_(row, rows);
        row += rows.count;
      };
      EventRowsSink sink(placed, filter_);
      sink.begin(model_.definitions);
      for (size_t k = next_++; k < indices_.size() && !failed_; k = next_++) {
        row = firstRows_[k];
        end = firstRows_[k + 1];
        location = model_.locations[indices_[k]].location;
        compaction::expandLocations(model_, {indices_[k]}, options_, sink);
        sink.end();  // hands on the location's last rows
        if (row != end) throw miscount(location, "fewer");
      }
    } catch (...) {
      std::lock_guard lock(errorMutex_);
      if (!error_) error_ = std::current_exception();
      failed_ = true;
    }
  }

  InputError miscount(LocationId location, const char* moreOrFewer) const {
    return InputError(reader_->name(), placeLocation(location),
                      std::string(moreOrFewer) + " events than the index counts");
  }

  std::shared_ptr<mtfbin::ArchiveReader> reader_;
  const compaction::CompactModel& model_;
  std::vector<size_t> indices_;
  std::vector<uint64_t> firstRows_;  // of indices_[k]; the total last
  const PlacedEventRowsCallback& callback_;
  const EventFilter& filter_;
  compaction::FlatExpansions flat_;  // built once, read by every thread
  compaction::ExpandOptions options_;
  std::atomic<size_t> next_{0};
  std::atomic<bool> failed_{false};
  std::mutex errorMutex_;
  std::exception_ptr error_;
};

}  // namespace

std::unique_ptr<TraceSource> Trace::Impl::openSource() const {
  return openTrace(path, read);
}

void Trace::Impl::readSelected(const EventFilter& filter, TraceSink& sink) const {
  if (format == "mtf") {
    // Only the chunks of the asked locations and time window are read (the index).
    mtfbin::ArchiveSource source(path, read);
    source.selectLocations(filter.locations);
    source.setWindow({filter.from, filter.to});
    source.read(sink);
    return;
  }
  auto source = openSource();
  // OTF2 keeps each location's events in a file of its own: only the asked ones are read.
  if (auto* otf2 = dynamic_cast<otf2::Otf2Reader*>(source.get()))
    otf2->selectLocations(filter.locations);
  source->read(sink);
}

const mtf::Definitions& Trace::Impl::internalDefinitions() {
  if (!definitionSource) definitionSource = openSource();
  return definitionSource->definitions();
}

Trace::Trace(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Trace::Trace(Trace&&) noexcept = default;
Trace& Trace::operator=(Trace&&) noexcept = default;
Trace::~Trace() = default;

Trace Trace::open(const std::string& path, const OpenOptions& options) {
  return guarded([&] {
    auto impl = std::make_unique<Impl>();
    impl->path = path;
    impl->format = detectInputFormat(path).name;
    impl->read.lenient = options.lenient;
    return Trace(std::move(impl));
  });
}

const std::string& Trace::path() const {
  return impl_->path;
}

const std::string& Trace::format() const {
  return impl_->format;
}

const Definitions& Trace::definitions() {
  return guarded([&]() -> const Definitions& {
    if (!impl_->definitions) impl_->definitions = publicDefinitions(impl_->internalDefinitions());
    return *impl_->definitions;
  });
}

void Trace::events(const EventCallback& callback, const EventFilter& filter) {
  guarded([&] {
    PublicEventSink sink(callback, filter);
    impl_->readSelected(filter, sink);
  });
}

void Trace::eventRows(const EventRowsCallback& callback, const EventFilter& filter) {
  guarded([&] {
    EventRowsSink sink(callback, filter);
    impl_->readSelected(filter, sink);
    sink.flush();  // a source that did not call end()
  });
}

uint64_t Trace::eventCountHint() {
  return guarded([&] {
    uint64_t total = 0;
    if (impl_->format == "mtf") {
      // Named: a range-for would destroy the temporary reader and model before the loop.
      const auto model = mtfbin::ArchiveReader(impl_->path).model();
      for (const auto& l : model->locations) total += l.eventCount;
      return total;
    }
    for (const LocationView& l : impl_->internalDefinitions().locations())
      total += l.declaredEvents;
    return total;
  });
}

std::optional<uint64_t> Trace::eventCount(const EventFilter& filter) {
  return guarded([&]() -> std::optional<uint64_t> {
    if (!indexCounts(impl_->format, filter)) return std::nullopt;
    impl_->countedReader = std::make_shared<mtfbin::ArchiveReader>(impl_->path);
    const auto model = impl_->countedReader->model();
    uint64_t total = 0;
    for (size_t i : selectedIndices(*model, filter)) total += model->locations[i].eventCount;
    return total;
  });
}

void Trace::eventRowsOnThreads(const PlacedEventRowsCallback& callback, const EventFilter& filter,
                               size_t threads) {
  // Taken whichever way the rows go: a later call must not read an archive counted before.
  std::shared_ptr<mtfbin::ArchiveReader> counted = std::move(impl_->countedReader);
  if (threads == 0) threads = compaction::defaultExpansionLanes();
  if (indexCounts(impl_->format, filter) && threads > 1) {
    const bool done = guarded([&] {
      std::shared_ptr<mtfbin::ArchiveReader> reader =
          counted ? std::move(counted) : std::make_shared<mtfbin::ArchiveReader>(impl_->path);
      std::vector<size_t> indices = selectedIndices(*reader->model(), filter);
      if (indices.size() < 2) return false;
      PlacedRowsReader(std::move(reader), std::move(indices), callback, filter).run(threads);
      return true;
    });
    if (done) return;
  }
  uint64_t row = 0;  // in order, on this thread
  eventRows(
      [&](const EventRows& rows) {
        callback(row, rows);
        row += rows.count;
      },
      filter);
}

const char* version() {
  return MTF_API_VERSION;
}

}  // namespace mtf::api
