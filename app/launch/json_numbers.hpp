// Numbers read out of JSON files without undefined behaviour. nlohmann's get<int>() of 1e300
// is an out-of-range float-to-int conversion (UB; the settings fuzzer found it) and
// get<uint32_t>() of -1 wraps to 4294967295 silently, so every integer a file gives is
// checked against its type first.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace threadmap {

// Whether `v` is a number that T holds exactly: for an integer T a whole number in T's range
// (2.0 counts, 2.5 does not), for a floating T a finite number within T's range.
template <class T>
bool json_fits(const nlohmann::json& v) {
    static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>);
    if (!v.is_number()) return false;
    using Limits = std::numeric_limits<T>;
    if constexpr (std::is_floating_point_v<T>) {
        const double d = v.get<double>();
        return std::isfinite(d) && std::abs(d) <= double(Limits::max());
    } else {
        if (v.is_number_unsigned()) return v.get<std::uint64_t>() <= std::uint64_t(Limits::max());
        if (v.is_number_integer()) {
            const std::int64_t i = v.get<std::int64_t>();
            return i >= std::int64_t(Limits::min()) && (i < 0 || std::uint64_t(i) <= std::uint64_t(Limits::max()));
        }
        const double d = v.get<double>();
        const double past_max = std::ldexp(1.0, Limits::digits);  // max + 1, exact in a double
        return std::isfinite(d) && d == std::trunc(d) && d >= double(Limits::min()) && d < past_max;
    }
}

// `v` as T, or std::runtime_error naming `what` when it does not fit (see json_fits).
template <class T>
T json_number(const nlohmann::json& v, const std::string& what) {
    if (!json_fits<T>(v)) {
        const char* kind = std::is_floating_point_v<T> ? "a number" : "a whole number";
        throw std::runtime_error("'" + what + "' must be " + kind + " from " +
                                 std::to_string(std::numeric_limits<T>::lowest()) + " to " +
                                 std::to_string(std::numeric_limits<T>::max()));
    }
    if constexpr (std::is_integral_v<T>)
        if (v.is_number_float()) return T(v.get<double>());  // whole and in range: exact
    return v.get<T>();
}

}  // namespace threadmap
