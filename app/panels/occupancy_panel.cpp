// Occupancy panel; see occupancy_panel.hpp.
#include "app/panels/occupancy_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <string>
#include <string_view>

#include "app/launch/device_profiles.hpp"
#include "app/reports/occupancy_report.hpp"
#include "app/panels/panel_widgets.hpp"

namespace threadmap {

namespace {

// The sweep chart's gridlines, its occupancy axis (0, 50, 100%) left of the bars and the title
// under them.
void draw_sweep_axes(ImDrawList* dl, ImVec2 origin, float width, float height, float label_h) {
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    for (float level : {0.25f, 0.5f, 0.75f, 1.0f})
        dl->AddLine(ImVec2(origin.x, origin.y + height * (1 - level)),
                    ImVec2(origin.x + width, origin.y + height * (1 - level)), IM_COL32(70, 72, 80, 255));
    for (int level : {0, 50, 100}) {
        const std::string label = std::to_string(level) + "%";
        const float y = origin.y + height * (1 - float(level) / 100) - label_h / 2;
        dl->AddText(ImVec2(origin.x - ImGui::CalcTextSize(label.c_str()).x - 4,
                           std::clamp(y, origin.y, origin.y + height - label_h)),
                    text, label.c_str());
    }
    // The longest title the chart's width holds (beside the timeline, half the tab's).
    for (const char* title : {"threads per block (bars: occupancy; in them: waves; green: modeled time)",
                              "threads per block (bars: occupancy; green: time)", "threads per block"})
        if (ImGui::CalcTextSize(title).x <= width || std::string_view(title) == "threads per block") {
            dl->AddText(ImVec2(origin.x, origin.y + height + label_h), text, title);
            break;
        }
}

// Below the chart: the fastest, yours and the slowest time (the line spans the range only: this
// says how wide it is, so small differences are not read as large); over a bar, its figures.
void sweep_times(const std::vector<OccupancySweepPoint>& points, int current, int hovered) {
    if (const std::string times = sweep_time_sentence(points, current); !times.empty())
        text_wrapped("%s", times.c_str());
    if (hovered < 0) return;
    const auto& p = points[size_t(hovered)];
    ImGui::SetTooltip(
        "%d threads per block (%s): %d blocks per SM, occupancy %s (%s)\n%llu waves, the last %s "
        "full\nmodeled kernel: %s",
        p.block_size, to_string(p.block).c_str(), p.occupancy.active_blocks_per_sm,
        percent_text(p.occupancy.occupancy).c_str(), main_limiter_name(p.occupancy.limiters),
        static_cast<unsigned long long>(p.waves.waves), percent_text(p.waves.last_wave_fill).c_str(),
        p.kernel_seconds ? micro_seconds(*p.kernel_seconds).c_str() : "-");
}

// Occupancy bars per block size (yours orange) with their waves written in them, the modeled
// kernel time as a line across (the fastest highest); a tooltip gives every figure of a size.
void draw_sweep(AppState& state, const std::vector<OccupancySweepPoint>& points, int current) {
    if (points.empty()) return;
    const float scale = state.settings.ui_scale;
    const float height = 150 * scale, label_h = ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 corner = ImGui::GetCursorScreenPos();
    const float axis_w = ImGui::CalcTextSize("100% ").x;  // the occupancy axis, left of the bars
    const float width = std::max(ImGui::GetContentRegionAvail().x - axis_w, 100.0f);
    ImGui::InvisibleButton("occupancy-sweep", ImVec2(width + axis_w, height + 2 * label_h));
    remember_rect(state, "occupancy-sweep");
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin(corner.x + axis_w, corner.y);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const float bar = width / float(points.size());
    dl->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height), IM_COL32(30, 32, 38, 255));
    draw_sweep_axes(dl, origin, width, height, label_h);
    const auto [fastest, slowest] = sweep_time_range(points);
    std::vector<ImVec2> time_line;
    int hovered = -1;
    for (size_t i = 0; i < points.size(); ++i) {
        const auto& p = points[i];
        const float x0 = origin.x + bar * float(i) + 1, x1 = origin.x + bar * float(i + 1) - 1;
        const float top = origin.y + height * (1 - float(p.occupancy.occupancy));
        const bool mine = p.block_size == current;
        dl->AddRectFilled(ImVec2(x0, top), ImVec2(x1, origin.y + height),
                          mine ? IM_COL32(242, 142, 43, 255) : IM_COL32(78, 121, 167, 255));
        const std::string waves = std::to_string(p.waves.waves);
        // With a gap to the next bar's: side by side with the timeline, digits in 11-pixel bars
        // ran together ("6433222").
        if (ImGui::CalcTextSize(waves.c_str()).x + ImGui::GetFontSize() * 0.4f < x1 - x0)
            dl->AddText(ImVec2(x0 + 1, origin.y + height - label_h), IM_COL32(235, 235, 235, 255), waves.c_str());
        if (p.kernel_seconds && slowest > fastest)  // the time line: the fastest at the top
            time_line.push_back(ImVec2(
                (x0 + x1) / 2,
                origin.y + height * (0.95f - 0.9f * float((slowest - *p.kernel_seconds) / (slowest - fastest)))));
        if (ImGui::IsItemHovered() && ImGui::GetIO().MousePos.x >= x0 - 1 && ImGui::GetIO().MousePos.x < x1 + 1)
            hovered = int(i);
        if (p.block_size % 256 == 0 || p.block_size == 32) {  // the last label ends at the chart's edge
            const std::string size = std::to_string(p.block_size);
            const float w = ImGui::CalcTextSize(size.c_str()).x;
            dl->AddText(ImVec2(std::min(x0, origin.x + width - w), origin.y + height + 2), text, size.c_str());
        }
    }
    dl->AddPolyline(time_line.data(), int(time_line.size()), IM_COL32(89, 220, 120, 255), 0, 2 * scale);
    sweep_times(points, current, hovered);
}

