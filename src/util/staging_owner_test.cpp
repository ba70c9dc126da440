#include "util/staging_owner.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "util/safe_output.hpp"
#include "util/scratch_dir.hpp"

namespace fs = std::filesystem;

namespace mtf::staging {
namespace {

fs::path freshDir(const std::string& name) {
  return test::scratchDir("mtf-owner-" + name);
}

// An owner that has ended: a child that exited and was reaped.
Owner deadOwner() {
  const pid_t child = fork();
  if (child == 0) _exit(0);
  int status = 0;
  waitpid(child, &status, 0);
  Owner owner = currentProcess();
  owner.pid = child;
  return owner;
}

size_t entries(const fs::path& dir) {
  return std::distance(fs::directory_iterator(dir), fs::directory_iterator());
}

std::string text(const fs::path& file) {
  std::ifstream in(file);
  std::string s;
  std::getline(in, s);
  return s;
}

TEST(StagingOwner, OwnerFileRoundTrips) {
  const fs::path dir = freshDir("roundtrip");
  writeOwner(dir, currentProcess());
  const auto owner = readOwner(dir);
  ASSERT_TRUE(owner);
  EXPECT_EQ(owner->pid, getpid());
  EXPECT_NE(owner->startTime, 0u);
  EXPECT_EQ(ownerState(*owner), OwnerState::Alive);
  EXPECT_EQ(ownerState(deadOwner()), OwnerState::Dead);
  Owner reused = currentProcess();  // this pid, but another process's start time
  reused.startTime += 1;
  EXPECT_EQ(ownerState(reused), OwnerState::Dead);
  Owner elsewhere = currentProcess();
  elsewhere.host += "-other";
  EXPECT_EQ(ownerState(elsewhere), OwnerState::OtherHost);
}

TEST(StagingOwner, NamesAndMalformedOwners) {
  EXPECT_TRUE(isStagingName(".t.mtf.mtf-tmp-123"));
  EXPECT_FALSE(isStagingName("t.mtf.mtf-tmp-123"));
  EXPECT_FALSE(isStagingName(".t.mtf.mtf-tmp-"));
  const fs::path dir = freshDir("malformed");
  std::ofstream(dir / kOwnerFile) << "mtf-staging 1\nhost h\npid x\n";
  EXPECT_FALSE(readOwner(dir));
}

// A staging directory of a dead process of this host goes; one without mtf's owner file,
// one of a running process and one of another host stay.
TEST(StagingOwner, SafeOutputRemovesOnlyStaleOnes) {
  const fs::path dir = freshDir("stale");
  for (const char* name : {".a.mtf-tmp-1", ".b.mtf-tmp-2", ".c.mtf-tmp-3", ".d.mtf-tmp-4"})
    fs::create_directory(dir / name);
  writeOwner(dir / ".a.mtf-tmp-1", deadOwner());
  std::ofstream(dir / ".b.mtf-tmp-2" / "data") << "not mtf's";
  writeOwner(dir / ".c.mtf-tmp-3", currentProcess());
  Owner elsewhere = deadOwner();
  elsewhere.host += "-other";
  writeOwner(dir / ".d.mtf-tmp-4", elsewhere);
  {
    SafeOutput out(dir / "t.mtf", false);
    const auto owner = readOwner(out.stagingPath().parent_path());  // its own, recorded
    ASSERT_TRUE(owner);
    EXPECT_EQ(owner->pid, getpid());
  }
  EXPECT_FALSE(fs::exists(dir / ".a.mtf-tmp-1"));
  EXPECT_TRUE(fs::exists(dir / ".b.mtf-tmp-2" / "data"));
  EXPECT_TRUE(fs::exists(dir / ".c.mtf-tmp-3"));
  EXPECT_TRUE(fs::exists(dir / ".d.mtf-tmp-4"));
  EXPECT_EQ(entries(dir), 3u);
  // `mtf clean`: the other host's too, never a running owner's.
  for (const Leftover& l : findLeftovers(dir)) {
    if (l.state != OwnerState::Alive) {
      EXPECT_TRUE(removeLeftover(l));
    }
  }
  EXPECT_FALSE(fs::exists(dir / ".d.mtf-tmp-4"));
  EXPECT_TRUE(fs::exists(dir / ".c.mtf-tmp-3"));
}

// A commit killed after some moves: the journal undoes them, --force's old output returns.
TEST(StagingOwner, RollBackUndoesAnUnfinishedCommit) {
  const fs::path dir = freshDir("rollback");
  const fs::path staging = dir / ".t.otf2.mtf-tmp-7";
  fs::create_directories(staging / kReplacedDir);
  std::ofstream(dir / "t.otf2") << "new anchor";                     // moved into place
  std::ofstream(staging / kReplacedDir / "t.otf2") << "old anchor";  // what it replaced
  std::ofstream(staging / "t.def") << "new defs";                    // not moved yet
  std::ofstream(dir / "t.def") << "user's defs";                     // so not ours
  std::ofstream(staging / kJournalFile) << "t.otf2\nt.def\n";
  rollBack(staging, dir);
  EXPECT_EQ(text(dir / "t.otf2"), "old anchor");
  EXPECT_EQ(text(dir / "t.def"), "user's defs");
}

TEST(StagingOwner, NoRollBackAfterTheCommitPoint) {
  const fs::path dir = freshDir("committed");
  const fs::path staging = dir / ".t.mtf.mtf-tmp-8";
  fs::create_directories(staging);
  std::ofstream(dir / "t.mtf") << "finished";
  std::ofstream(staging / kJournalFile) << "t.mtf\n" << kCommittedLine << "\n";
  rollBack(staging, dir);
  EXPECT_EQ(text(dir / "t.mtf"), "finished");
}

// mtf-mpi's ranks remove their spools while rank 0 removes the staging directory: entries
// vanish under removeTree, which must still remove the directory (remove_all alone left it
// in every round of this test).
TEST(StagingOwner, RemoveTreeWhileAnotherThreadRemovesEntries) {
  constexpr int kFiles = 2000;
  for (int round = 0; round < 5; ++round) {
    const fs::path staging = freshDir("racing") / ".t.mtf.mtf-tmp-9";
    fs::create_directories(staging);
    for (int i = 0; i < kFiles; ++i) std::ofstream(staging / ("f" + std::to_string(i))) << 'x';
    std::thread other([&] {
      std::error_code ignored;
      for (int i = kFiles - 1; i >= 0; --i)
        fs::remove(staging / ("f" + std::to_string(i)), ignored);
    });
    EXPECT_TRUE(removeTree(staging)) << "round " << round;
    other.join();
    EXPECT_FALSE(fs::exists(staging)) << "round " << round;
  }
}

}  // namespace
}  // namespace mtf::staging
