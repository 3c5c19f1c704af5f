// printf in a learner's kernel (CUDA's device printf): the format is read one conversion at a
// time, so that each argument is taken with the type its conversion names (a mismatch prints
// a wrong number, as on a GPU, never reads past the arguments' types) and %n, which would
// write memory, writes nothing.
#pragma once

#include <cstdarg>
#include <string>

namespace threadmap {

// `readable(p)`: whether a %s argument (or the format itself) may be read as a C string —
// false for an address of one of the model's arrays, which is not memory. Such a string is
// printed as "(not text)".
std::string format_printf(const char* format, va_list args, bool (*readable)(const void*));

}  // namespace threadmap
