#include "kernels/model/value_type.hpp"

#include <bit>
#include <cstdio>

#include "kernels/model/bfloat16_bits.hpp"
#include "kernels/model/half_bits.hpp"

namespace threadmap {

uint32_t value_bytes(ValueType t) {
    switch (t) {
        case ValueType::Float64:
        case ValueType::Int64:
        case ValueType::UInt64:
            return 8;
        case ValueType::Int16:
        case ValueType::UInt16:
        case ValueType::Float16:
        case ValueType::BFloat16:
            return 2;
        case ValueType::Int8:
        case ValueType::UInt8:
        case ValueType::Bool:
            return 1;
        default:
            return 4;
    }
}

const char* value_type_name(ValueType t) {
    switch (t) {
        case ValueType::Float32:
            return "float";
        case ValueType::Int32:
            return "int";
        case ValueType::UInt32:
            return "uint";
        case ValueType::Float64:
            return "double";
        case ValueType::Int64:
            return "int64";
        case ValueType::UInt64:
            return "uint64";
        case ValueType::Int8:
            return "char";
        case ValueType::UInt8:
            return "uchar";
        case ValueType::Int16:
            return "short";
        case ValueType::UInt16:
            return "ushort";
        case ValueType::Bool:
            return "bool";
        case ValueType::Float16:
            return "half";
        case ValueType::BFloat16:
            return "bfloat16";
    }
    return "?";
}

std::optional<ValueType> value_type_named(const std::string& name) {
    static const struct {
        const char* name;
        ValueType type;
    } kNames[] = {
        {"float", ValueType::Float32},
        {"double", ValueType::Float64},
        {"int", ValueType::Int32},
        {"int32_t", ValueType::Int32},
        {"uint", ValueType::UInt32},
        {"unsigned", ValueType::UInt32},
        {"unsigned int", ValueType::UInt32},
        {"uint32_t", ValueType::UInt32},
        {"int64", ValueType::Int64},
        {"long", ValueType::Int64},
        {"long long", ValueType::Int64},
        {"int64_t", ValueType::Int64},
        {"uint64", ValueType::UInt64},
        {"unsigned long", ValueType::UInt64},
        {"unsigned long long", ValueType::UInt64},
        {"uint64_t", ValueType::UInt64},
        {"char", ValueType::Int8},
        {"signed char", ValueType::Int8},
        {"int8_t", ValueType::Int8},
        {"uchar", ValueType::UInt8},
        {"unsigned char", ValueType::UInt8},
        {"uint8_t", ValueType::UInt8},
        {"short", ValueType::Int16},
        {"int16_t", ValueType::Int16},
        {"ushort", ValueType::UInt16},
        {"unsigned short", ValueType::UInt16},
        {"uint16_t", ValueType::UInt16},
        {"bool", ValueType::Bool},
        {"half", ValueType::Float16},
        {"__half", ValueType::Float16},
        {"bfloat16", ValueType::BFloat16},
        {"nv_bfloat16", ValueType::BFloat16},
        {"__nv_bfloat16", ValueType::BFloat16},
    };
    for (const auto& n : kNames)
        if (name == n.name) return n.type;
    return std::nullopt;
}

std::string value_text(ValueType t, const std::vector<uint32_t>& bits, uint64_t e) {
    const uint64_t wide = element_bits(bits, value_words(t), e);
    const uint32_t low = uint32_t(wide);
    char s[32];
    switch (t) {
        case ValueType::Float32:
            std::snprintf(s, sizeof s, "%g", double(std::bit_cast<float>(low)));
            return s;
        case ValueType::Float64:
            std::snprintf(s, sizeof s, "%g", std::bit_cast<double>(wide));
            return s;
        case ValueType::Float16:
            std::snprintf(s, sizeof s, "%g", double(__threadmap_half_to_float(uint16_t(low))));
            return s;
        case ValueType::BFloat16:
            std::snprintf(s, sizeof s, "%g", double(__threadmap_bf16_to_float(uint16_t(low))));
            return s;
        case ValueType::Int32:
            return std::to_string(int32_t(low));
        case ValueType::Int64:
            return std::to_string(int64_t(wide));
        case ValueType::Int8:
            return std::to_string(int8_t(low));
        case ValueType::Int16:
            return std::to_string(int16_t(low));
        case ValueType::Bool:
            return low ? "true" : "false";
        default:
            return std::to_string(wide);
    }
}

bool same_value(ValueType t, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, uint64_t e) {
    return element_bits(a, value_words(t), e) == element_bits(b, value_words(t), e);
}

}  // namespace threadmap