// The SM × wave timeline: a row per SM, a column per wave (the first three and the last three
// when there are more than twelve), each bar as long as the blocks the SM runs in that wave
// out of its slots, in the order kBlockOrderNote names — a last wave's idle tail is the
// empty rows of its column.
void draw_wave_timeline(AppState& state, const OccupancyReport& r) {
    const Waves& w = r.waves;
    const uint64_t sms = uint64_t(r.gpu.sms), per_sm = uint64_t(r.occupancy.active_blocks_per_sm);
    if (w.waves == 0 || sms == 0 || per_sm == 0) return;
    std::vector<int64_t> columns;  // wave numbers, -1 for the gap
    if (w.waves <= 12) {
        for (uint64_t k = 0; k < w.waves; ++k) columns.push_back(int64_t(k));
    } else {
        const int64_t last = int64_t(w.waves) - 1;
        columns = {0, 1, 2, -1, last - 2, last - 1, last};
    }
    const float font = ImGui::GetFontSize(), label_w = ImGui::CalcTextSize("SM 000 ").x;
    const float width = std::max(ImGui::GetContentRegionAvail().x - label_w, 100.0f);
    const float height = std::max(font * 5, std::min(font * 8, float(sms) * 2));
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("wave-timeline", ImVec2(width + label_w, height + font * 1.4f));
    remember_rect(state, "occupancy-waves");
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), idle = ImGui::GetColorU32(ImGuiCol_FrameBg);
    const float x0 = origin.x + label_w, column = width / float(columns.size()), row = height / float(sms);
    dl->AddText(origin, text, "SM 0");
    dl->AddText(ImVec2(origin.x, origin.y + height - font), text, ("SM " + std::to_string(sms - 1)).c_str());
    for (size_t c = 0; c < columns.size(); ++c) {
        const float left = x0 + column * float(c) + 1, right = x0 + column * float(c + 1) - 1;
        if (columns[c] < 0) {
            dl->AddText(ImVec2((left + right) / 2 - font / 2, origin.y + height / 2 - font / 2), text, "...");
            continue;
        }
        const uint64_t wave = uint64_t(columns[c]);
        const uint64_t in_wave = std::min(w.slots, w.blocks - wave * w.slots);
        dl->AddRectFilled(ImVec2(left, origin.y), ImVec2(right, origin.y + height), idle);
        for (uint64_t sm = 0; sm < sms; ++sm) {  // blocks dealt round-robin: in_wave / sms each, the first more
            const uint64_t blocks = in_wave / sms + (sm < in_wave % sms ? 1 : 0);
            if (blocks == 0) continue;
            // At least 3 pixels high: a GPU's 132 SMs take a pixel each, and a last wave's one
            // block was a line a projector did not show.
            const float top = origin.y + row * float(sm);
            dl->AddRectFilled(ImVec2(left, top),
                              ImVec2(left + (right - left) * float(blocks) / float(per_sm), top + std::max(row, 3.0f)),
                              IM_COL32(78, 121, 167, 255));
        }
        // The column's blocks in words where they fit: "wave 2: 1 block" says what its bars draw;
        // in narrower columns "wave 2", or "2" (eight waves beside the sweep ran into each other).
        const std::string number = std::to_string(wave + 1), named = "wave " + number;
        const std::string counted = named + ": " + std::to_string(in_wave) + (in_wave == 1 ? " block" : " blocks");
        for (const std::string& label : {counted, named, number})
            if (ImGui::CalcTextSize(label.c_str()).x < right - left) {
                dl->AddText(ImVec2(left, origin.y + height + 2), text, label.c_str());
                break;
            }
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Each row an SM, each column a wave: a bar is the blocks that SM runs in that wave, out of "
            "its %llu slots (%s).",
            static_cast<unsigned long long>(per_sm), kBlockOrderNote);
}

