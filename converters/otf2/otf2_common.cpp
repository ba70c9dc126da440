#include "converters/otf2/otf2_common.hpp"

#include <bit>
#include <cstdarg>
#include <cstdio>
#include <deque>
#include <mutex>

namespace mtf::otf2 {

namespace {

// The library reports an error once per layer it passes through, innermost first; the
// last message is the outermost. The most recent few are kept.
constexpr size_t kKeptMessages = 8;
thread_local std::deque<std::string> libraryMessages;

OTF2_ErrorCode keepMessage(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code,
                           const char* format, va_list args) {
  char buffer[512];
  std::vsnprintf(buffer, sizeof buffer, format ? format : "", args);
  if (libraryMessages.size() == kKeptMessages) libraryMessages.pop_front();
  libraryMessages.emplace_back(buffer);
  return code;
}

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

void installErrorHandler() {
  static std::once_flag once;
  std::call_once(once, [] { OTF2_Error_RegisterCallback(&keepMessage, nullptr); });
}

std::string takeLibraryMessage() {
  std::string message;
  if (!libraryMessages.empty()) message = std::move(libraryMessages.back());
  libraryMessages.clear();
  return message;
}

std::string takeLibraryMessageChain() {
  std::string chain;
  for (const std::string& message : libraryMessages) chain += (chain.empty() ? "" : "; ") + message;
  libraryMessages.clear();
  return chain;
}

std::string describe(OTF2_ErrorCode code) {
  std::string text =
      std::string(OTF2_Error_GetName(code)) + " (" + OTF2_Error_GetDescription(code) + ")";
  const std::string detail = takeLibraryMessage();
  if (!detail.empty()) text += ": " + detail;
  return text;
}

uint64_t valueBits(OTF2_Type type, OTF2_AttributeValue value) {
  switch (type) {
    case OTF2_TYPE_NONE:
      return 0;
    case OTF2_TYPE_UINT8:
      return value.uint8;
    case OTF2_TYPE_UINT16:
      return value.uint16;
    case OTF2_TYPE_UINT32:
      return value.uint32;
    case OTF2_TYPE_UINT64:
      return value.uint64;
    case OTF2_TYPE_INT8:
      return static_cast<uint64_t>(int64_t{value.int8});
    case OTF2_TYPE_INT16:
      return static_cast<uint64_t>(int64_t{value.int16});
    case OTF2_TYPE_INT32:
      return static_cast<uint64_t>(int64_t{value.int32});
    case OTF2_TYPE_INT64:
      return static_cast<uint64_t>(value.int64);
    case OTF2_TYPE_FLOAT:
      return std::bit_cast<uint32_t>(value.float32);
    case OTF2_TYPE_DOUBLE:
      return std::bit_cast<uint64_t>(value.float64);
    case OTF2_TYPE_LOCATION:
      return value.locationRef;
    default:
      return value.uint32;  // every other type is a 32-bit definition reference
  }
}

OTF2_AttributeValue valueFromBits(OTF2_Type type, uint64_t bits) {
  OTF2_AttributeValue value;
  value.uint64 = 0;
  switch (type) {
    case OTF2_TYPE_NONE:
      break;
    case OTF2_TYPE_UINT8:
      value.uint8 = static_cast<uint8_t>(bits);
      break;
    case OTF2_TYPE_UINT16:
      value.uint16 = static_cast<uint16_t>(bits);
      break;
    case OTF2_TYPE_UINT32:
      value.uint32 = static_cast<uint32_t>(bits);
      break;
    case OTF2_TYPE_UINT64:
      value.uint64 = bits;
      break;
    case OTF2_TYPE_INT8:
      value.int8 = static_cast<int8_t>(bits);
      break;
    case OTF2_TYPE_INT16:
      value.int16 = static_cast<int16_t>(bits);
      break;
    case OTF2_TYPE_INT32:
      value.int32 = static_cast<int32_t>(bits);
      break;
    case OTF2_TYPE_INT64:
      value.int64 = static_cast<int64_t>(bits);
      break;
    case OTF2_TYPE_FLOAT:
      value.float32 = std::bit_cast<float>(static_cast<uint32_t>(bits));
      break;
    case OTF2_TYPE_DOUBLE:
      value.float64 = std::bit_cast<double>(bits);
      break;
    case OTF2_TYPE_LOCATION:
      value.locationRef = bits;
      break;
    default:
      value.uint32 = static_cast<uint32_t>(bits);
      break;
  }
  return value;
}

std::string encodePropertyKey(std::string_view key) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string name;
  for (const char c : key) {
    if (c >= 'a' && c <= 'z') {
      name += static_cast<char>(c - 'a' + 'A');
    } else if (c >= '0' && c <= '9') {
      name += c;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      name += '_';
      name += kHex[byte >> 4];
      name += kHex[byte & 15];
    }
  }
  return name;
}

bool decodePropertyKey(std::string_view name, std::string& key) {
  key.clear();
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c >= 'A' && c <= 'Z') {
      key += static_cast<char>(c - 'A' + 'a');
    } else if (c >= '0' && c <= '9') {
      key += c;
    } else if (c == '_' && i + 2 < name.size() && hexDigit(name[i + 1]) >= 0 &&
               hexDigit(name[i + 2]) >= 0) {
      key += static_cast<char>(hexDigit(name[i + 1]) * 16 + hexDigit(name[i + 2]));
      i += 2;
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace mtf::otf2
