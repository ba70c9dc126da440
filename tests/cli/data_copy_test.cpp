// The real traces in tests/data are copies of ../shared/traces (the project's shared
// folder, present in CI and on the developers' machines, absent from a public clone).
// Where ../shared is there, every copied file must equal its source byte for byte, so a
// test never passes on a trace that drifted from what the real tool wrote.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli/run_command.hpp"

namespace fs = std::filesystem;

namespace {

TEST(TestData, CopiesEqualTheirSources) {
  const fs::path shared = fs::path(MTF_SHARED_DIR) / "traces";
  if (!fs::is_directory(shared))
    GTEST_SKIP() << "needs " << shared.string()
                 << " (the project's shared folder beside the repository) to compare the "
                    "copies in tests/data with their sources";
  const fs::path data = MTF_DATA_DIR;
  size_t compared = 0;
  for (const auto& entry : fs::recursive_directory_iterator(data)) {
    if (!entry.is_regular_file()) continue;
    const fs::path relative = fs::relative(entry.path(), data);
    // Added by the project: each trace's license, and the files at the top of tests/data.
    if (relative.filename() == "LICENSE" || !relative.has_parent_path()) continue;
    // Taken from its public repository directly (tests/data/README.md names it).
    if (relative.parent_path() == "paraver/pypop-epoch-2proc") continue;
    const fs::path source = shared / relative;
    ASSERT_TRUE(fs::exists(source)) << relative << " has no source in " << shared;
    EXPECT_EQ(mtf::test::readFile(entry.path().string()), mtf::test::readFile(source.string()))
        << relative;
    ++compared;
  }
  EXPECT_GT(compared, 50u);
}

TEST(TestData, EveryTraceFolderCarriesItsLicense) {
  size_t folders = 0;
  for (const char* format : {"otf2", "paraver", "tau"}) {
    for (const auto& trace : fs::directory_iterator(fs::path(MTF_DATA_DIR) / format)) {
      EXPECT_TRUE(fs::is_regular_file(trace.path() / "LICENSE")) << trace.path();
      ++folders;
    }
  }
  EXPECT_EQ(folders, 10u);
}

}  // namespace
