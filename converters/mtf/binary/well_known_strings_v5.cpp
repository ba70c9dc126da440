// The well-known strings version 5 adds (docs/mtf-format.md appendix C, its last blocks).
#include <iterator>
#include <vector>

#include "converters/mtf/binary/well_known_strings.hpp"

namespace mtf::mtfbin {

namespace {

// Version 5 on: what mtf's own readers define in every trace of a format (the names and
// descriptions of the attributes carrying Paraver's and TAU's record fields).
constexpr std::string_view kReaderStrings[] = {
    "Paraver record field",
    "TAU TriggerValue written as one record",
    "TAU TriggerValue: microseconds from the leading 0 to the value",
    "TAU TriggerValue: microseconds from the value to the trailing 0",
    "paraver:comm_id",
    "paraver:cpu",
    "paraver:global_op",
    "paraver:logical_recv",
    "paraver:logical_send",
    "paraver:message",
    "paraver:new_line",
    "paraver:peer_thread",
    "paraver:time",
    "tau:trigger_end_delay",
    "tau:trigger_single",
    "tau:trigger_value_delay",
};

// The lines every TAU edf ends with (TAU's tracer events), and those newer TAUs add (its
// one-sided messages), newlines included.
constexpr std::string_view kTauTracerLines = R"(60000 TRACER 0 "EV_INIT" none
60001 TRACER 0 "FLUSH" EntryExit
60003 TRACER 0 "FLUSH_CLOSE" none
60004 TRACER 0 "FLUSH_INITM" none
60005 TRACER 0 "WALL_CLOCK" none
60006 TRACER 0 "CONT_EVENT" none
60007 TAU_MESSAGE -7 "MESSAGE_SEND" par
60008 TAU_MESSAGE -8 "MESSAGE_RECV" par
)";
constexpr std::string_view kTauOneSidedLines =
    R"(70000 TAUEVENT 0 "ONESIDED_MESSAGE_SEND" TriggerValue
70001 TAUEVENT 0 "ONESIDED_MESSAGE_RECV" TriggerValue
70005 TAUEVENT 0 "ONESIDED_MESSAGE_RECIPROCAL_SEND" TriggerValue
70006 TAUEVENT 0 "ONESIDED_MESSAGE_RECIPROCAL_RECV" TriggerValue
70004 TAUEVENT 0 "ONESIDED_MESSAGE" TriggerValue
70002 TAUEVENT 0 "ONESIDED_MESSAGE_ID_TriggerValueT1" TriggerValue
70003 TAUEVENT 0 "ONESIDED_MESSAGE_ID_TriggerValueT2" TriggerValue
)";

// What Extrae writes into every .pcf besides its default states: the options before
// them, the gradient colours and the gradient names.
constexpr std::string_view kParaverOptions = R"(DEFAULT_OPTIONS

LEVEL               THREAD
UNITS               NANOSEC
LOOK_BACK           100
SPEED               1
FLAG_ICONS          ENABLED
NUM_OF_STATE_COLORS 1000
YMAX_SCALE          37


DEFAULT_SEMANTIC

THREAD_FUNC          State As Is


)";
constexpr std::string_view kParaverGradientColours = R"(GRADIENT_COLOR
0    {0,255,2}
1    {0,244,13}
2    {0,232,25}
3    {0,220,37}
4    {0,209,48}
5    {0,197,60}
6    {0,185,72}
7    {0,173,84}
8    {0,162,95}
9    {0,150,107}
10    {0,138,119}
11    {0,127,130}
12    {0,115,142}
13    {0,103,154}
14    {0,91,166}
)";
constexpr std::string_view kParaverGradientNames = R"(GRADIENT_NAMES
0    Gradient 0
1    Grad. 1/MPI Events
2    Grad. 2/OMP Events
3    Grad. 3/OMP locks
4    Grad. 4/User func
5    Grad. 5/User Events
6    Grad. 6/General Events
7    Grad. 7/Hardware Counters
8    Gradient 8
9    Gradient 9
10    Gradient 10
11    Gradient 11
12    Gradient 12
13    Gradient 13
14    Gradient 14
)";

}  // namespace

std::span<const std::string_view> wellKnownStringsOfVersion5() {
  static const std::vector<std::string_view> added = [] {
    std::vector<std::string_view> v(std::begin(kReaderStrings), std::end(kReaderStrings));
    for (std::string_view text : {kTauTracerLines, kTauOneSidedLines, kParaverOptions,
                                  kParaverGradientColours, kParaverGradientNames})
      v.push_back(text);
    return v;
  }();
  return added;
}

}  // namespace mtf::mtfbin
