// What a kernel body sees in the open kernel model: its indices and dimensions, its
// parameters, its arrays, and __syncthreads(). Every load, store and atomic is recorded by the
// emulator (model_emulator.hpp) with the thread, the array, the element and the source line, and
// out-of-bounds accesses, races and hazards are reported; where a run allows, a plain load or
// store that no finding can come of updates the element's shadow state (shadow_state.hpp) in the
// body's own code, inlined, and only the rest call into the emulator.
//
// A body reads like the CUDA it stands for, with each access naming its line:
//     const auto data = t.array<int>(0);
//     const auto bins = t.array<int>(1);
//     const uint64_t i = t.blockIdx.x * uint64_t(t.blockDim.x) + t.threadIdx.x;
//     if (i < t.param(0)) bins.atomic_add(data.load(i, 4) % t.param(1), 1, 4);
// A body's locals must need no destructor (numbers, array handles): a thread stopped at a
// divergent barrier is abandoned, not unwound.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "kernels/core/dim3.hpp"
#include "kernels/model/bfloat16_bits.hpp"
#include "kernels/model/half_bits.hpp"
#include "kernels/model/loop_nest.hpp"
#include "kernels/model/shadow_state.hpp"
#include "kernels/model/warp_collective.hpp"

namespace threadmap {

class ModelEmulator;

// CUDA's atomics on 32- and 64-bit words (the numbers are what prelude.cuh passes for learners'
// kernels).
enum class AtomicOp {
    Add = 0,
    Max = 1,
    Cas = 2,
    MaxUnsigned = 3,
    Min = 4,
    MinUnsigned = 5,
    Exch = 6,
    And = 7,
    Or = 8,
    Xor = 9,
    Inc = 10,          // atomicInc: old >= operand ? 0 : old + 1 (unsigned)
    Dec = 11,          // atomicDec: old == 0 || old > operand ? operand : old - 1 (unsigned)
    AddBFloat16 = 12,  // atomicAdd on a __nv_bfloat16 (2 bytes only)
};

// The value an atomic leaves where `old` was, on a Word (uint32_t or uint64_t): Add and
// Max/Min per type (float or double when is_float, else signed; the unsigned ones as
// unsigned), Cas writes `operand` only where `old == compare`. On a uint16_t: a __half's
// add, or Cas and Exch (CUDA's 2-byte atomics).
template <class Word>
Word atomic_result(AtomicOp op, bool is_float, Word old, Word operand, Word compare) {
    using Float = std::conditional_t<sizeof(Word) == 4, float, double>;
    const auto f = [](Word b) { return std::bit_cast<Float>(b); };
    const auto i = [](Word b) { return std::make_signed_t<Word>(b); };
    switch (op) {
        case AtomicOp::Add:
            return is_float ? std::bit_cast<Word>(f(old) + f(operand)) : Word(old + operand);
        case AtomicOp::Max:
            return is_float ? (f(operand) > f(old) ? operand : old) : (i(operand) > i(old) ? operand : old);
        case AtomicOp::Min:
            return is_float ? (f(operand) < f(old) ? operand : old) : (i(operand) < i(old) ? operand : old);
        case AtomicOp::MaxUnsigned:
            return operand > old ? operand : old;
        case AtomicOp::MinUnsigned:
            return operand < old ? operand : old;
        case AtomicOp::Exch:
            return operand;
        case AtomicOp::Cas:
            return old == compare ? operand : old;
        case AtomicOp::And:
            return old & operand;
        case AtomicOp::Or:
            return old | operand;
        case AtomicOp::Xor:
            return old ^ operand;
        case AtomicOp::Inc:
            return old >= operand ? Word(0) : Word(old + 1);
        case AtomicOp::Dec:
            return old == 0 || old > operand ? operand : Word(old - 1);
        case AtomicOp::AddBFloat16:  // a 2-byte word's (below)
            return old;
    }
    return old;
}

// 2 bytes: a __half's or a __nv_bfloat16's atomicAdd (rounded to its type), or a CAS or exchange
// of 16 bits.
template <>
inline uint16_t atomic_result<uint16_t>(AtomicOp op, bool is_float, uint16_t old, uint16_t operand, uint16_t compare) {
    if (op == AtomicOp::Add && is_float)
        return __threadmap_half_from_float(__threadmap_half_to_float(old) + __threadmap_half_to_float(operand));
    if (op == AtomicOp::AddBFloat16)
        return __threadmap_bf16_from_double(double(__threadmap_bf16_to_float(old)) +
                                            double(__threadmap_bf16_to_float(operand)));
    return op == AtomicOp::Cas ? (old == compare ? operand : old) : op == AtomicOp::Exch ? operand : old;
}

class ModelThread {
  public:
    Dim3 threadIdx, blockIdx, blockDim, gridDim;

