// Small pieces the panels share; see panel_widgets.hpp.
#include "app/panels/panel_widgets.hpp"

#include <algorithm>
#include <vector>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "viz/draw/legend.hpp"
#include "viz/draw/ui_font.hpp"

namespace threadmap {

std::string keep_numbers_whole(const std::string& text) {
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    // The ends of the short parenthesised groups: their spaces do not break.
    std::vector<bool> in_group(text.size(), false);
    for (size_t open = text.find('('); open != std::string::npos; open = text.find('(', open + 1)) {
        const size_t close = text.find_first_of("()", open + 1);
        if (close != std::string::npos && text[close] == ')' && close - open <= kWholeGroupChars)
            std::fill(in_group.begin() + ptrdiff_t(open), in_group.begin() + ptrdiff_t(close), true);
    }
    std::string kept;
    kept.reserve(text.size() + 16);
    for (size_t i = 0; i < text.size(); ++i) {
        const bool between_digits = i > 0 && i + 1 < text.size() && digit(text[i - 1]) && digit(text[i + 1]);
        if (text[i] == '.' && between_digits)
            kept += "\u2024";  // one dot leader
        else if (text[i] == ',' && (between_digits || in_group[i]))
            kept += "\u201A";  // a single low-9 quotation mark, a comma to the eye
        else if (text[i] == ' ' && in_group[i])
            kept += "\u00A0";  // a no-break space
        else
            kept += text[i];
    }
    return kept;
}

void text_wrapped(const char* format, ...) {
    va_list args, again;
    va_start(args, format);
    va_copy(again, args);
    const int size = std::vsnprintf(nullptr, 0, format, args);
    va_end(args);
    std::string text(size > 0 ? size_t(size) : 0, '\0');
    if (size > 0) std::vsnprintf(text.data(), text.size() + 1, format, again);
    va_end(again);
    ImGui::TextWrapped("%s", keep_numbers_whole(text).c_str());
}

std::string wrap_to_width(const std::string& text, float width) {
    const auto fits = [width](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x <= width; };
    std::string wrapped, line;
    bool started = false;  // the line has a word (an empty one too: a code line's leading spaces)
    for (size_t start = 0; start <= text.size();) {
        const size_t end = std::min(text.find(' ', start), text.size());
        std::string word = text.substr(start, end - start);
        start = end + 1;
        const std::string longer = started ? line + " " + word : word;
        if (fits(longer)) {
            line = longer;
            started = true;
            continue;
        }
        if (started) wrapped += line + "\n";
        line.clear();
        started = false;
        if (word.empty()) continue;  // a line goes on without the spaces it broke at
        // A word wider than the line (a preset's name, a file's, code) is cut after a ',', '(' or
        // '[' where one lets a piece fit, else after a '-', '_', '/' or '.' (ImGui cut
        // "transpose-bank-conflict" from its "s"; "increment_by_one(an_" / "array):" hid the
        // parameter's name), else where the line ends.
        while (!fits(word) && word.size() > 1) {
            size_t between = 0, inside = 0, fitting = 1;
            for (size_t i = 1; i < word.size() && fits(word.substr(0, i)); ++i) {
                fitting = i;
                if (std::strchr(",([", word[i - 1])) between = i;
                if (std::strchr("-_/.", word[i - 1])) inside = i;
            }
            const size_t cut = between ? between : inside ? inside : fitting;
            wrapped += word.substr(0, cut) + "\n";
            word.erase(0, cut);
        }
        line = word;
        started = true;
    }
    return wrapped + line;
}

namespace {

float box_width() { return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x; }

// `label` wrapped to the line's rest less `less`, with the ID `id`.
std::string wrapped_label(const std::string& label, float less, const char* id) {
    return wrap_to_width(label, std::max(ImGui::GetContentRegionAvail().x - less, 1.0f)) + "###" + id;
}

}  // namespace

bool wrapped_checkbox(const std::string& label, const char* id, bool* v) {
    return ImGui::Checkbox(wrapped_label(label, box_width(), id).c_str(), v);
}

bool wrapped_radio(const std::string& label, const char* id, bool active) {
    return ImGui::RadioButton(wrapped_label(label, box_width(), id).c_str(), active);
}

bool wrapped_button(const std::string& label, const char* id) {
    return ImGui::Button(wrapped_label(label, button_width(""), id).c_str());
}

float box_item_width(const std::string& label) { return box_width() + ImGui::CalcTextSize(label.c_str()).x; }

float button_width(const std::string& label) {
    return ImGui::CalcTextSize(label.c_str(), nullptr, true).x + 2 * ImGui::GetStyle().FramePadding.x;
}

void same_line_if_fits(float width, float spacing) {
    if (spacing < 0) spacing = ImGui::GetStyle().ItemSpacing.x;
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + spacing + width <= right) ImGui::SameLine(0, spacing);
}

