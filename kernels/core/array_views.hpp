// Array views: how kernel bodies reach memory. Every load and store goes through an Access
// policy, so the emulator can record writes into the thread map (and a later lesson can
// record reads for coalescing) without the kernel bodies knowing.
//
// An Access provides   T load(const T* base, uint64_t index)
//                      void store(T* base, uint64_t index, T value)
#pragma once

#include <cstdint>

#include "kernels/core/host_device.hpp"

namespace threadmap {

template <class T, class Access>
class ArrayView {
  public:
    TM_HD ArrayView(T* data, uint64_t size, Access* access) : data_(data), size_(size), access_(access) {}

    TM_HD uint64_t size() const { return size_; }
    TM_HD T load(uint64_t i) const { return access_->load(data_, i); }
    TM_HD void store(uint64_t i, T value) const { access_->store(data_, i, value); }

  private:
    T* data_;
    uint64_t size_;
    Access* access_;
};

// Row-major matrix: element (i, j) is index i·cols + j, as numpy and C lay it out.
template <class T, class Access>
class MatrixView {
  public:
    TM_HD MatrixView(T* data, uint64_t rows, uint64_t cols, Access* access)
        : data_(data), rows_(rows), cols_(cols), access_(access) {}

    TM_HD uint64_t rows() const { return rows_; }
    TM_HD uint64_t cols() const { return cols_; }
    TM_HD T load(uint64_t i, uint64_t j) const { return access_->load(data_, i * cols_ + j); }
    TM_HD void store(uint64_t i, uint64_t j, T value) const { access_->store(data_, i * cols_ + j, value); }

  private:
    T* data_;
    uint64_t rows_;
    uint64_t cols_;
    Access* access_;
};

}  // namespace threadmap
