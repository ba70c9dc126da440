// Facts about Extrae's event types and the names this converter gives to what it keeps
// of Paraver in the model (attributes, properties, region descriptions), shared by the
// reader and the writer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace mtf::paraver {

// MPI call groups (value = the call, 0 = leaving it).
inline bool isMpiCallType(uint64_t type) {
  return type >= 50000001 && type <= 50000005;
}
// Function events: 60000019 user functions; 60000018 and 60000023 are Extrae's OpenMP
// outlined-function and task-function types, which follow the same enter/exit rule.
inline bool isFunctionType(uint64_t type) {
  return type == 60000019 || type == 60000018 || type == 60000023;
}
inline bool isCounterType(uint64_t type) {
  return type >= 42000000 && type <= 42999999;
}

// Extrae's other begin/end types, decided from the .pcf (the rule, written down): a type
// whose VALUES label 0 as "not inside" (a label that starts with "End", "Outside",
// "close" or "Close") and name at least one other value: a non-zero value opens an
// interval, 0 closes the innermost open one of that type (OpenMP parallel regions,
// worksharings, task functions, taskgroups, pthread functions, Extrae's application,
// initialisation and flushing intervals, COMPSs' runtime and tasks). Excepted, as they
// mark points that are never closed: the sampling types (30000000-30999999), the callers
// and caller lines at MPI calls (70000000-89999999), and the "line and file" companions
// (label ending "line and file", or "line" as Extrae 2 wrote it: "User function line"),
// written beside their function type, entering with it and 0 when it leaves;
// and 60000027 ("Within Taskgroup region"), which Extrae opens on the line of the
// taskgroup-start call (60000025), after it, and closes after the taskgroup-end call: as
// a region it would cross the start call, breaking the nesting.
bool isBeginEndLabel(std::string_view zeroLabel);
bool isBeginEndType(uint64_t type, std::string_view typeLabel, std::string_view zeroLabel,
                    size_t namedNonZeroValues);

inline constexpr uint64_t kMpiPointToPointType = 50000001;
inline constexpr uint64_t kMpiCollectiveType = 50000002;
inline constexpr uint64_t kMpiOtherType = 50000003;
inline constexpr uint64_t kUserFunctionType = 60000019;
inline constexpr uint64_t kFirstCounterType = 42000050;
inline constexpr uint64_t kWithinTaskgroupType = 60000027;

// Event attributes carrying what a Paraver record has and the model event does not.
// Each is attached only when it differs from the default, so they are rare.
inline constexpr std::string_view kCpuAttribute = "paraver:cpu";  // default: location id + 1
inline constexpr std::string_view kNewLineAttribute = "paraver:new_line";  // starts a new "2:" line
inline constexpr std::string_view kLogicalSendAttribute = "paraver:logical_send";
// The true time of an event the reader had to delay to keep its location in time order.
inline constexpr std::string_view kTimeAttribute = "paraver:time";
inline constexpr std::string_view kLogicalRecvAttribute = "paraver:logical_recv";
inline constexpr std::string_view kGlobalOpAttribute = "paraver:global_op";  // type-4 op id
inline constexpr std::string_view kCommIdAttribute = "paraver:comm_id";      // type-4 comm

// Definitions::info.properties keys.
inline constexpr const char* kHeaderProperty = "paraver.header";
inline constexpr const char* kCommunicatorsProperty = "paraver.communicators";
inline constexpr const char* kCommentsProperty = "paraver.comments";
inline constexpr const char* kPcfProperty = "paraver.pcf";
inline constexpr const char* kRowProperty = "paraver.row";

// A region made from a .pcf value has the description "paraver TYPE VALUE"; a metric
// member made from a counter type has the description "paraver TYPE".
std::string regionTag(uint64_t type, int64_t value);
bool parseRegionTag(std::string_view description, uint64_t& type, int64_t& value);
std::string metricTag(uint64_t type);
bool parseMetricTag(std::string_view description, uint64_t& type);

// OTF2_Type values used for attributes and metrics.
inline constexpr uint8_t kTypeUint8 = 1;
inline constexpr uint8_t kTypeUint32 = 3;
inline constexpr uint8_t kTypeUint64 = 4;
inline constexpr uint8_t kTypeInt64 = 8;

// The companion file of a trace: "x.prv" or "x.prv.gz" -> "x" + extension.
std::string companionPath(const std::string& prvPath, const char* extension);

}  // namespace mtf::paraver
