// The export budget; see export_budget.hpp.
#include "app/window_state/export_budget.hpp"

namespace threadmap {

namespace {

std::string size_text(uint64_t w, uint64_t h) { return std::to_string(w) + "x" + std::to_string(h) + " pixels"; }

std::string over_what(uint64_t w, uint64_t h, int max_side) {
    if (w > uint64_t(max_side) || h > uint64_t(max_side))
        return "wider or taller than this GPU's " + std::to_string(max_side) + "-pixel limit";
    return "over the " + std::to_string(kExportPixelBudget / 1'000'000) + "-megapixel export budget";
}

}  // namespace

ExportScale fit_export_scale(int width, int height, int wanted, int max_side) {
    const auto fits = [&](int k) {
        const uint64_t w = uint64_t(width) * k, h = uint64_t(height) * k;
        return w * h <= kExportPixelBudget && w <= uint64_t(max_side) && h <= uint64_t(max_side);
    };
    const uint64_t w = uint64_t(width) * wanted, h = uint64_t(height) * wanted;
    for (int k = wanted; k >= 1; k /= 2) {
        if (!fits(k)) continue;
        if (k == wanted) return {k, {}};
        return {k, "at " + std::to_string(k) + "x: " + std::to_string(wanted) + "x would be " + size_text(w, h) + ", " +
                       over_what(w, h, max_side)};
    }
    return {0, "not exported: it would be " + size_text(width, height) + ", " + over_what(width, height, max_side)};
}

}  // namespace threadmap
