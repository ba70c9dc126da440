// Printing loop nests: the loop program of the paper's Figure 3 (`for i0 = 1 to 249`,
// indented bodies, `done`, one event per line such as `0 send 1 tag2`), the same tree as
// JSON (stable keys), and per-location statistics.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "nlr/nlr_sink.hpp"

namespace mtf::nlr {

struct PrintOptions {
  uint32_t fields = kAllFields;  // signature fields that were kept (others print as '*')
};

// Names events with the trace's definitions: ranks, region and communicator names.
class EventNamer {
 public:
  EventNamer(const Definitions& defs, const PrintOptions& options);
  // One line for one event of the location whose world rank is `ownRank` (-1: none).
  std::string describe(const Signature& s, int64_t ownRank, LocationId location) const;
  std::string regionName(Ref region) const;
  std::string commText(Ref comm) const;  // "0-15", or the communicator's name
  // A metric class's or instance's members' names ("PAPI_TOT_INS,PAPI_TOT_CYC").
  std::string metricName(Ref metric) const;
  const Definitions& definitions() const { return defs_; }

 private:
  std::string pointToPoint(const Signature& s, const std::string& self, int64_t ownRank) const;
  std::string collective(const Signature& s, const std::string& self) const;
  std::string partnerText(const Signature& s, int64_t ownRank) const;

  const Definitions& defs_;
  PrintOptions options_;
  SignatureContext ranks_;
};

void printLoopProgram(std::ostream& out, const LocationLoops& loops, const EventNamer& namer);
void printLoopsJson(std::ostream& out, const std::vector<LocationLoops>& all,
                    const EventNamer& namer);
void printLoopStats(std::ostream& out, const std::vector<LocationLoops>& all);

}  // namespace mtf::nlr
