#include "compaction/decompactor.hpp"

#include <algorithm>

#include "values/byte_coding.hpp"
#include "values/columns.hpp"
#include "compaction/event_split.hpp"
#include "compaction/expander.hpp"
#include "util/error.hpp"

namespace mtf::compaction {

namespace {

class LocationExpansion {
 public:
  LocationExpansion(const CompactModel& model, size_t index, const ExpandOptions& options,
                    TraceSink& sink)
      : model_(model),
        location_(model.locations.at(index)),
        index_(index),
        options_(options),
        sink_(sink),
        ranks_(model.definitions),
        expander_(model, location_.root) {
    valueCounts_.reserve(model.signatures.size());
    for (const Signature& s : model.signatures) valueCounts_.push_back(valueCountOf(s));
  }

  void run() {
    uint64_t position = 0;   // events of the location the expander has passed
    uint64_t beforeEnd = 0;  // the end of the last chunk wholly before the window
    for (size_t c = 0; c < location_.columns.size(); ++c) {
      const ColumnChunk& meta = location_.columns[c];
      if (meta.maxTime < options_.window.from) beforeEnd = meta.firstEvent + meta.eventCount;
      if (!options_.window.all() &&
          (meta.maxTime < options_.window.from || meta.minTime > options_.window.to))
        continue;
      skipTo(meta.firstEvent, position);
      position = meta.firstEvent + meta.eventCount;
      decodeChunk(c, meta);
    }
    // Nothing in the window: still, the calls open at its start are entered again.
    if (options_.prefix && !prefixDone_) skipTo(beforeEnd, position);
  }

 private:
  // Skips the events up to `event`; the first time, with a prefix sink, tells it what
  // they leave open (ExpandOptions::prefix).
  void skipTo(uint64_t event, uint64_t position) {
    if (!options_.prefix || prefixDone_) {
      expander_.skip(event - position);
      return;
    }
    struct Visitor : Expander::SkipVisitor {
      explicit Visitor(const CompactModel& m) : prefix(m) {}
      void event(SigId sig) override { prefix.event(sig); }
      void subtree(NodeId node, uint64_t times) override { prefix.subtree(node, times); }
      CutPrefix prefix;
    } visitor(model_);
    expander_.skip(event - position, &visitor);
    prefixDone_ = true;
    if (options_.window.from > 0) emitPrefix(visitor.prefix.effect(), options_.window.from - 1);
  }

  void emitPrefix(const CutEffect& effect, Tick at) {
    for (SigId sig : effect.pushes) emitJoined(sig, at);
    if (effect.collective == 1) {
      event_.set(EventKind::MpiCollectiveBegin, location_.location, at, {});
      sink_.event(event_);
    }
    for (const auto& [sig, count] : effect.messages) {
      values_.assign(valueCounts_[sig], 0);
      joinEvent(model_.signatures[sig], values_.data(), location_.location, at, ranks_, event_);
      options_.prefix->messagesBefore(event_, count);
    }
  }

  void emitJoined(SigId sig, Tick at) {
    values_.assign(valueCounts_[sig], 0);
    joinEvent(model_.signatures[sig], values_.data(), location_.location, at, ranks_, event_);
    sink_.event(event_);
  }

  void decodeChunk(size_t c, const ColumnChunk& meta) {
    ColumnChunk loaded;
    const ColumnChunk* chunk = &meta;
    if (options_.loader) {
      loaded = options_.loader(index_, c);
      chunk = &loaded;
    }
    uint64_t n = meta.firstEvent;
    try {
      ColumnDecoder decoder(*chunk, model_.columnDictionary.get());
      ExpansionStep step;
      for (uint64_t i = 0; i < meta.eventCount; ++i, ++n) {
        if (!expander_.next(step)) throw CodingError{0, "the DAG ends before the columns"};
        const size_t count = valueCounts_[step.sig];
        values_.resize(count);
        const Tick time = decoder.next(step.context, values_.data(), count);
        if ((time < options_.window.from && !options_.prefix) || time > options_.window.to)
          continue;
        joinEvent(model_.signatures[step.sig], values_.data(), location_.location, time, ranks_,
                  event_);
        sink_.event(event_);
      }
      if (!decoder.finished())
        throw CodingError{0, "column chunk holds more values than its events"};
    } catch (const CodingError& e) {
      throw InputError(
          options_.sourceName,
          "location " + std::to_string(location_.location) + ", event " + std::to_string(n),
          "column chunk " + std::to_string(c) + ": " + e.what);
    }
  }

  const CompactModel& model_;
  const LocationModel& location_;
  size_t index_;
  const ExpandOptions& options_;
  TraceSink& sink_;
  OwnRanks ranks_;
  Expander expander_;
  std::vector<size_t> valueCounts_;
  std::vector<uint64_t> values_;
  Event event_;
  bool prefixDone_ = false;
};

}  // namespace

void expandLocation(const CompactModel& model, size_t locationIndex, const ExpandOptions& options,
                    TraceSink& sink) {
  LocationExpansion(model, locationIndex, options, sink).run();
}

ModelSource::ModelSource(std::shared_ptr<const CompactModel> model, ExpandOptions options)
    : model_(std::move(model)), options_(std::move(options)) {}

void ModelSource::read(TraceSink& sink) {
  sink.begin(model_->definitions);
  for (size_t i = 0; i < model_->locations.size(); ++i) {
    const LocationId id = model_->locations[i].location;
    if (!selected_.empty() && std::find(selected_.begin(), selected_.end(), id) == selected_.end())
      continue;
    expandLocation(*model_, i, options_, sink);
  }
  sink.end();
}

}  // namespace mtf::compaction
