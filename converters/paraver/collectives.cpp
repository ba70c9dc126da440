#include "converters/paraver/collectives.hpp"

#include <limits>

namespace mtf::paraver {

namespace {

constexpr const char* kOpLabel = "mtf: MPI collective operation (OTF2 op + 1)";
constexpr const char* kOpNames[] = {"BARRIER",
                                    "BCAST",
                                    "GATHER",
                                    "GATHERV",
                                    "SCATTER",
                                    "SCATTERV",
                                    "ALLGATHER",
                                    "ALLGATHERV",
                                    "ALLTOALL",
                                    "ALLTOALLV",
                                    "ALLTOALLW",
                                    "ALLREDUCE",
                                    "REDUCE",
                                    "REDUCE_SCATTER",
                                    "SCAN",
                                    "EXSCAN",
                                    "REDUCE_SCATTER_BLOCK",
                                    "CREATE_HANDLE",
                                    "DESTROY_HANDLE",
                                    "ALLOCATE",
                                    "DEALLOCATE",
                                    "CREATE_HANDLE_AND_ALLOCATE",
                                    "DESTROY_HANDLE_AND_DEALLOCATE"};

int64_t asValue(uint64_t bits) {
  return static_cast<int64_t>(bits);
}

bool typeAt(const TypeValue* pairs, size_t count, size_t i, uint64_t type) {
  return i < count && pairs[i].first == type;
}

}  // namespace

bool isRootedOp(uint8_t op) {
  return op == 1 || op == 2 || op == 3 || op == 4 || op == 5 || op == 12;
}

size_t collectiveEndPairs(const CollectiveEnd& end, TypeValue (&pairs)[5]) {
  size_t n = 0;
  pairs[n++] = {kCollectiveOpType, int64_t{end.op} + 1};
  pairs[n++] = {kGlobalOpSendSizeType, asValue(end.sent)};
  pairs[n++] = {kGlobalOpRecvSizeType, asValue(end.received)};
  if (isRootedOp(end.op) || end.root != kNoRoot)
    pairs[n++] = {kGlobalOpRootType, asValue(end.root)};
  pairs[n++] = {kGlobalOpCommType, asValue(end.commId)};
  return n;
}

// Only the exact form collectiveEndPairs writes: anything else stays Generic, so that
// writing the rebuilt event gives back the same pairs.
size_t matchCollectiveEnd(const TypeValue* pairs, size_t count, CollectiveEnd& end) {
  if (!typeAt(pairs, count, 0, kCollectiveOpType) || pairs[0].second < 1 || pairs[0].second > 256 ||
      !typeAt(pairs, count, 1, kGlobalOpSendSizeType) ||
      !typeAt(pairs, count, 2, kGlobalOpRecvSizeType))
    return 0;
  end.op = static_cast<uint8_t>(pairs[0].second - 1);
  end.sent = static_cast<uint64_t>(pairs[1].second);
  end.received = static_cast<uint64_t>(pairs[2].second);
  size_t next = 3;
  end.root = kNoRoot;
  if (typeAt(pairs, count, next, kGlobalOpRootType)) {
    const int64_t root = pairs[next++].second;
    if (root < 0 || root > int64_t{std::numeric_limits<uint32_t>::max()}) return 0;
    end.root = static_cast<uint64_t>(root);
    if (!isRootedOp(end.op) && end.root == kNoRoot) return 0;  // never written so
  } else if (isRootedOp(end.op)) {
    return 0;
  }
  if (!typeAt(pairs, count, next, kGlobalOpCommType) || pairs[next].second < 1) return 0;
  end.commId = static_cast<uint64_t>(pairs[next].second);
  return next + 1;
}

std::string collectivePcfText() {
  std::string out = "\n\nEVENT_TYPE\n0    " + std::to_string(kCollectiveBeginType) +
                    "    mtf: MPI collective begins\nVALUES\n1      Begin\n";
  out += "\n\nEVENT_TYPE\n0    " + std::to_string(kCollectiveOpType) + "    " + kOpLabel +
         "\nVALUES\n";
  for (size_t op = 0; op < std::size(kOpNames); ++op)
    out += std::to_string(op + 1) + "      " + kOpNames[op] + "\n";
  out += "\n\nEVENT_TYPE\n";
  out += "1    50100001    Send Size in MPI Global OP\n";
  out += "1    50100002    Recv Size in MPI Global OP\n";
  out += "1    50100003    Root in MPI Global OP\n";
  out += "1    50100004    Communicator in MPI Global OP\n";
  return out;
}

bool marksMtfCollectives(const Pcf& pcf) {
  const std::string* label = pcf.typeLabel(kCollectiveOpType);
  return label && *label == kOpLabel;
}

bool marksMtfCollectives(const std::string& pcfText) {
  return pcfText.find(std::to_string(kCollectiveOpType) + "    " + kOpLabel) != std::string::npos;
}

}  // namespace mtf::paraver
