// Shared pieces of the OTF2 reader and writer: RAII handles around the OTF2 C objects,
// error checking, and the conversions between OTF2 values and the model's 64-bit fields.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace mtf::otf2 {

// Appends an OTF2 value to a model record's fields: signed values as their two's
// complement bits, so they round-trip exactly.
template <typename T>
uint64_t fieldBits(T value) {
  if constexpr (std::is_signed_v<T>)
    return static_cast<uint64_t>(static_cast<int64_t>(value));
  else
    return static_cast<uint64_t>(value);
}
template <typename T>
void appendField(std::vector<uint64_t>& fields, T value) {
  fields.push_back(fieldBits(value));
}

// Owning handles: every OTF2 object is released by its destructor.
struct ReaderCloser {
  void operator()(OTF2_Reader* r) const { OTF2_Reader_Close(r); }
};
struct ArchiveCloser {
  void operator()(OTF2_Archive* a) const { OTF2_Archive_Close(a); }
};
struct AttributeListDeleter {
  void operator()(OTF2_AttributeList* l) const { OTF2_AttributeList_Delete(l); }
};
struct GlobalDefReaderCallbacksDeleter {
  void operator()(OTF2_GlobalDefReaderCallbacks* c) const {
    OTF2_GlobalDefReaderCallbacks_Delete(c);
  }
};
struct DefReaderCallbacksDeleter {
  void operator()(OTF2_DefReaderCallbacks* c) const { OTF2_DefReaderCallbacks_Delete(c); }
};
struct EvtReaderCallbacksDeleter {
  void operator()(OTF2_EvtReaderCallbacks* c) const { OTF2_EvtReaderCallbacks_Delete(c); }
};

using ReaderHandle = std::unique_ptr<OTF2_Reader, ReaderCloser>;
using ArchiveHandle = std::unique_ptr<OTF2_Archive, ArchiveCloser>;
using AttributeListHandle = std::unique_ptr<OTF2_AttributeList, AttributeListDeleter>;
using GlobalDefCallbacksHandle =
    std::unique_ptr<OTF2_GlobalDefReaderCallbacks, GlobalDefReaderCallbacksDeleter>;
using DefCallbacksHandle = std::unique_ptr<OTF2_DefReaderCallbacks, DefReaderCallbacksDeleter>;
using EvtCallbacksHandle = std::unique_ptr<OTF2_EvtReaderCallbacks, EvtReaderCallbacksDeleter>;

// Routes the OTF2 library's own error messages into a per-thread buffer instead of
// stderr, so that errors reach the user once, inside our exception message.
void installErrorHandler();
// The last message the OTF2 library reported on this thread ("" if none), then clears it.
std::string takeLibraryMessage();
// Every message the library reported on this thread since the last take (at most the last
// 8), innermost layer first, joined by "; "; then clears them.
std::string takeLibraryMessageChain();
// "NAME: description" of an OTF2 error code plus the library's message, if any.
std::string describe(OTF2_ErrorCode code);

// The model keeps an OTF2_AttributeValue as 64 bits, decided by its type: unsigned
// integers and references zero-extended, signed integers sign-extended, a float as its
// 32 raw bits, a double as its 64 raw bits. Lossless both ways.
uint64_t valueBits(OTF2_Type type, OTF2_AttributeValue value);
OTF2_AttributeValue valueFromBits(OTF2_Type type, uint64_t bits);

// OTF2 property names allow only [A-Z0-9_] (case-insensitive) after "NAMESPACE::", while
// the model's keys are free text ("paraver.pcf"). Encoding: a-z -> A-Z, 0-9 kept, every
// other byte (including '_' and A-Z) -> '_' + two upper-case hex digits.
std::string encodePropertyKey(std::string_view key);
// Inverse of encodePropertyKey; false if `name` is not a valid encoding.
bool decodePropertyKey(std::string_view name, std::string& key);
inline constexpr std::string_view kPropertyNamespace = "MTF::";
// Properties of other namespaces (e.g. "OTF2::MPI_COMMUNICATOR", "SCOREP::...") are kept
// as "otf2:<NAME>" in TraceInfo::properties and written back under their own name.
inline constexpr std::string_view kForeignPropertyPrefix = "otf2:";

// Names of the definitions that carry model kinds OTF2 lacks (see the writer).
inline constexpr std::string_view kStateParameter = "mtf:state";
inline constexpr std::string_view kStateEndAttribute = "mtf:state_end";
inline constexpr std::string_view kGenericParameter = "mtf:generic";
inline constexpr std::string_view kGenericTypeAttribute = "mtf:generic_type";
// States as regions (otf2_convention.hpp): the Enter's count of events of the state's own
// location written before it, the property naming a states location's owner, and the
// description of a state's region ("mtf:state 3").
inline constexpr std::string_view kStatePositionAttribute = "mtf:state_position";
inline constexpr std::string_view kStatesOfProperty = "mtf:states_of";
inline constexpr std::string_view kStateRegionPrefix = "mtf:state ";
// On an MpiSend written before the Leave it followed (an Extrae blocking send: see
// otf2_convention.hpp); the reader puts it back after that Leave.
inline constexpr std::string_view kSendAfterLeaveAttribute = "mtf:send_after_leave";
// The property the Paraver reader keeps the .prv header in (converters/paraver/extrae.hpp):
// the trace came from Paraver.
inline constexpr std::string_view kParaverHeaderProperty = "paraver.header";

}  // namespace mtf::otf2