// The timeline and the buttons that colour the map by SM or by wave.
void draw_waves_part(AppState& state, const OccupancyReport& r) {
    draw_wave_timeline(state, r);
    colour_map_button(state, "Colour the map by SM", "sm", "occupancy");
    same_line_if_fits(button_width("Colour the map by wave"));
    colour_map_button(state, "Colour the map by wave", "wave", "occupancy");
}

// The block size sweep, its chart first and what it draws under it.
void draw_sweep_part(AppState& state, const MapPicture& picture, const OccupancyReport& r) {
    const auto& profiles = device_profiles();
    const DeviceProfile& profile = profiles[size_t(std::clamp(state.timing.profile, 0, int(profiles.size()) - 1))];
    draw_sweep(state, occupancy_sweep(picture.launch, r.gpu, &profile, state.timing.program), r.block_size);
    text_wrapped(
        "Block size sweep, 32 to 1024 threads per block on the same data: bars are occupancy (yours orange) with the "
        "waves written in them; the green line is the modeled kernel time on this profile, waves counted, from bytes "
        "and flops only (the Timing tab also counts the launch's sectors); higher is faster. Hover a bar for its "
        "figures.");
}

}  // namespace

void draw_occupancy_panel(AppState& state) {
    device_profile_combo(state, "GPU");  // the Timing tab's device profile: one choice
    remember_rect(state, "occupancy-gpu");
    if (!state.picture) return;
    const MapPicture& picture = *state.picture;
    if (!picture.occupancy) {
        text_wrapped("%s", picture.occupancy_error.c_str());
        return;
    }
    const OccupancyReport& r = *picture.occupancy;
    const Occupancy& o = r.occupancy;
    disabled_note(r.gpu.source);
    text_wrapped("%s: %d threads per block; %d registers per thread (%s); %llu bytes of shared memory per block",
                 r.launch.spec->name.c_str(), r.block_size, r.resources.resources.registers_per_thread,
                 r.resources.registers_origin.c_str(),
                 static_cast<unsigned long long>(r.resources.resources.shared_bytes_per_block));
    if (o.active_blocks_per_sm == 0) {
        ImGui::PushStyleColor(ImGuiCol_Text, error_color());
        text_wrapped("This launch cannot run on %s: %s", r.gpu.name.c_str(), o.cannot_launch.c_str());
        ImGui::PopStyleColor();
        return;
    }
    headline(state, percent_text(o.occupancy) + " occupancy, limited by " + main_limiter_name(o.limiters),
             std::to_string(o.active_blocks_per_sm) + " blocks per SM, " + std::to_string(o.active_warps_per_sm) +
                 " of " + std::to_string(o.max_warps_per_sm) +
                 " warps: " + limiter_sentence(r.gpu.sm, o, r.block_size) + ".",
             "occupancy-figures");
    const auto limit = [](int v) { return v == INT_MAX ? std::string("-") : std::to_string(v); };
    disabled_note("Each limit alone: warps " + limit(o.limit_warps) + ", registers " + limit(o.limit_registers) +
                  ", shared memory " + limit(o.limit_shared) + ", block slots " + limit(o.limit_blocks) +
                  ", barriers " + limit(o.limit_barriers) +
                  " blocks per SM (CUDA's occupancy calculator, compute capability " + r.gpu.sm.name() + ").");
    const Waves& w = r.waves;
    text_wrapped(
        "Waves: %llu blocks over %llu slots (%d per SM x %d SMs) = %llu %s; the last is %s full, so %s "
        "of the GPU's slots idle while it runs.",
        static_cast<unsigned long long>(w.blocks), static_cast<unsigned long long>(w.slots), o.active_blocks_per_sm,
        r.gpu.sms, static_cast<unsigned long long>(w.waves), w.waves == 1 ? "wave" : "waves",
        percent_text(w.last_wave_fill).c_str(), percent_text(1 - w.last_wave_fill).c_str());
    // The two pictures side by side where the tab is wide enough, so that at a projector's 720
    // pixels the sweep a lesson's Look for points at is on screen with the timeline, not under it.
    if (ImGui::GetContentRegionAvail().x >= ImGui::GetFontSize() * 36 &&
        ImGui::BeginTable("occupancy-pictures", 2, ImGuiTableFlags_SizingStretchSame)) {
        ImGui::TableNextColumn();
        draw_waves_part(state, r);
        ImGui::TableNextColumn();
        draw_sweep_part(state, picture, r);
        ImGui::EndTable();
    } else {
        draw_waves_part(state, r);
        ImGui::Separator();
        draw_sweep_part(state, picture, r);
    }
    disabled_note(std::string(kBlockOrderNote) + ".");
}

}  // namespace threadmap