    uint64_t param(size_t index) const { return params_[index]; }
    // CUDA's __syncthreads(): returns once every thread of the block has reached it.
    void syncthreads(int line);
    // __syncthreads_count(predicate): the barrier, then how many of the block's threads gave
    // a true predicate (__syncthreads_and and _or compare it with the block's size and 0).
    uint32_t syncthreads_count(int line, bool predicate);
    // A warp-level function (__shfl_sync, __ballot_sync, __syncwarp, …): returns once the lanes
    // its mask names have called it too (warp_collective.hpp), with this lane's result.
    uint64_t warp(const WarpCall& call);

    // An array's handle; a __shared__ array's, from shared_array, takes the recorder's path
    // compiled for shared arrays: inlined into the body for its loads (load_shared_bits), out of
    // line for its stores (store_shared_bits). An input's (ArrayRole::Input), from input_array,
    // inlines its loads (load_input_bits). Any array's handle from array() records the same: the
    // other two are only faster where the body says what the array is.
    enum class Held : uint8_t { Global, Shared, Input };
    template <class T, Held kHeld = Held::Global>
    class Array;
    template <class T>
    Array<T> array(size_t index) {
        return Array<T>(*this, index);
    }
    template <class T>
    using SharedArray = Array<T, Held::Shared>;
    template <class T>
    SharedArray<T> shared_array(size_t index) {
        return SharedArray<T>(*this, index);
    }
    template <class T>
    using InputArray = Array<T, Held::Input>;
    template <class T>
    InputArray<T> input_array(size_t index) {
        return InputArray<T>(*this, index);
    }

