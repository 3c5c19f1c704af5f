// CUDA's cooperative groups as a course uses them, for a learner's kernel compiled by
// threadmap (the <cooperative_groups.h> and <cooperative_groups/reduce.h> it includes): the
// thread block and its tiles of 1 to 32 threads, built on the prelude's __syncthreads() and
// warp functions, so the kernel model runs them by its rules and finds what it finds for those.
// Each call takes the learner's line (__builtin_LINE() at the call) for its findings.
#ifndef THREADMAP_COOPERATIVE_GROUPS
#define THREADMAP_COOPERATIVE_GROUPS

namespace cooperative_groups {

class thread_block {
  public:
    void sync(int line = __builtin_LINE()) const { __threadmap_syncthreads(line); }
    unsigned long long thread_rank() const {
        return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    }
    unsigned long long size() const { return blockDim.x * blockDim.y * blockDim.z; }
    unsigned long long num_threads() const { return size(); }
    dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
    dim3 dim_threads() const { return group_dim(); }
};

inline thread_block this_thread_block() { return thread_block(); }

// Size consecutive threads of the block (by thread_rank) within one warp.
template <unsigned Size>
class thread_block_tile {
    static_assert(Size == 1 || Size == 2 || Size == 4 || Size == 8 || Size == 16 || Size == 32,
                  "a tile of a thread block has 1, 2, 4, 8, 16 or 32 threads");

  public:
    unsigned long long thread_rank() const { return this_thread_block().thread_rank() % Size; }
    unsigned long long size() const { return Size; }
    unsigned long long num_threads() const { return Size; }
    unsigned long long meta_group_rank() const { return this_thread_block().thread_rank() / Size; }
    unsigned long long meta_group_size() const { return (this_thread_block().size() + Size - 1) / Size; }
    void sync(int line = __builtin_LINE()) const { __threadmap_warp(0, mask(), 0, 0, warpSize, line); }
    template <class T>
    T shfl(T var, int source_rank, int line = __builtin_LINE()) const {
        return __threadmap_shfl(line, 1, mask(), var, source_rank, Size);
    }
    template <class T>
    T shfl_up(T var, unsigned delta, int line = __builtin_LINE()) const {
        return __threadmap_shfl(line, 2, mask(), var, int(delta), Size);
    }
    template <class T>
    T shfl_down(T var, unsigned delta, int line = __builtin_LINE()) const {
        return __threadmap_shfl(line, 3, mask(), var, int(delta), Size);
    }
    template <class T>
    T shfl_xor(T var, unsigned lane_mask, int line = __builtin_LINE()) const {
        return __threadmap_shfl(line, 4, mask(), var, int(lane_mask), Size);
    }
    int any(int predicate, int line = __builtin_LINE()) const { return __threadmap_vote(line, 6, mask(), predicate); }
    int all(int predicate, int line = __builtin_LINE()) const { return __threadmap_vote(line, 7, mask(), predicate); }
    // A bit per thread of the tile, by thread_rank.
    unsigned ballot(int predicate, int line = __builtin_LINE()) const {
        return in_tile(__threadmap_vote(line, 5, mask(), predicate));
    }
    template <class T>
    unsigned match_any(T value, int line = __builtin_LINE()) const {
        return in_tile(__threadmap_match_any(line, mask(), value));
    }
    template <class T>
    unsigned match_all(T value, int& pred, int line = __builtin_LINE()) const {
        return in_tile(__threadmap_match_all(line, mask(), value, &pred));
    }

  private:
    unsigned first_lane() const { return unsigned(this_thread_block().thread_rank() % warpSize) / Size * Size; }
    unsigned mask() const { return Size == 32 ? 0xffffffffu : ((1u << Size) - 1u) << first_lane(); }
    unsigned in_tile(unsigned warp_bits) const {
        return Size == 32 ? warp_bits : (warp_bits >> first_lane()) & ((1u << Size) - 1u);
    }
};

template <unsigned Size>
thread_block_tile<Size> tiled_partition(const thread_block&) {
    return thread_block_tile<Size>();
}

template <class Group>
void sync(const Group& g, int line = __builtin_LINE()) {
    g.sync(line);
}

// <cooperative_groups/reduce.h>: every thread of the tile gets the whole tile's result.
template <class T>
struct plus {
    T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct less {
    T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T>
struct greater {
    T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
    T operator()(T a, T b) const { return a & b; }
};
template <class T>
struct bit_or {
    T operator()(T a, T b) const { return a | b; }
};
template <class T>
struct bit_xor {
    T operator()(T a, T b) const { return a ^ b; }
};
template <unsigned Size, class T, class Op>
T reduce(const thread_block_tile<Size>& g, T value, Op op, int line = __builtin_LINE()) {
    for (unsigned offset = Size / 2; offset > 0; offset /= 2) value = op(value, g.shfl_xor(value, offset, line));
    return value;
}

// What needs more than a thread block: a grid group waits for the whole grid (a cooperative
// launch), a coalesced group for the lanes that happen to run together.
struct grid_group;
struct coalesced_group;
int this_grid(...) __attribute__((unavailable(
    "a grid group needs a cooperative launch (cudaLaunchCooperativeKernel) whose blocks all run at once; threadmap's "
    "model runs blocks one after another: split the kernel in two launches instead")));
int coalesced_threads(...) __attribute__((unavailable(
    "coalesced_threads() is the lanes that happen to run together at that moment on a GPU, which threadmap's model, "
    "running a block's threads one after another, cannot know: use tiled_partition<32>(this_thread_block())")));

}  // namespace cooperative_groups

#endif
