#include "mpi/mpi_world.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "mpi/interrupt_watch.hpp"

namespace mtf::mpi {

namespace {

constexpr int kTagSize = 1;
constexpr int kTagBytes = 2;
// MPI counts are ints: larger messages go in pieces.
constexpr uint64_t kPiece = uint64_t{1} << 30;

void check(int code, const char* what) {
  if (code != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

}  // namespace

World::World(int& argc, char**& argv) {
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

World::~World() {
  const InsideMpi waiting;
  MPI_Finalize();
}

void World::send(int to, const std::string& bytes) {
  const InsideMpi waiting;
  const uint64_t size = bytes.size();
  check(MPI_Send(&size, 1, MPI_UINT64_T, to, kTagSize, MPI_COMM_WORLD), "MPI_Send");
  for (uint64_t at = 0; at < size; at += kPiece) {
    const int n = static_cast<int>(std::min(kPiece, size - at));
    check(MPI_Send(bytes.data() + at, n, MPI_BYTE, to, kTagBytes, MPI_COMM_WORLD), "MPI_Send");
  }
  bytesSent_ += sizeof size + size;
}

std::string World::receive(int from) {
  const InsideMpi waiting;
  uint64_t size = 0;
  check(MPI_Recv(&size, 1, MPI_UINT64_T, from, kTagSize, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
        "MPI_Recv");
  std::string bytes(size, '\0');
  for (uint64_t at = 0; at < size; at += kPiece) {
    const int n = static_cast<int>(std::min(kPiece, size - at));
    check(MPI_Recv(bytes.data() + at, n, MPI_BYTE, from, kTagBytes, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE),
          "MPI_Recv");
  }
  return bytes;
}

std::vector<std::string> World::gather(const std::string& mine) {
  if (!isRoot()) {
    send(0, mine);
    return {};
  }
  std::vector<std::string> all{mine};
  for (int r = 1; r < size_; ++r) all.push_back(receive(r));
  return all;
}

std::vector<std::string> World::allGather(const std::string& mine) {
  std::vector<std::string> all = gather(mine);
  std::string packed;
  if (isRoot())
    for (const std::string& s : all) {
      const uint64_t n = s.size();
      packed.append(reinterpret_cast<const char*>(&n), sizeof n).append(s);
    }
  broadcast(packed);
  all.clear();
  for (size_t at = 0; at < packed.size();) {
    uint64_t n = 0;
    packed.copy(reinterpret_cast<char*>(&n), sizeof n, at);
    all.push_back(packed.substr(at + sizeof n, n));
    at += sizeof n + n;
  }
  return all;
}

void World::broadcast(std::string& bytes) {
  const InsideMpi waiting;
  uint64_t size = bytes.size();
  check(MPI_Bcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
  bytes.resize(size);
  for (uint64_t at = 0; at < size; at += kPiece) {
    const int n = static_cast<int>(std::min(kPiece, size - at));
    check(MPI_Bcast(bytes.data() + at, n, MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Bcast");
  }
  // A binomial broadcast: each process but the root receives the bytes once.
  if (!isRoot()) return;
  bytesSent_ += (sizeof size + size) * static_cast<uint64_t>(size_ - 1);
}

uint64_t World::sum(uint64_t mine) {
  const InsideMpi waiting;
  uint64_t total = 0;
  check(MPI_Allreduce(&mine, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  return total;
}

uint64_t World::sumBefore(uint64_t mine) {
  const InsideMpi waiting;
  uint64_t before = 0;
  check(MPI_Exscan(&mine, &before, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD), "MPI_Exscan");
  return isRoot() ? 0 : before;  // MPI leaves rank 0's result undefined
}

int World::max(int mine) {
  const InsideMpi waiting;
  int result = 0;
  check(MPI_Allreduce(&mine, &result, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  return result;
}

void World::barrier() {
  const InsideMpi waiting;
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
}

void World::abort(int code) {
  if (abortCleanup_) {
    try {
      abortCleanup_();
    } catch (...) {  // ending anyway
    }
  }
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();
}

void World::reduceToRoot(const std::function<std::string()>& encode,
                         const std::function<void(std::string&&)>& absorb) {
  for (int step = 1; step < size_; step *= 2) {
    if (rank_ % (2 * step) == step) {
      send(rank_ - step, encode());
      return;
    }
    if (rank_ % (2 * step) == 0 && rank_ + step < size_) absorb(receive(rank_ + step));
  }
}

}  // namespace mtf::mpi