    // The emulator's side (Array and a learner's kernel's hooks call these): an element's bits,
    // zero-extended (an array of 1, 2, 4 or 8-byte elements: value_type.hpp). Inline: where the
    // run allows (shadow::InlineAccesses), a plain access in bounds that no finding can come of
    // is recorded here, in the body's own code, and only the rest call into the emulator.
    uint64_t load_bits(size_t array, uint64_t index, int line) {
        if (const shadow::InlineArray* x = touch_inline(array, index)) {
            if (!x->plain) {
                if (x->hazards) return shadow_load(array, index, line);
                if (x->input) return input_read(*x, array, index) ? x->bits[index] : emulator_load(array, index, line);
                return counted_inline() ? x->bits[index] : emulator_load(array, index, line);  // values only
            }
            shadow::Phases none{};  // without barriers every epoch is 0
            if (inline_read<Path::Plain>(array, x->hazards[index], none, line)) return x->bits[index];
        }
        return emulator_load(array, index, line);
    }
    // A __shared__ array's or an input's inlined path as its handle keeps it (shared_inline,
    // input_inline): the array's InlineArray, and its size and pointers copied out of it, so that a
    // body's loop holds them in registers rather than loading them through the InlineArray again
    // after every call the loop may make (its cold paths into the emulator). They stay put for a
    // block: reset_shared fills the arrays in place. `size` 0: the array's accesses take load_bits' way.
    struct ArrayPath {
        const shadow::InlineArray* x = nullptr;
        uint64_t size = 0;
        uint32_t* bits = nullptr;
        shadow::Hazard* hazards = nullptr;
        shadow::Phases* phases = nullptr;
        uint32_t* settled = nullptr;
    };
    // A __shared__ array's load with its shadow path inlined here, in the body: a tiled kernel's
    // inner loop is made of them (matmul-tiled's 32 of 36 accesses per step), and the call cost a
    // fifth of the barrier lessons' CPU time (`map --preset tiled-matmul`: 0.25-0.28 s user,
    // 0.20-0.22 inlined). Only where a body asks (SharedArray): inlined into every load, the path
    // slowed the tutorial's matmul, whose arrays are global, by a twentieth (`memory --preset
    // coalescing` 0.21-0.22 → 0.22-0.23 s user). Another array takes load_bits' way.
    // A __shared__ array's chunks are not marked touched: only a global array's are ever read.
    // Most reads of a tile come after two others of its phase, where they change nothing
    // (BlockOrder::reads_settled): the element's `settled` stamp says so in one compare, and the
    // read is only counted (matmul-tiled: 14 of each As element's 16 reads a phase; its check took
    // 67.6 instructions an access with the rules looked at on every read, 40.6 with the stamp,
    // scripts/bench-instructions.sh). The stamp is set only where the block's accesses are not
    // recorded (recorded_inline), which stays so for the block's phase, so that a settled read
    // has no record or touching thread to note. The rest are inlined too: out of line, they cost
    // transpose-tiled and reduce-sequential, whose tile elements are read once a phase, 7 and 10
    // instructions an access more.
    [[gnu::always_inline]] uint64_t load_shared_bits(const ArrayPath& path, size_t array, uint64_t index, int line) {
        if (index < path.size && path.settled[index] == inline_->order.epoch + 1 && counted_inline())
            return path.bits[index];
        return load_shared_unsettled(path, array, index, line);
    }
    [[gnu::always_inline]] uint64_t load_shared_unsettled(const ArrayPath& path, size_t array, uint64_t index,
                                                          int line) {
        if (index >= path.size) return load_bits(array, index, line);
        shadow::Hazard& h = path.hazards[index];
        shadow::Phases& p = path.phases[index];
        if (!read_with_record<Path::Shared>(*path.x, array, index, h, p, line))
            return emulator_load(array, index, line);
        const shadow::BlockOrder& order = inline_->order;
        if (!recorded_inline<Path::Shared>(*path.x) && order.reads_settled(h, p)) path.settled[index] = order.epoch + 1;
        return path.bits[index];
    }
    // An input's load (InlineArray::input), inlined into the body: the tutorial's matmul is made
    // of them. In a call to load_bits (its prologue and epilogue, the looking up of the array's
    // path), matmul's check took 52 instructions a load.
    [[gnu::always_inline]] uint64_t load_input_bits(const ArrayPath& path, size_t array, uint64_t index, int line) {
        if (index >= path.size || !input_read(*path.x, array, index)) return load_bits(array, index, line);
        return path.bits[index];
    }
    // Its stores, fewer (matmul-tiled's 2 of 36 accesses per step), out of line.
    [[gnu::noinline]] void store_shared_bits(const ArrayPath& path, size_t array, uint64_t index, uint64_t bits,
                                             int line) {
        if (index >= path.size) return store_bits(array, index, bits, line);
        if (!write_with_record<Path::Shared>(*path.x, array, index, path.hazards[index], path.phases[index], line))
            return emulator_store(array, index, bits, line);
        path.bits[index] = uint32_t(bits);
    }
    // The array's ArrayPath where it is a __shared__ array with shadow state of a kernel without
    // warp functions (Path::Shared's rules leave __syncwarp()'s readers out), else none.
    ArrayPath shared_inline(size_t array) const {
        const shadow::InlineArray* x = inline_ ? &inline_->arrays[array] : nullptr;
        if (!x || !x->size || !x->shared || !x->hazards || inline_->order.warp_ops) return {};
        return {x, x->size, x->bits, x->hazards, x->phases, x->settled};
    }
    // The array's ArrayPath where it is an input without shadow state, else none.
    ArrayPath input_inline(size_t array) const {
        const shadow::InlineArray* x = inline_ ? &inline_->arrays[array] : nullptr;
        if (!x || !x->size || !x->input) return {};
        return {x, x->size, x->bits, nullptr, nullptr, nullptr};
    }
    void store_bits(size_t array, uint64_t index, uint64_t bits, int line) {
        if (const shadow::InlineArray* x = touch_inline(array, index)) {
            if (!x->plain) {
                if (x->hazards) return shadow_store(array, index, bits, line);
                if (x->input || !counted_inline()) return emulator_store(array, index, bits, line);
                x->bits[index] = uint32_t(bits);  // values only
                return;
            }
            shadow::Phases none{};
            if (inline_write<Path::Plain>(array, x->hazards[index], none, line)) {
                x->bits[index] = uint32_t(bits);
                return;
            }
        }
        emulator_store(array, index, bits, line);
    }
    // A vector access (a float2 or float4 through a cast; up to 16 bytes): `width` elements from `index`, each
    // recorded as an access of its own, and one access of `width` elements in the memory view.
    void load_vector_bits(size_t array, uint64_t index, uint32_t width, uint64_t* bits, int line);
    void store_vector_bits(size_t array, uint64_t index, uint32_t width, const uint64_t* bits, int line);
    // The old bits; `operand`/`compare` as the bit patterns of the element's type (4 or 8
    // bytes; Add and Max per type). Inline where the run allows, as a plain load or store: a
    // histogram's adds are most of its accesses (the privatised one's: a third, each block adding
    // its copy to every bin), and the emulator's path cost three times the instructions.
    uint64_t atomic_bits(size_t array, uint64_t index, AtomicOp op, bool is_float, uint64_t operand, uint64_t compare,
                         int line) {
        if (const shadow::InlineArray* x = touch_inline(array, index);
            x && x->hazards && inline_atomic(*x, array, index, op == AtomicOp::Add && !is_float, line)) {
            const uint32_t old = x->bits[index];
            x->bits[index] = atomic_result<uint32_t>(op, is_float, old, uint32_t(operand), uint32_t(compare));
            return old;
        }
        return emulator_atomic(array, index, op, is_float, operand, compare, line);
    }
    uint64_t array_size(size_t array) const { return array_sizes_[array]; }

