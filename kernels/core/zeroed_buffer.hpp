// ZeroedBuffer: a zero-filled array from anonymous memory. Large buffers ask for transparent
// huge pages: a 16M-element map then faults in 2 MiB steps instead of 4 KiB ones, which on
// this kind of machine is most of the difference between 80 ms and 250 ms per emulation.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace threadmap {

template <class T>
class ZeroedBuffer {
    static_assert(std::is_trivial_v<T>, "zero bytes must be a valid T");
    static constexpr size_t kHugePage = size_t(2) << 20;

  public:
    ZeroedBuffer() = default;
    // prefault: map a small buffer's pages now, writable. State that is read before it is
    // written (the kernel model's per-element ordering state) otherwise faults twice per page,
    // on the shared zero page and then for its copy, and in a process with other threads the
    // second fault interrupts every core to flush its TLB (a tiled-matmul check spent 14% of its
    // time sending those interrupts; prefaulted, it took 23% less CPU). Huge pages fault once per 2 MiB and are left to
    // fault: filled here they would be filled on one core, and a huge page can wait for memory compaction.
    explicit ZeroedBuffer(size_t size, bool prefault = false) : size_(size) {
        if (size == 0) return;
        const bool huge = size * sizeof(T) >= kHugePage;  // smaller ones would waste the rounding
        const size_t unit = huge ? kHugePage : size_t(4096);
        bytes_ = (size * sizeof(T) + unit - 1) / unit * unit;
        void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        if (huge) madvise(p, bytes_, MADV_HUGEPAGE);  // a hint: without THP, plain 4 KiB pages
#ifdef MADV_POPULATE_WRITE                            // Linux 5.14 and glibc 2.35: Debian 12 has both
        if (prefault && !huge) madvise(p, bytes_, MADV_POPULATE_WRITE);  // a hint too: older kernels refuse it
#endif
        data_ = static_cast<T*>(p);
    }
    ZeroedBuffer(ZeroedBuffer&& o) noexcept
        : data_(std::exchange(o.data_, nullptr)),
          size_(std::exchange(o.size_, 0)),
          bytes_(std::exchange(o.bytes_, 0)) {}
    ZeroedBuffer& operator=(ZeroedBuffer&& o) noexcept {
        std::swap(data_, o.data_);
        std::swap(size_, o.size_);
        std::swap(bytes_, o.bytes_);
        return *this;
    }
    ZeroedBuffer(const ZeroedBuffer&) = delete;
    ZeroedBuffer& operator=(const ZeroedBuffer&) = delete;
    ~ZeroedBuffer() {
        if (data_ != nullptr) munmap(data_, bytes_);
    }

    // Maps every page now (a zero written to each), so that whoever fills the buffer later does
    // not fault them in: fresh pages cost a machine that hands its idle memory back to a
    // hypervisor 0.4-0.7 GB/s on first touch, against some 8 GB/s for pages it already holds.
    void fault_in() {
        for (size_t offset = 0; offset < bytes_; offset += 4096) reinterpret_cast<volatile char*>(data_)[offset] = 0;
    }
    T* data() { return data_; }
    const T* data() const { return data_; }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T& operator[](size_t i) { return data_[i]; }
    const T& operator[](size_t i) const { return data_[i]; }
    T* begin() { return data_; }
    T* end() { return data_ + size_; }
    const T* begin() const { return data_; }
    const T* end() const { return data_ + size_; }

  private:
    T* data_ = nullptr;
    size_t size_ = 0;
    size_t bytes_ = 0;
};

// Gives `v` room for `n` elements and, when that is large, asks for transparent huge pages for
// it before anything is written there: filling a 64 MiB vector then faults 32 times, not 16,384.
template <class T>
void reserve_huge(std::vector<T>& v, size_t n) {
    constexpr size_t kHugePage = size_t(2) << 20;
    if (n * sizeof(T) < 2 * kHugePage || v.capacity() >= n) return;
    v.reserve(n);
    const auto start = reinterpret_cast<uintptr_t>(v.data());
    const uintptr_t first = (start + kHugePage - 1) / kHugePage * kHugePage;
    const uintptr_t end = (start + n * sizeof(T)) / kHugePage * kHugePage;
    if (end > first) madvise(reinterpret_cast<void*>(first), end - first, MADV_HUGEPAGE);  // a hint
}

}  // namespace threadmap
