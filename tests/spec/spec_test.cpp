// docs/mtf-format.md against the code: its worked example is what the writer writes
// today (byte for byte, and the file the document quotes), its kind tables are the
// model's, and a reader written from the document alone (mtf_spec_reader.py) decodes
// the example, generated archives (Huffman and sparse time planes) and real traces'
// archives to exactly what `mtf dump` prints.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <tuple>

#include "cli/run_command.hpp"
#include "example_trace.hpp"

namespace mtf::test {
namespace {

namespace fs = std::filesystem;

const std::string kSource = MTF_SOURCE_DIR;
const std::string kDoc = kSource + "/docs/mtf-format.md";
const std::string kExample = kSource + "/tests/spec/example.mtf";

// The lines of the fenced block ```TAG of the document.
std::vector<std::string> docBlock(const std::string& tag) {
  std::ifstream in(kDoc);
  std::vector<std::string> lines;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (inside && line == "```") break;
    if (inside) lines.push_back(line);
    if (line == "```" + tag) inside = true;
  }
  return lines;
}

TEST(SpecExample, WriterStillWritesTheDocumentedBytes) {
  const std::string dir = freshTempDir("spec-example");
  mtf::spec::writeExampleArchive(dir + "/example.mtf");
  const std::string written = readFile(dir + "/example.mtf");
  EXPECT_EQ(written, readFile(kExample))
      << "the writer's bytes changed: regenerate tests/spec/example.mtf with "
         "build/tests/spec/mtf-spec-example and update docs/mtf-format.md section 12";
  // The document's hex dump is the same file.
  std::string quoted;
  for (const std::string& line : docBlock("mtf-example-hex")) {
    std::istringstream words(line.substr(line.find(':') + 1));
    std::string hex;
    while (words >> hex) quoted += static_cast<char>(std::stoi(hex, nullptr, 16));
  }
  EXPECT_EQ(quoted, readFile(kExample)) << "docs/mtf-format.md quotes other bytes";
  fs::remove_all(dir);
}

// Appendices A and B list exactly the kinds of src/model/*.def, numbered by position.
std::vector<std::string> defTable(const std::string& file, const std::string& macro) {
  std::ifstream in(kSource + "/src/model/" + file);
  const std::regex entry(macro + R"(\((\w+), \"(.*)\"\))");
  std::vector<std::string> lines;
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (!std::regex_match(line, m, entry)) continue;
    std::string row = std::to_string(lines.size()) + " " + m[1].str();
    if (!m[2].str().empty()) row += " " + m[2].str();
    lines.push_back(row);
  }
  return lines;
}

TEST(SpecExample, KindTablesAreTheModels) {
  EXPECT_EQ(docBlock("mtf-event-kinds"), defTable("event_kinds.def", "MTF_EVENT"));
  EXPECT_EQ(docBlock("mtf-definition-kinds"), defTable("definition_kinds.def", "MTF_DEF"));
}

// The Python reader's output against `mtf dump` of the same archive.
void expectReaderAgrees(const std::string& archive) {
  const CommandResult python = run("/usr/bin/python3 -B " + kSource +
                                   "/tests/spec/mtf_spec_reader.py '" + archive + "' " + kDoc);
  ASSERT_EQ(python.status, 0) << python.output.substr(0, 2000);
  const CommandResult dump = run(mtfProgram() + " dump '" + archive + "'", false);
  ASSERT_EQ(dump.status, 0);
  EXPECT_EQ(python.output, dump.output) << archive;
}

// Column coding 3 needs zstd in Python (Debian python3-zstandard, scripts/install-deps.sh).
bool pythonPresent(std::string& why) {
  if (!fs::exists("/usr/bin/python3")) {
    why = "/usr/bin/python3 is not installed";
    return false;
  }
  if (run("/usr/bin/python3 -c 'import zstandard'").status == 0) return true;
  why = "python3-zstandard is not installed (scripts/install-deps.sh)";
  return false;
}

// True if the spec reader finds a column dictionary (the Structure chunk's seventh section) in the
// archive.
bool hasColumnDictionary(const std::string& archive) {
  const CommandResult python =
      run("/usr/bin/python3 -B -c 'import sys; sys.path.insert(0, \"" + kSource +
          "/tests/spec\"); import mtf_spec_reader as m; "
          "sys.exit(0 if m.Archive(open(sys.argv[1], \"rb\").read()).dictionary() else 3)' '" +
          archive + "'");
  return python.status == 0;
}