    // Where the thread is in its loops, for the memory view (loop_nest.hpp): a learner's kernel
    // marks its loops (source_compiler.cpp); a built-in body's are not marked, as in each of
    // them a lane skips no iteration but its last ones, where the n-th access of a lane is the
    // n-th iteration's.
    __threadmap_loop_nest loops;

  private:
    friend class ModelEmulator;
    uint64_t emulator_load(size_t array, uint64_t index, int line);
    uint64_t emulator_atomic(size_t array, uint64_t index, AtomicOp op, bool is_float, uint64_t operand,
                             uint64_t compare, int line);
    void emulator_store(size_t array, uint64_t index, uint64_t bits, int line);
    // The array's inlined path where this run records an access of `array` at `index` inline
    // when no finding can come of it, the element's chunk marked touched (recorded here or by
    // the emulator, the access touches it); null where the emulator records every access of it.
    const shadow::InlineArray* touch_inline(size_t array, uint64_t index) const {
        if (!inline_ || index >= inline_->arrays[array].size) return nullptr;
        const shadow::InlineArray& x = inline_->arrays[array];
        x.touched[index >> shadow::kTouchedChunkShift] = 1;
        return &x;
    }
    // Which of the inlined paths an access takes, known where the body's code is compiled so that
    // the compiler folds away what the others look at: Plain, a global array of a kernel without
    // barriers (InlineArray::plain: its epochs a local zero, its touching threads all counted);
    // Shared, a __shared__ array's load or store through its handle in a kernel without warp
    // functions (load_shared_bits, store_shared_bits: its epochs always kept, its ranges never
    // join, so it needs no kNotSummed, and no reader is kept for a __syncwarp()); General, any other.
    enum class Path { Plain, Shared, General };
    // A plain read or write of an element of `array` whose shadow state is `h` and epochs `p`, recorded
    // inline; false, recording nothing, where a finding may come of it (the emulator then looks).
    template <Path kPath>
    [[gnu::always_inline]] bool inline_read(size_t array, shadow::Hazard& h, shadow::Phases& p, int line) {
        const shadow::InlineArray& x = inline_->arrays[array];
        const bool shared = kPath == Path::Shared || (kPath == Path::General && x.shared);
        const shadow::BlockOrder plain = plain_order();
        const shadow::BlockOrder& order = kPath == Path::Plain ? plain : inline_->order;
        if (order.read_may_conflict(shared, h, p, global_id_) || !counted_inline()) return false;
        if (kPath != Path::Shared) h.add_flags(shadow::kNotSummed);  // a __shared__ array's ranges never join
        order.template remember_reader<kPath != Path::Shared>(shared, h, p, global_id_, shadow::line16(line));
        arrays_read_ |= uint64_t(recorded_inline<kPath>(x)) << array;
        return true;
    }
    template <Path kPath>
    [[gnu::always_inline]] bool inline_write(size_t array, shadow::Hazard& h, shadow::Phases& p, int line) {
        const shadow::InlineArray& x = inline_->arrays[array];
        const shadow::BlockOrder plain = plain_order();
        const shadow::BlockOrder& order = kPath == Path::Plain ? plain : inline_->order;
        if (order.write_may_conflict(h, p, global_id_, false) || !counted_inline()) return false;
        if (kPath != Path::Shared) h.add_flags(shadow::kNotSummed);
        order.remember_writer(h, p, global_id_, shadow::line16(line), false);
        arrays_written_ |= uint64_t(recorded_inline<kPath>(x)) << array;
        return true;
    }
    // A load of an input (InlineArray::input), in bounds: counted, and recorded where the run keeps
    // records; it has no ordering state, as no finding can come of reads alone. false, recording
    // nothing, for the emulator's path (every 65,536th access). Its chunk is marked touched only
    // where records are kept: then joining ranges run apart reads them.
    [[gnu::always_inline]] bool input_read(const shadow::InlineArray& x, size_t array, uint64_t index) {
        if (!counted_inline()) return false;
        const bool recorded = inline_->record_phase;  // a global array's accesses count in every block
        arrays_read_ |= uint64_t(recorded) << array;
        if (x.records && recorded) {
            x.touched[index >> shadow::kTouchedChunkShift] = 1;
            record_inline(x, array, index, false);
        }
        return true;
    }
    // The running block's order as a plain array's path sees it (a kernel without barriers or warp
    // functions): its epochs always 0, which the compiler then folds into the rules (unused, and
    // dropped, on the other paths).
    [[gnu::always_inline]] shadow::BlockOrder plain_order() const {
        return {inline_->order.base, inline_->order.threads, 0, 0, false};
    }
    // An atomic on an element of `x`, recorded inline as the emulator records one (a read and a
    // write, the write checked, the read not remembered: atomics are ordered with each other);
    // false, recording nothing, where a finding may come of it. `integer_add`: ranges run apart
    // that both added into the element may join by adding (kNotSummed stays clear).
    [[gnu::always_inline]] bool inline_atomic(const shadow::InlineArray& x, size_t array, uint64_t index,
                                              bool integer_add, int line) {
        shadow::Phases none{};
        shadow::Hazard& h = x.hazards[index];
        shadow::Phases& p = x.epochs(index, none);
        const shadow::BlockOrder& order = inline_->order;
        if (order.write_may_conflict(h, p, global_id_, true) || !counted_inline()) return false;
        if (!integer_add) h.add_flags(shadow::kNotSummed);
        if (!x.shared) *inline_->global_atomics = true;
        const bool recorded = recorded_inline<Path::General>(x);
        arrays_read_ |= uint64_t(recorded) << array;
        arrays_written_ |= uint64_t(recorded) << array;
        if (x.records && recorded) {
            record_inline(x, array, index, false);
            record_inline(x, array, index, true);
        }
        order.remember_writer(h, p, global_id_, shadow::line16(line), true);
        return true;
    }
    // The same for an array that is not plain (a kernel with barriers, a __shared__ array, a run
    // that keeps records or records one phase): out of line, so that the plain path inlined into
    // a body stays small (inlined both, they slowed the tutorial's matmul loop by a fifth at every
    // level); a __shared__ array's loads may take it inlined (load_shared_bits).
    [[gnu::noinline]] uint64_t shadow_load(size_t array, uint64_t index, int line) {
        const shadow::InlineArray& x = inline_->arrays[array];
        shadow::Phases none{};
        if (!read_with_record<Path::General>(x, array, index, x.hazards[index], x.epochs(index, none), line))
            return emulator_load(array, index, line);
        return x.bits[index];
    }
    [[gnu::noinline]] void shadow_store(size_t array, uint64_t index, uint64_t bits, int line) {
        const shadow::InlineArray& x = inline_->arrays[array];
        shadow::Phases none{};
        if (!write_with_record<Path::General>(x, array, index, x.hazards[index], x.epochs(index, none), line))
            return emulator_store(array, index, bits, line);
        x.bits[index] = uint32_t(bits);
    }
    // A read or write of element `index` of `x`, whose state is `h` and epochs `p`, recorded inline
    // with its record where the run keeps them; false, recording nothing, where a finding may come of it.
    template <Path kPath>
    [[gnu::always_inline]] bool read_with_record(const shadow::InlineArray& x, size_t array, uint64_t index,
                                                 shadow::Hazard& h, shadow::Phases& p, int line) {
        if (!inline_read<kPath>(array, h, p, line)) return false;
        if (x.records && recorded_inline<kPath>(x)) record_inline(x, array, index, false);
        return true;
    }
    template <Path kPath>
    [[gnu::always_inline]] bool write_with_record(const shadow::InlineArray& x, size_t array, uint64_t index,
                                                  shadow::Hazard& h, shadow::Phases& p, int line) {
        if (!inline_write<kPath>(array, h, p, line)) return false;
        if (x.records && recorded_inline<kPath>(x)) record_inline(x, array, index, true);
        return true;
    }
    // The element's record after a recorded read or write taken inline (shadow::record_access).
    // Where the last thread counted on it is another of the running block's fibers, whether this
    // one is new among them is looked up out of line (record_inline_in_block); elsewhere the call
    // needs no frame of its own.
    void record_inline(const shadow::InlineArray& x, size_t array, uint64_t index, bool write) {
        const shadow::Counted& c = x.counted[index];
        const uint32_t counted = write ? c.writer : c.reader;
        if (counted != global_id_ && inline_->fibers && inline_->order.in_block(counted))
            return record_inline_in_block(x, array, index, write);
        shadow::record_access(x.records[index], x.counted[index], global_id_, write, false, inline_->order,
                              [](uint32_t) { return true; });
    }
    [[gnu::noinline]] void record_inline_in_block(const shadow::InlineArray& x, size_t array, uint64_t index,
                                                  bool write) {
        shadow::record_access(x.records[index], x.counted[index], global_id_, write, true, inline_->order,
                              [&](uint32_t counted) { return first_in_block(array, index, counted, write); });
    }
    // Whether this thread is new among the running block's touchers of the element, whose last
    // counted one, `counted`, is of the block too (ModelEmulator::first_in_block).
    bool first_in_block(size_t array, uint64_t index, uint32_t counted, bool write);
    // Whether an access of `x` counts this thread among those touching it and in the records (a
    // __shared__ array: only in the block whose copy is recorded; only in a recorded phase).
    // A plain array's accesses always count.
    template <Path kPath>
    bool recorded_inline(const shadow::InlineArray& x) const {
        if (kPath == Path::Plain) return true;
        const bool shared = kPath == Path::Shared || x.shared;
        return (!shared || inline_->record_shared) && inline_->record_phase;
    }
    // Counts an access taken inline; false (not counted) for every 65,536th, which goes the
    // emulator's way to be counted and to stop there if the run must.
    bool counted_inline() {
        uint64_t& accesses = inline_->accesses;
        return ((accesses + 1) & shadow::kStopCheckMask) != 0 && (++accesses, true);
    }
    ModelEmulator* emulator_ = nullptr;
    // The run's inlined path; null where every access goes to the emulator. An array's `size` is
    // 0 where its accesses do.
    shadow::InlineAccesses* inline_ = nullptr;
    // The launch's parameters and its arrays' sizes in elements (a __shared__ array's per block),
    // read here, inline: a body asks for them on every thread.
    const uint64_t* params_ = nullptr;
    const uint64_t* array_sizes_ = nullptr;
    uint32_t global_id_ = 0;  // blockIdx·threads per block + thread's linear index
    uint32_t fiber_ = 0;      // the thread's index in its block (its fiber, with barriers)
    // The arrays (bit a: array a) it read and wrote, as recorded, in the running block.
    uint64_t arrays_read_ = 0, arrays_written_ = 0;
};

template <class T, ModelThread::Held kHeld>
class ModelThread::Array {
    static_assert(sizeof(T) == 4, "the built-in bodies' arrays have 4-byte elements");

