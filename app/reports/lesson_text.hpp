// A lesson's sentences with their figures filled in from the lesson's own launch, so that
// every number a learner reads is either computed (from the launch and the emulator's map)
// or listed with its source in the lesson file. Placeholders are {name}: see lesson_figures.
#pragma once

#include <map>
#include <string>

#include "app/launch/lessons.hpp"

namespace threadmap {

// The figures of the lesson's launch, by placeholder name: n, rows, cols, inner, a_rows,
// b_cols, grid, block ("16x16"), blocks, threads_per_block, threads_launched,
// threads_active, threads_idle, idle_percent, elements, elements_untouched, elements_multi,
// stride (blockDim.x·gridDim.x), stores (stores per element of a matmul: inner),
// missing_percent (C's share of A·B not computed). Computed once per lesson (runs of its launch:
// up to 0.7 s for a heavy lesson, one lesson at a time) and kept; from any thread.
const std::map<std::string, std::string>& lesson_figures(const Lesson& lesson);
// The same when they were computed, else nullptr; never waits (the window's frames ask).
const std::map<std::string, std::string>* cached_lesson_figures(const Lesson& lesson);

// text with every {name} replaced by its figure; an unknown name stays as written, or becomes
// `unknown` when given (the window's "…" while the figures are computed).
std::string fill_lesson_text(const std::string& text, const std::map<std::string, std::string>& figures,
                             const char* unknown = nullptr);

// A lesson's text as the screen shows it: its figures filled in ("…" for each while `figures`
// is null: still being computed), no `code` marks.
std::string lesson_text_shown(const std::string& text, const std::map<std::string, std::string>* figures);

// Large counts as a learner reads them: 16992 → "16,992" (four digits stay as they are).
std::string grouped(uint64_t value);

}  // namespace threadmap
