#include "mapped_column.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <new>

namespace mtf::python {
namespace {

size_t pageSize() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

size_t roundToPages(size_t bytes) {
  const size_t page = pageSize();
  return bytes == 0 ? page : (bytes + page - 1) / page * page;
}

}  // namespace

MappedBytes::MappedBytes(size_t bytes) {
  const size_t length = roundToPages(bytes);
  void* p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  data_ = static_cast<std::byte*>(p);
  capacity_ = length;
}

MappedBytes& MappedBytes::operator=(MappedBytes&& other) noexcept {
  if (this != &other) {
    if (data_) munmap(data_, capacity_);
    data_ = std::exchange(other.data_, nullptr);
    capacity_ = std::exchange(other.capacity_, 0);
  }
  return *this;
}

MappedBytes::~MappedBytes() {
  if (data_) munmap(data_, capacity_);
}

void MappedBytes::grow(size_t bytes) {
  if (!data_) {  // emptied by a move
    *this = MappedBytes(bytes);
    return;
  }
  const size_t length = roundToPages(bytes);
  if (length <= capacity_) return;
  void* p = mremap(data_, capacity_, length, MREMAP_MAYMOVE);
  if (p == MAP_FAILED) throw std::bad_alloc();
  data_ = static_cast<std::byte*>(p);
  capacity_ = length;
}

void MappedBytes::shrink(size_t bytes) {
  const size_t length = roundToPages(bytes);
  if (length >= capacity_) return;
  munmap(data_ + length, capacity_ - length);
  capacity_ = length;
}

void prefault(void* at, size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  // Whole pages: the first and the last may hold other rows too (a page already mapped is
  // left as it is). An old kernel answers EINVAL; its pages then fault one by one.
  const size_t page = pageSize();
  const uintptr_t start = reinterpret_cast<uintptr_t>(at) / page * page;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(at) + bytes + page - 1) / page * page;
  if (end > start) madvise(reinterpret_cast<void*>(start), end - start, MADV_POPULATE_WRITE);
#else
  (void)at;
  (void)bytes;
#endif
}

}  // namespace mtf::python
