#include "converters/paraver/header.hpp"

#include <algorithm>

#include "converters/paraver/fields.hpp"
#include "model/types.hpp"
#include "util/error.hpp"

namespace mtf::paraver {

namespace {

// A left-to-right scanner over the header text, throwing with the header's place.
class HeaderScanner {
 public:
  HeaderScanner(std::string_view text, const std::string& path) : text_(text), path_(path) {}
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(path_, "line 1", "bad Paraver header: " + what);
  }
  uint64_t number(const char* what) {
    size_t n = 0;
    uint64_t v = 0;
    while (pos_ + n < text_.size() && static_cast<unsigned>(text_[pos_ + n] - '0') < 10) {
      if (v > (~uint64_t{0}) / 10 - 9) fail(std::string(what) + " too large");
      v = v * 10 + static_cast<uint64_t>(text_[pos_ + n] - '0');
      ++n;
    }
    if (n == 0) fail(std::string("expected ") + what + " at column " + std::to_string(pos_ + 1));
    pos_ += n;
    return v;
  }
  uint32_t count(const char* what) {
    const uint64_t v = number(what);
    if (v > 1'000'000) fail(std::string(what) + " out of range");
    return static_cast<uint32_t>(v);
  }
  bool accept(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!accept(c)) fail(std::string("expected '") + c + "' at column " + std::to_string(pos_ + 1));
  }
  bool accept(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  bool done() const { return pos_ >= text_.size(); }
  size_t pos_ = 0;
  std::string_view text_;

 private:
  const std::string& path_;
};

void parseUnit(HeaderScanner& s, Header& h) {
  h.endTime = s.number("trace end time");
  if (s.accept("_ns")) {
    h.unit = "_ns", h.resolution = 1'000'000'000;
  } else if (s.accept("_us")) {
    h.unit = "_us", h.resolution = 1'000'000;
  } else if (s.accept("_ms")) {
    h.unit = "_ms", h.resolution = 1'000;
  } else if (s.accept('_')) {
    // paraver-kernel reads any other suffix as microseconds; kept as written.
    const size_t start = s.pos_ - 1;
    while (!s.done() && s.text_[s.pos_] != ':') ++s.pos_;
    h.unit = std::string(s.text_.substr(start, s.pos_ - start)), h.resolution = 1'000'000;
  } else {
    h.unit.clear(), h.resolution = 1'000'000;  // old traces: microseconds
  }
}

void parseResources(HeaderScanner& s, Header& h) {
  h.nodes = s.count("node count");
  h.hasResources = h.nodes != 0;
  if (!s.accept('(')) return;
  do {
    h.cpusPerNode.push_back(s.count("cpu count"));
  } while (s.accept(','));
  s.expect(')');
  if (h.cpusPerNode.size() != h.nodes) s.fail("cpu list does not match the node count");
}

// Threads over all applications and tasks: each becomes a location (about 500 bytes of
// definitions and reader state), and a few header bytes can declare a million of them
// ("1(1000000:0)"), so the total is bounded, not only each count. The reader also checks
// the total against the file's size (paraver_reader.cpp).
constexpr uint64_t kMaxThreads = 1'000'000;

Application parseApplication(HeaderScanner& s, const Header& h, uint64_t& threads) {
  Application app;
  const uint32_t tasks = s.count("task count");
  s.expect('(');
  for (uint32_t t = 0; t < tasks; ++t) {
    if (t > 0) s.expect(',');
    TaskShape shape;
    shape.threads = s.count("thread count");
    s.expect(':');
    shape.node = s.count("node");
    if (shape.threads == 0) s.fail("a task with no threads");
    threads += shape.threads;
    if (threads > kMaxThreads)
      s.fail("more than " + std::to_string(kMaxThreads) + " threads in all tasks together");
    if (h.hasResources && (shape.node == 0 || shape.node > h.nodes)) s.fail("node out of range");
    app.tasks.push_back(shape);
  }
  s.expect(')');
  return app;
}

}  // namespace

