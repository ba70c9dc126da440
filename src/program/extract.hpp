// The seed's data extractors (section V-B): the positions of every occurrence of one
// construct in each process's event stream, computed from the model (a polynomial in
// the indices of the loops around it), then the values at those positions read from the
// trace in one streaming pass.
//
// Choices: positions count the events the model was built from (MPI messages and
// collectives, as `mtf model`); the time of an occurrence is the time of its first event
// and its duration runs to the time of its last event; the size of a message is its
// length, of a collective the bytes it sent. Events that one MPI call completes are
// ordered canonically in the model: each is matched back to its own trace event.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/trace_stream.hpp"
#include "nlr/signature.hpp"
#include "program/program_model.hpp"

namespace mtf::program {

enum class ExtractValue : uint8_t { Time, Duration, Size };

struct Occurrence {
  uint32_t process = 0;
  std::vector<uint64_t> indices;  // of the loops around the construct, from 1
  uint64_t first = 0, last = 0;   // positions of its first and last event on the process
  uint64_t firstTime = 0, lastTime = 0, size = 0;
  bool found = false;
};

// Every occurrence of the construct at `path` on each of `processes` (those it covers),
// in process then loop order.
std::vector<Occurrence> occurrencesOf(const ProgramModel& model, const std::string& path,
                                      const std::vector<uint32_t>& processes);

// Fills the times and sizes of `occurrences` from a trace's events.
class ExtractSink : public TraceSink {
 public:
  ExtractSink(const ProgramModel& model, std::vector<Occurrence>& occurrences,
              const nlr::SignatureOptions& options);
  ~ExtractSink() override;
  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void end() override;

 private:
  struct Stream;
  void take(Stream& s, const nlr::Signature& released, LocationId location);
  const ProgramModel& model_;
  std::vector<Occurrence>& occurrences_;
  nlr::SignatureOptions options_;
  std::unique_ptr<nlr::SignatureContext> context_;
  std::vector<std::unique_ptr<Stream>> streams_;        // by process
  std::unordered_map<LocationId, uint32_t> processOf_;  // location id -> process
};

}  // namespace mtf::program
