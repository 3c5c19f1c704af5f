// What one element of a kernel's array holds. The built-in kernels use 4-byte floats and ints;
// a learner's kernel may also use 1-, 2- and 8-byte elements (an image of unsigned char, a
// vector of double). The model keeps each element in one 32-bit word (1 to 4 bytes, zero-
// extended) or in two (8 bytes, low word first).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace threadmap {

// Float16: IEEE binary16, CUDA's __half (cuda_fp16.h); its bits convert as half_bits.hpp does.
// BFloat16: CUDA's __nv_bfloat16 (cuda_bf16.h), a float's top 16 bits (bfloat16_bits.hpp).
enum class ValueType {
    Float32,
    Int32,
    UInt32,
    Float64,
    Int64,
    UInt64,
    Int8,
    UInt8,
    Int16,
    UInt16,
    Bool,
    Float16,
    BFloat16
};

uint32_t value_bytes(ValueType t);
inline uint32_t value_words(ValueType t) { return value_bytes(t) == 8 ? 2 : 1; }
inline bool value_is_float(ValueType t) {
    return t == ValueType::Float32 || t == ValueType::Float64 || t == ValueType::Float16 || t == ValueType::BFloat16;
}
inline bool value_is_signed(ValueType t) {
    return t == ValueType::Int8 || t == ValueType::Int16 || t == ValueType::Int32 || t == ValueType::Int64;
}
// Element i of an array's words (`words` per element: value_words), zero-extended, and its
// setter: the low word first.
inline uint64_t element_bits(const std::vector<uint32_t>& bits, uint32_t words, uint64_t i) {
    return words == 1 ? bits[i] : bits[2 * i] | uint64_t(bits[2 * i + 1]) << 32;
}
inline void put_element_bits(std::vector<uint32_t>& bits, uint32_t words, uint64_t i, uint64_t v) {
    if (words == 1) {
        bits[i] = uint32_t(v);
    } else {
        bits[2 * i] = uint32_t(v);
        bits[2 * i + 1] = uint32_t(v >> 32);
    }
}
// Its name in a binding (`--bind a=uchar[64]`) and in messages: float, double, int, uint,
// int64, uint64, char, uchar, short, ushort, bool, half, bfloat16.
const char* value_type_name(ValueType t);
// A name as a learner may write it: the names above, and C's (`unsigned char`, `long long`,
// `unsigned`, `int8_t`, …).
std::optional<ValueType> value_type_named(const std::string& name);

// Element `e` of `bits` (value_words(t) words each), as its C++ type prints it (%g for floats).
std::string value_text(ValueType t, const std::vector<uint32_t>& bits, uint64_t e);
// Whether elements `e` of two arrays of type t hold the same bits.
bool same_value(ValueType t, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, uint64_t e);

}  // namespace threadmap