std::string place_label(const char* label, float width) {
    const float avail = ImGui::GetContentRegionAvail().x;
    const float beside = ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
    const std::string id = std::string("###") + label;
    if (width + beside <= avail) {
        ImGui::SetNextItemWidth(width);
        return label + id;
    }
    ImGui::TextUnformatted(label);
    ImGui::SetNextItemWidth(avail);
    return id;
}

std::string place_combo_label(const char* label, const std::string& preview, float width) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float avail = ImGui::GetContentRegionAvail().x;
    const float combo = width + style.ItemInnerSpacing.x + ImGui::CalcTextSize(label).x <= avail ? width : avail;
    if (ImGui::CalcTextSize(preview.c_str()).x + ImGui::GetFrameHeight() + style.FramePadding.x <= combo)
        return place_label(label, width);
    ImGui::TextUnformatted(wrap_to_width(std::string(label) + ": " + preview, avail).c_str());
    ImGui::SetNextItemWidth(avail);
    return std::string("###") + label;
}

bool dim3_fields(AppState& state, const char* id, Dim3& d, float width) {
    bool changed = false;
    ImGui::PushID(id);
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const float w = ((width > 0 ? width : ImGui::GetContentRegionAvail().x) - 2 * spacing) / 3;
    uint32_t* parts[] = {&d.x, &d.y, &d.z};
    const char* axis[] = {"x", "y", "z"};
    for (int i = 0; i < 3; ++i) {
        if (i) ImGui::SameLine();
        ImGui::SetNextItemWidth(w);
        ImGui::PushID(i);
        changed |= ImGui::InputScalar("##v", ImGuiDataType_U32, parts[i], nullptr, nullptr, "%u");
        remember_rect(state, std::string(id) + "." + axis[i]);
        ImGui::PopID();
    }
    ImGui::PopID();
    return changed;
}

void color_mode_combo(AppState& state, float width) {
    const ColorMode current = state.color_mode();
    ImGui::SetNextItemWidth(width);
    if (ImGui::BeginCombo("##colour", color_mode_title(current).c_str())) {
        for (ColorMode m : all_color_modes()) {
            if (!ImGui::Selectable(color_mode_title(m).c_str(), m == current)) continue;
            state.settings.color_mode = color_mode_name(m);
            state.pending.recolor = true;
        }
        ImGui::EndCombo();
    }
    remember_rect(state, "colour-mode");
}

Dim3 covering_grid_of(const ResolvedLaunch& resolved) {
    return resolved.model ? resolved.model->spec->covering_grid(resolved.model->params, resolved.launch.block)
                          : covering_grid(resolved.workload, resolved.launch.block);
}

bool any_grid_covers(const ResolvedLaunch& resolved) {
    return (resolved.model || resolved.workload.kernel) &&
           resolved.spec().any_grid_covers;  // neither: nothing resolved
}

std::string covering_grid_words(const ResolvedLaunch& resolved) {
    if (resolved.model && resolved.model->owner)
        return "gridDim for one thread per element of your kernel's largest array";
    if (any_grid_covers(resolved))
        return "gridDim for one element per thread (any grid covers: the loop strides by the grid)";
    return "gridDim = the grid that covers the data for this blockDim";
}

void mark_launch_edited(AppState& state) {
    ResolvedLaunch& resolved = state.edit;
    resolved.preset.clear();  // a changed lesson is the learner's own launch now
    if (resolved.model)
        resolved.workload = model_workload(*resolved.model, resolved.launch);  // partial sums follow the grid
    state.pending.apply = true;
}

void headline(AppState& state, const std::string& figure, const std::string& meaning, const std::string& name) {
    ImGui::PushFont(heading_font());
    text_wrapped("%s", figure.c_str());
    ImGui::PopFont();
    remember_rect(state, name);
    text_wrapped("%s", meaning.c_str());
}

}  // namespace threadmap