  public:
    Array(ModelThread& t, size_t index)
        : t_(&t),
          index_(index),
          path_(kHeld == Held::Shared  ? t.shared_inline(index)
                : kHeld == Held::Input ? t.input_inline(index)
                                       : ArrayPath{}) {}
    // Inlined into the body, whose loops are made of loads (the tutorial's matmul, a call each:
    // 42.6 instructions an access; inlined, 23.6).
    [[gnu::always_inline]] T load(uint64_t i, int line) const {
        const uint64_t bits = kHeld == Held::Shared  ? t_->load_shared_bits(path_, index_, i, line)
                              : kHeld == Held::Input ? t_->load_input_bits(path_, index_, i, line)
                                                     : t_->load_bits(index_, i, line);
        return std::bit_cast<T>(uint32_t(bits));
    }
    void store(uint64_t i, T value, int line) const {
        if (kHeld == Held::Shared)
            t_->store_shared_bits(path_, index_, i, std::bit_cast<uint32_t>(value), line);
        else
            t_->store_bits(index_, i, std::bit_cast<uint32_t>(value), line);
    }
    T atomic_add(uint64_t i, T value, int line) const { return atomic(i, AtomicOp::Add, value, T{}, line); }
    T atomic_max(uint64_t i, T value, int line) const { return atomic(i, AtomicOp::Max, value, T{}, line); }
    T atomic_cas(uint64_t i, T compare, T value, int line) const {
        return atomic(i, AtomicOp::Cas, value, compare, line);
    }
    uint64_t size() const { return t_->array_size(index_); }

  private:
    T atomic(uint64_t i, AtomicOp op, T value, T compare, int line) const {
        return std::bit_cast<T>(
            uint32_t(t_->atomic_bits(index_, i, op, std::is_floating_point_v<T>, std::bit_cast<uint32_t>(value),
                                     std::bit_cast<uint32_t>(compare), line)));
    }
    ModelThread* t_;
    size_t index_;
    ArrayPath path_;  // a SharedArray's or an input's inlined path (ModelThread::shared_inline, input_inline)
};

}  // namespace threadmap
