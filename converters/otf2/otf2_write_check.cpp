#include "converters/otf2/otf2_write_check.hpp"

#include <memory>
#include <string>

#include "converters/otf2/otf2_common.hpp"
#include "util/error.hpp"

namespace mtf::otf2 {

namespace {

[[noreturn]] void unreadable(const std::filesystem::path& anchor, const std::string& what) {
  throw IoError(anchor.string(), "OTF2 cannot read the archive just written: " + what);
}

struct GlobalDefReaderCloser {
  OTF2_Reader* reader;
  void operator()(OTF2_GlobalDefReader* r) const { OTF2_Reader_CloseGlobalDefReader(reader, r); }
};

uint64_t readAllGlobalDefinitions(const std::filesystem::path& anchor, OTF2_Reader* reader) {
  std::unique_ptr<OTF2_GlobalDefReader, GlobalDefReaderCloser> defReader(
      OTF2_Reader_GetGlobalDefReader(reader), GlobalDefReaderCloser{reader});
  if (!defReader) unreadable(anchor, "global definitions: " + takeLibraryMessage());
  uint64_t records = 0;
  const OTF2_ErrorCode status =
      OTF2_Reader_ReadAllGlobalDefinitions(reader, defReader.get(), &records);
  if (status != OTF2_SUCCESS)
    unreadable(anchor,
               "global definitions, record " + std::to_string(records) + ": " + describe(status));
  return records;
}

}  // namespace

void checkArchiveReadsBack(const std::filesystem::path& anchor, uint64_t definitions) {
  takeLibraryMessage();  // only what the reader says below counts
  const ReaderHandle reader(OTF2_Reader_Open(anchor.c_str()));
  if (!reader) unreadable(anchor, takeLibraryMessageChain());
  OTF2_ErrorCode status = OTF2_Reader_SetSerialCollectiveCallbacks(reader.get());
  uint64_t declared = 0;
  if (status == OTF2_SUCCESS)
    status = OTF2_Reader_GetNumberOfGlobalDefinitions(reader.get(), &declared);
  if (status != OTF2_SUCCESS) unreadable(anchor, describe(status));
  const uint64_t read = readAllGlobalDefinitions(anchor, reader.get());
  if (declared != definitions || read != definitions)
    unreadable(anchor, "wrote " + std::to_string(definitions) + " global definitions, the " +
                           "anchor declares " + std::to_string(declared) + ", the file holds " +
                           std::to_string(read));
}

}  // namespace mtf::otf2
