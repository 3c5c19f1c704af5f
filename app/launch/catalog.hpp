// A catalog of named assets embedded in the binary (lessons, device profiles): each file
// parsed once by the item's own parser, sorted by name (or by the order given), found by name,
// listed for messages.
// A malformed asset is a build defect: the catalog stops the program naming it (every test
// that lists lessons or profiles fails on it).
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernels/core/embedded_file.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

template <class Item>
class Catalog {
  public:
    using Parser = Outcome<Item> (*)(const std::string& text);
    using Before = bool (*)(const Item& a, const Item& b);

    Catalog(const EmbeddedFile* files, int count, Parser parse, Before before = nullptr) {
        for (int i = 0; i < count; ++i) {
            Outcome<Item> item = parse(files[i].text);
            if (!item.value) {
                std::fprintf(stderr, "threadmap: the embedded %s is malformed: %s\n", files[i].name,
                             item.error.c_str());
                std::abort();
            }
            items_.push_back(std::move(*item.value));
        }
        std::sort(items_.begin(), items_.end(), [before](const Item& a, const Item& b) {
            return before ? before(a, b) || (!before(b, a) && a.name < b.name) : a.name < b.name;
        });
    }

    const std::vector<Item>& items() const { return items_; }

    const Item* find(const std::string& name) const {
        for (const auto& item : items_)
            if (item.name == name) return &item;
        return nullptr;
    }

    std::string names() const {  // "a, b, c"
        std::string s;
        for (const auto& item : items_) s += (s.empty() ? "" : ", ") + item.name;
        return s;
    }

  private:
    std::vector<Item> items_;
};

}  // namespace threadmap
