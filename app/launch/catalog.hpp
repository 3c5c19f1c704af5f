// A catalog of named assets embedded in the binary (lessons, device profiles): each file
// parsed once by the item's own parser, sorted by name (or by the order given), found by name,
// listed for messages.
// A malformed asset is a build defect: its parser throws and the tests say which.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/core/embedded_file.hpp"

namespace threadmap {

template <class Item>
class Catalog {
  public:
    using Parser = Item (*)(const std::string& text);
    using Before = bool (*)(const Item& a, const Item& b);

    Catalog(const EmbeddedFile* files, int count, Parser parse, Before before = nullptr) {
        for (int i = 0; i < count; ++i) items_.push_back(parse(files[i].text));
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
