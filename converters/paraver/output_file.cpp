#include "converters/paraver/output_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "util/error.hpp"

namespace mtf::paraver {

OutputFile::OutputFile(std::string path, bool gzip) : path_(std::move(path)) {
  if (gzip) {
    gz_.reset(gzopen(path_.c_str(), "wb6"));
    if (gz_) gzbuffer(gz_.get(), 1 << 18);
  } else {
    // Unbuffered: every write is a block of about a megabyte already (buffer_), which
    // stdio would copy again in part.
    plain_.reset(std::fopen(path_.c_str(), "wb"));
    if (plain_) std::setvbuf(plain_.get(), nullptr, _IONBF, 0);
  }
  if (!gz_ && !plain_) throw IoError(path_, std::string("cannot create: ") + std::strerror(errno));
}

void OutputFile::lines(std::string_view block) {
  if (!block_ || block.data() != block_.get()) return write(block);
  flush();
  writeOut(block);
}

std::span<char> OutputFile::blockMemory() {
  if (!block_) block_.reset(new char[kBufferSize]);
  return {block_.get(), kBufferSize};
}

void OutputFile::flush() {
  writeOut(buffer_);
  buffer_.clear();
}

void OutputFile::writeOut(std::string_view text) {
  if (text.empty()) return;
  bool ok = false;
  if (gz_) {
    ok = gzwrite(gz_.get(), text.data(), static_cast<unsigned>(text.size())) ==
         static_cast<int>(text.size());
  } else if (plain_) {
    ok = std::fwrite(text.data(), 1, text.size(), plain_.get()) == text.size();
  }
  if (!ok) throw IoError(path_, "write failed (disk full?)");
}

void OutputFile::close() {
  flush();
  if (gz_) {
    const int status = gzclose(gz_.release());
    if (status != Z_OK) throw IoError(path_, "closing the compressed stream failed");
  }
  if (plain_) {
    std::FILE* f = plain_.release();
    const bool flushed = std::fflush(f) == 0;
    if (std::fclose(f) != 0 || !flushed) throw IoError(path_, "write failed (disk full?)");
  }
}

void OutputFile::reserveHead(size_t bytes) {
  if (!plain_ || std::fseek(plain_.get(), static_cast<long>(bytes), SEEK_SET) != 0)
    throw IoError(path_, "cannot leave room for the header");
  reserved_ = bytes;
}

void OutputFile::closeWithHead(std::string_view head) {
  flush();
  if (head.size() == reserved_) {
    if (std::fseek(plain_.get(), 0, SEEK_SET) != 0 ||
        std::fwrite(head.data(), 1, head.size(), plain_.get()) != head.size())
      throw IoError(path_, "write failed (disk full?)");
    close();
    return;
  }
  close();
  copyAfterHead(head, nullptr);
}

void OutputFile::closeRewritingLines(std::string_view head, const LineRewrite& rewrite) {
  close();
  copyAfterHead(head, &rewrite);
}

// Writes `head` and the file after its reserved head (each line through `rewrite`, if
// given) to a copy that then replaces the file.
void OutputFile::copyAfterHead(std::string_view head, const LineRewrite* rewrite) {
  const std::string copy = path_ + ".head.tmp";
  {
    FileHandle in(std::fopen(path_.c_str(), "rb"));
    OutputFile out(copy, false);
    if (!in || std::fseek(in.get(), static_cast<long>(reserved_), SEEK_SET) != 0)
      throw IoError(path_, "cannot read back");
    out.write(head);
    std::vector<char> block(kBufferSize);
    std::string pending, rewritten;  // a line cut by the block's end; a rewritten line
    for (size_t got; (got = std::fread(block.data(), 1, block.size(), in.get())) > 0;) {
      std::string_view text(block.data(), got);
      if (!rewrite) {
        out.write(text);
        continue;
      }
      for (size_t end; (end = text.find('\n')) != std::string_view::npos;) {
        pending.append(text.substr(0, end));
        rewritten.clear();
        (*rewrite)(pending, rewritten);
        out.line(rewritten);
        pending.clear();
        text.remove_prefix(end + 1);
      }
      pending.append(text);
    }
    if (std::ferror(in.get())) throw IoError(path_, "cannot read back");
    if (!pending.empty()) out.write(pending);  // the writer ends every line: never here
    out.close();
  }
  std::error_code error;
  std::filesystem::rename(copy, path_, error);
  if (error) throw IoError(path_, "cannot replace: " + error.message());
}

void writeSmallFile(const std::string& path, std::string_view text) {
  OutputFile file(path, false);
  file.write(text);
  file.close();
}

}  // namespace mtf::paraver