Header parseHeader(std::string_view line, const std::string& path) {
  HeaderScanner s(line, path);
  Header h;
  if (!s.accept("#Paraver")) s.fail("does not start with #Paraver");
  s.accept(' ');
  s.expect('(');
  const size_t close = line.find(')', s.pos_);
  if (close == std::string_view::npos) s.fail("unterminated date");
  h.date = std::string(line.substr(s.pos_, close - s.pos_));
  s.pos_ = close + 1;
  s.expect(':');
  parseUnit(s, h);
  s.expect(':');
  parseResources(s, h);
  s.expect(':');
  const uint32_t apps = s.count("application count");
  if (apps == 0) s.fail("no application");
  uint64_t threads = 0;
  for (uint32_t a = 0; a < apps; ++a) {
    // Applications are separated by ':' in the documentation, by ',' in Extrae's files.
    if (a == 0 || !s.accept(','))
      s.expect(':');
    else
      h.applicationSeparator = ',';
    h.applications.push_back(parseApplication(s, h, threads));
  }
  // Nodes become definitions; with a cpu list their number is bounded by the header's
  // length, a bare count ("0:955445:") is not: it may exceed neither the thread count nor
  // the highest node a task runs on, whichever is larger.
  uint64_t highestNode = 0;
  for (const Application& app : h.applications)
    for (const TaskShape& task : app.tasks)
      highestNode = std::max<uint64_t>(highestNode, task.node);
  if (h.hasResources && h.cpusPerNode.empty() && h.nodes > std::max(threads, highestNode))
    s.fail(std::to_string(h.nodes) + " nodes without a cpu list for " + std::to_string(threads) +
           " threads");
  if (s.accept(',')) h.communicatorCount = s.count("communicator count");
  if (!s.done()) s.fail("unexpected text at column " + std::to_string(s.pos_ + 1));
  h.index();
  return h;
}

void Header::index() {
  taskBase_.clear();
  threadBase_.clear();
  threads_.clear();
  uint64_t tasks = 0;
  for (uint32_t a = 0; a < applications.size(); ++a) {
    taskBase_.push_back(tasks);
    for (uint32_t t = 0; t < applications[a].tasks.size(); ++t) {
      threadBase_.push_back(threads_.size());
      for (uint32_t th = 0; th < applications[a].tasks[t].threads; ++th)
        threads_.push_back({a + 1, t + 1, th + 1});
      ++tasks;
    }
  }
}

uint64_t Header::threadCount() const {
  return threads_.size();
}
uint64_t Header::taskCount() const {
  return threadBase_.size();
}

uint64_t Header::globalTaskOf(uint32_t appl, uint32_t task) const {
  if (appl == 0 || appl > applications.size()) return kUndefinedId;
  if (task == 0 || task > applications[appl - 1].tasks.size()) return kUndefinedId;
  return taskBase_[appl - 1] + task - 1;
}

uint64_t Header::locationOf(uint32_t appl, uint32_t task, uint32_t thread) const {
  const uint64_t global = globalTaskOf(appl, task);
  if (global == kUndefinedId) return kUndefinedId;
  if (thread == 0 || thread > applications[appl - 1].tasks[task - 1].threads) return kUndefinedId;
  return threadBase_[global] + thread - 1;
}

ThreadId Header::threadOf(uint64_t location) const {
  return threads_.at(location);
}

std::string formatHeader(const Header& h) {
  std::string out = "#Paraver (" + h.date + "):" + std::to_string(h.endTime) + h.unit + ":";
  out += std::to_string(h.nodes);
  if (!h.cpusPerNode.empty()) {
    out += '(';
    for (size_t i = 0; i < h.cpusPerNode.size(); ++i)
      out += (i ? "," : "") + std::to_string(h.cpusPerNode[i]);
    out += ')';
  }
  out += ":" + std::to_string(h.applications.size());
  for (size_t a = 0; a < h.applications.size(); ++a) {
    const Application& app = h.applications[a];
    out += a == 0 ? ':' : h.applicationSeparator;
    out += std::to_string(app.tasks.size()) + "(";
    for (size_t t = 0; t < app.tasks.size(); ++t)
      out += (t ? "," : "") + std::to_string(app.tasks[t].threads) + ":" +
             std::to_string(app.tasks[t].node);
    out += ')';
  }
  if (h.communicatorCount > 0) out += "," + std::to_string(h.communicatorCount);
  return out;
}

}  // namespace mtf::paraver