TEST(SpecReader, DecodesTheExampleAsMtfDump) {
  std::string why;
  if (!pythonPresent(why)) GTEST_SKIP() << why;
  expectReaderAgrees(kExample);
  expectReaderAgrees(kSource + "/tests/golden/archives/example.v2.mtf");  // version 2
  expectReaderAgrees(kSource + "/tests/golden/archives/example.v3.mtf");  // version 3
  expectReaderAgrees(kSource + "/tests/golden/archives/example.v4.mtf");  // version 4
  expectReaderAgrees(kSource + "/tests/golden/archives/example.v5.mtf");  // version 5
  expectReaderAgrees(kSource + "/tests/golden/archives/opencl-l5.v5.mtf");
  expectReaderAgrees(kSource + "/tests/golden/archives/example.v6.mtf");  // version 6
  expectReaderAgrees(kSource + "/tests/golden/archives/opencl-l5.v6.mtf");
  expectReaderAgrees(kSource + "/tests/golden/archives/example.v7.mtf");  // version 7
  expectReaderAgrees(kSource + "/tests/golden/archives/opencl-l5.v7.mtf");
  // Version 8: range coded chunks of coding 6 (a TAU and a Paraver trace).
  expectReaderAgrees(kSource + "/tests/golden/archives/example.v8.mtf");
  expectReaderAgrees(kSource + "/tests/golden/archives/opencl-l5.v8.mtf");
  expectReaderAgrees(kSource + "/tests/golden/archives/paraver-kernel-qsort.v8.mtf");
  // Version 4's derived texts and properties as pieces of them (a TAU trace).
  expectReaderAgrees(kSource + "/tests/golden/archives/opencl-l5.v4.mtf");
  // Version 3's texts that refer to the properties (a TAU edf).
  expectReaderAgrees(kSource + "/tests/golden/archives/opencl-l5.v3.mtf");
}

// Chunks of thousands of noisy events: Huffman-coded and sparse time planes.
TEST(SpecReader, DecodesGeneratedAndRealArchives) {
  std::string why;
  if (!pythonPresent(why)) GTEST_SKIP() << why;
  const std::string dir = freshTempDir("spec-reader");
  const CommandResult gen =
      run(genProgram() + " wavefront --ranks 4 --iterations 20 --inner 40 --noise 0.2 -o " + dir +
          "/wf.mtf");
  ASSERT_EQ(gen.status, 0) << gen.output;
  expectReaderAgrees(dir + "/wf.mtf");
  expectReaderAgrees(kSource + "/tests/golden/archives/gen-wavefront-4.v1.mtf");  // coding 1
  expectReaderAgrees(kSource + "/tests/golden/archives/gen-wavefront-4.v2.mtf");  // coding 2
  expectReaderAgrees(kSource + "/tests/golden/archives/gen-wavefront-4.v3.mtf");  // coding 3
  expectReaderAgrees(kSource + "/tests/golden/archives/example.v2.mtf");          // section 12, v2
  for (const char* trace : {"tau/opencl-l9", "otf2/pipit-ping-pong-papi/traces.otf2",
                            "paraver/paraver-kernel-qsort/qsort_beo3.prv"}) {
    const std::string out = dir + "/real.mtf";
    const CommandResult conversion =
        run(mtfProgram() + " -q convert " + MTF_DATA_DIR + "/" + trace + " -o " + out + " --force");
    ASSERT_EQ(conversion.status, 0) << conversion.output;
    expectReaderAgrees(out);
  }
  fs::remove_all(dir);
}

// A GPU trace whose metric locations repeat each other: its archive gets a column
// dictionary (section 10.7), and chunks compressed with it decode from the document too.
// `mtf dump` prints no properties: the spec reader's own properties of version 4 (pieces
// of the definitions' texts, 5.3) must be the files the trace's readers keep in them.
TEST(SpecReader, DecodesThePropertiesAsTheFilesTheyKeep) {
  std::string why;
  if (!pythonPresent(why)) GTEST_SKIP() << why;
  const std::string dir = freshTempDir("spec-properties");
  const std::string data = MTF_DATA_DIR;
  for (const auto& [trace, property, file] :
       {std::tuple<std::string, std::string, std::string>{"tau/opencl-l9", "tau.edf.0",
                                                          "tau/opencl-l9/events.0.edf"},
        {"paraver/paraver-kernel-qsort/qsort_beo3.prv", "paraver.pcf",
         "paraver/paraver-kernel-qsort/qsort_beo3.pcf"}}) {
    const std::string out = dir + "/p.mtf";
    ASSERT_EQ(
        run(mtfProgram() + " -q convert " + data + "/" + trace + " -o " + out + " --force").status,
        0);
    const CommandResult python =
        run("/usr/bin/python3 -B -c 'import sys; sys.path.insert(0, \"" + kSource +
            "/tests/spec\"); import mtf_spec_reader as m; a = m.Archive(open(sys.argv[1], "
            "\"rb\").read()); "
            "d = m.Definitions(a.structure(2), m.kind_tables(sys.argv[2])[1], a.version, "
            "m.well_known_strings(sys.argv[2])); "
            "assert a.version == 9; "
            "sys.exit(0 if dict(d.properties)[sys.argv[3].encode()] == open(sys.argv[4], "
            "\"rb\").read() else 3)' '" +
            out + "' " + kDoc + " " + property + " '" + data + "/" + file + "'");
    EXPECT_EQ(python.status, 0) << trace << ": " << python.output.substr(0, 2000);
  }
  fs::remove_all(dir);
}

TEST(SpecReader, DecodesAnArchiveWithAColumnDictionary) {
  std::string why;
  if (!pythonPresent(why)) GTEST_SKIP() << why;
  const std::string dir = freshTempDir("spec-dictionary");
  const std::string out = dir + "/mi300.mtf";
  const CommandResult conversion = run(mtfProgram() + " -q convert " + MTF_DATA_DIR +
                                       "/otf2/fastotf2-mi300/traces.otf2 -o " + out);
  ASSERT_EQ(conversion.status, 0) << conversion.output;
  ASSERT_TRUE(hasColumnDictionary(out)) << "the test needs an archive with a dictionary";
  expectReaderAgrees(out);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mtf::test
