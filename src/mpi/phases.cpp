#include "mpi/phases.hpp"

#include <algorithm>
#include <cstdio>
#include <new>
#include <string>

#include "util/error.hpp"
#include "util/interrupt.hpp"

namespace mtf::mpi {

namespace {

struct Outcome {
  int code = 0;
  std::string message;  // "mtf-mpi: ..." without the newline
};

// Runs `work`; an error becomes its exit code and message.
Outcome guarded(World& world, const std::function<void()>& work) {
  const std::string process = "process " + std::to_string(world.rank()) + ": ";
  try {
    work();
    return {};
  } catch (const Interrupted&) {
    throw;  // the process ends on its own (interrupt_watch.hpp), not with the others
  } catch (const Error& e) {
    return {static_cast<int>(e.code()), std::string("mtf-mpi: ") + e.what()};
  } catch (const std::bad_alloc&) {
    return {static_cast<int>(ExitCode::IoFailure), "mtf-mpi: " + process + "out of memory"};
  } catch (const std::exception& e) {
    return {static_cast<int>(ExitCode::IoFailure),
            "mtf-mpi: " + process + "internal error: " + e.what()};
  }
}

}  // namespace

// Rank 0 prints each distinct message once (every process failing to open the input says
// the same), in rank order.
int localPhase(World& world, const std::function<void()>& work) {
  const Outcome outcome = guarded(world, work);
  const int code = world.max(outcome.code);
  if (code == 0) return 0;
  std::vector<std::string> printed;
  for (const std::string& message : world.gather(outcome.message)) {
    if (message.empty() || std::find(printed.begin(), printed.end(), message) != printed.end())
      continue;
    std::fprintf(stderr, "%s\n", message.c_str());
    printed.push_back(message);
  }
  return code;
}

void collectivePhase(World& world, const std::function<void()>& work) {
  const Outcome outcome = guarded(world, work);
  if (outcome.code == 0) return;
  std::fprintf(stderr, "%s\n", outcome.message.c_str());
  world.abort(outcome.code);
}

}  // namespace mtf::mpi
