// Findings on the map and in the source; see finding_target.hpp.
#include "app/window_state/finding_target.hpp"

#include <algorithm>

namespace threadmap {

using FindingTarget = AppState::FindingTarget;

std::optional<FindingTarget> finding_target(const MapPicture& picture, const Finding& f) {
    const auto& model = picture.launch.model;
    if (model && f.kind == FindingKind::DivergentBarrier && picture.findings.diverged) {
        // A cell of the block where it diverged: first one whose thread did not wait there.
        const std::vector<uint8_t>& found = picture.findings.found;
        for (uint8_t side : {uint8_t(kFoundBarrierElsewhere | kFoundBarrierExited), uint8_t(kFoundBarrierWaiting)})
            for (uint64_t e = 0; e < found.size(); ++e)
                if (found[e] & side) return FindingTarget{model->array, model->shared_block, e};
        return std::nullopt;
    }
    if (model && is_undefined_shuffle(f)) {
        // A shuffle's undefined value: the first cell its thread touched on the map, if any.
        const std::vector<uint8_t>& found = picture.findings.found;
        const ThreadMap& map = picture.result.map;
        for (uint64_t e = 0; e < found.size() && e < map.size(); ++e)
            if (found[e] & kFoundUndefinedShuffle)
                if (const auto c = map.toucher(e);
                    c && c->block == f.threads[0].block && c->thread == f.threads[0].thread)
                    return FindingTarget{model->array, model->shared_block, e};
        return std::nullopt;
    }
    if (f.index.empty()) return std::nullopt;
    if (model && f.kind == FindingKind::OutOfBounds && f.index.size() == 1 &&
        f.array == model->spec->arrays[model->array].name && !f.threads.empty()) {
        const FindingTarget t{model->array, model->shared() ? f.threads.front().block : Dim3{0, 0, 0}, f.index[0]};
        const uint64_t n = element_count(picture.launch.workload);
        const auto& past = picture.result.map.past_touches;
        if (f.index[0] >= n && shows(picture, t)) {  // a drawn cell past the end that this access touched
            const uint64_t k = f.index[0] - n;
            if (k < picture.layout.past_cells && k < past.size() && past[k] > 0) return t;
        }
    }
    if (!model) {  // a tutorial kernel: its one array is the map
        if (f.array != picture.findings.output) return std::nullopt;
        const Workload& workload = picture.launch.workload;
        const uint64_t e = f.index.size() == 2 ? f.index[0] * workload.cols + f.index[1] : f.index[0];
        return e < element_count(workload) ? std::optional<FindingTarget>({0, {0, 0, 0}, e}) : std::nullopt;
    }
    const std::vector<ArraySpec>& arrays = model->spec->arrays;
    const auto a = std::find_if(arrays.begin(), arrays.end(), [&](const ArraySpec& s) { return s.name == f.array; });
    if (a == arrays.end() || (a->space == MemorySpace::Shared && f.threads.empty())) return std::nullopt;
    const std::vector<uint64_t> shape = a->shape(model->params, picture.launch.launch);
    if (shape.size() != f.index.size()) return std::nullopt;
    uint64_t e = 0;  // row-major, as the map lays an array out
    for (size_t d = 0; d < shape.size(); ++d) {
        if (f.index[d] >= shape[d]) return std::nullopt;  // past the end: no cell shows it
        e = e * shape[d] + f.index[d];
    }
    const Dim3 block = a->space == MemorySpace::Shared ? f.threads.front().block : Dim3{0, 0, 0};
    return FindingTarget{size_t(a - arrays.begin()), block, e};
}

bool on_map(const MapPicture& picture, const FindingTarget& t) { return !picture.launch.model || shows(picture, t); }

namespace {

// The cell of a finding that the map on screen draws.
std::optional<glm::ivec2> cell_of(const MapPicture& picture, const Finding& f) {
    const auto t = finding_target(picture, f);
    if (!t || !on_map(picture, *t)) return std::nullopt;
    uint32_t x = 0, y = 0;
    picture.layout.cell_of(t->element, x, y);
    return glm::ivec2(int(x), int(y));
}

}  // namespace

std::vector<int> finding_lines_at(const MapPicture& picture, glm::ivec2 cell) {
    std::vector<int> lines;
    for (const Finding& f : picture.findings.list)
        if (f.kind != FindingKind::DivergentBarrier && !is_undefined_shuffle(f))  // their cells stand for a block
            if (const auto c = cell_of(picture, f); c && *c == cell) lines.push_back(f.line);
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    return lines;
}

std::vector<glm::ivec2> finding_cells_of_line(const MapPicture& picture, int line) {
    std::vector<glm::ivec2> cells;
    for (const Finding& f : picture.findings.list)
        if (f.line == line && f.kind != FindingKind::DivergentBarrier && !is_undefined_shuffle(f))
            if (const auto c = cell_of(picture, f)) cells.push_back(*c);
    return cells;
}

std::map<int, size_t> findings_per_line(const MapPicture& picture) {
    std::map<int, size_t> per_line;
    for (const Finding& f : picture.findings.list) ++per_line[f.line];
    return per_line;
}

}  // namespace threadmap
