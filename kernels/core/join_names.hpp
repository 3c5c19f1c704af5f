// "a, b or c" from a list and each item's name: the one way help texts and error messages
// list the kernels, colour modes and other choices.
#pragma once

#include <string>
#include <vector>

namespace threadmap {

template <class T, class NameOf>
std::string join_names(const std::vector<T>& items, NameOf name_of, const char* separator, const char* last) {
    std::string s;
    for (size_t i = 0; i < items.size(); ++i)
        s += (i == 0 ? "" : i + 1 == items.size() ? last : separator) + std::string(name_of(items[i]));
    return s;
}

}  // namespace threadmap
