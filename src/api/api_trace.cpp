// Trace: opening, definitions and the event stream of the public API.
#include <algorithm>

#include "api/api_impl.hpp"
#include "converters/mtf/binary/archive.hpp"
#include "converters/otf2/otf2_reader.hpp"
#include "model/event_batch.hpp"
#include "model/mpi_ranks.hpp"
#include "registry/registry.hpp"

namespace mtf::api {
namespace {

// Turns internal events into public ones (partners as world ranks) and hands those the
// filter selects to the callback.
class PublicEventSink : public TraceSink {
 public:
  PublicEventSink(const EventCallback& callback, const EventFilter& filter)
      : callback_(callback), filter_(filter) {
    std::sort(filter_.locations.begin(), filter_.locations.end());
  }
  void begin(const mtf::Definitions& defs) override { ranks_ = std::make_unique<RankMap>(defs); }
  void event(const mtf::Event& e) override {
    if (selected(e)) deliver(e);
  }
  void events(const SharedEventBatch& batch) override {
    forEachEvent(*batch, [this](const mtf::Event& e) { event(e); });
  }
  // Batches let the OTF2 reader read on two threads.
  bool prefersBatches() const override { return true; }
  void end() override {}

 private:
  bool selected(const mtf::Event& e) const {
    if (e.time < filter_.from || e.time > filter_.to) return false;
    return filter_.locations.empty() ||
           std::binary_search(filter_.locations.begin(), filter_.locations.end(), e.location);
  }
  void deliver(const mtf::Event& e);

  const EventCallback& callback_;
  EventFilter filter_;
  std::unique_ptr<RankMap> ranks_;
  Event out_;
};

void PublicEventSink::deliver(const mtf::Event& e) {
  out_.location = e.location;
  out_.time = e.time;
  out_.kind = static_cast<EventKindId>(e.kind);
  out_.region = kNoRef;
  out_.partner = -1;
  out_.tag = -1;
  out_.size = 0;
  out_.comm = kNoRef;
  out_.fields = std::span<const uint64_t>(e.fields.data(), e.fields.size());
  const uint64_t* f = e.fields.data();
  switch (e.kind) {
    case EventKind::Enter:
    case EventKind::Leave:
      out_.region = static_cast<uint32_t>(f[0]);
      break;
    case EventKind::MpiSend:
    case EventKind::MpiIsend:
    case EventKind::MpiRecv:
    case EventKind::MpiIrecv:  // peer, comm, tag, length
      out_.comm = static_cast<uint32_t>(f[1]);
      out_.partner = ranks_->worldRankOf(out_.comm, f[0], e.location);
      out_.tag = static_cast<int64_t>(f[2]);
      out_.size = f[3];
      break;
    case EventKind::MpiCollectiveEnd:
    case EventKind::NonBlockingCollectiveComplete:  // op, comm, root, sent, received
      out_.comm = static_cast<uint32_t>(f[1]);
      out_.partner = ranks_->worldRankOf(out_.comm, f[2], e.location);
      out_.size = f[3];
      break;
    default:
      break;
  }
  callback_(out_);
}

}  // namespace

std::unique_ptr<TraceSource> Trace::Impl::openSource() const {
  return openTrace(path, read);
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
    if (impl_->format == "mtf") {
      // Only the chunks of the asked locations and time window are read (the index).
      mtfbin::ArchiveSource source(impl_->path, impl_->read);
      source.selectLocations(filter.locations);
      source.setWindow({filter.from, filter.to});
      source.read(sink);
      return;
    }
    auto source = impl_->openSource();
    // OTF2 keeps each location's events in a file of its own: only the asked ones are read.
    if (auto* otf2 = dynamic_cast<otf2::Otf2Reader*>(source.get()))
      otf2->selectLocations(filter.locations);
    source->read(sink);
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

const char* version() {
  return MTF_API_VERSION;
}

}  // namespace mtf::api
