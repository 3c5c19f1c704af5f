// Timing panel; see timing_panel.hpp.
//
// Sections: 1. source and toggles  2. the bars of one run  3. history  4. the sweep chart
#include "timing_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "device_profiles.hpp"
#include "panel_widgets.hpp"

namespace threadmap {

namespace {

std::string seconds_text(double s) {
    char buf[32];
    if (s < 1e-3)
        std::snprintf(buf, sizeof buf, "%.1f us", s * 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.2f ms", s * 1e3);
    return buf;
}

ImU32 stage_color(const std::string& name) {
    if (name == "h2d") return IM_COL32(78, 121, 167, 255);
    if (name == "kernel") return IM_COL32(89, 161, 79, 255);
    if (name == "d2h") return IM_COL32(242, 142, 43, 255);
    return IM_COL32(150, 150, 150, 255);  // the CPU
}

// ---- 1. source and toggles ------------------------------------------------------------

void draw_controls(AppState& state) {
    TimingState& t = state.timing;
    const bool gpu = state.backend && state.backend->cuda;
    int source = int(t.source);
    ImGui::RadioButton(gpu ? "measured on this GPU" : "measured (CPU only here)", &source, int(TimingSource::Measured));
    ImGui::SameLine();
    ImGui::RadioButton("modeled", &source, int(TimingSource::Modeled));
    ImGui::SameLine();
    ImGui::RadioButton("recorded", &source, int(TimingSource::Recorded));
    t.source = TimingSource(source);
    remember_rect(state, "timing-source");
    if (t.source == TimingSource::Modeled) {
        const auto& profiles = device_profiles();
        if (!profiles.empty() && ImGui::BeginCombo("device profile", profiles[size_t(std::clamp(t.profile, 0, int(profiles.size()) - 1))].title.c_str())) {
            for (size_t i = 0; i < profiles.size(); ++i)
                if (ImGui::Selectable(profiles[i].title.c_str(), int(i) == t.profile)) t.profile = int(i);
            ImGui::EndCombo();
        }
    }
    if (t.source == TimingSource::Recorded) {
        char path[512];
        std::snprintf(path, sizeof path, "%s", t.recording_path.c_str());
        if (ImGui::InputText("recording", path, sizeof path)) t.recording_path = path;
        ImGui::SameLine();
        if (ImGui::Button("load") && state.picture) {
            nlohmann::json like = {{"kernel", std::string(kernel_name(state.picture->launch.workload.kernel))},
                                   {"shape", map_shape(state.picture->launch.workload)}};
            load_recording_into(t, like);
        }
        ImGui::TextDisabled("a file written by threadmap bench --json on a GPU machine");
    }
    ImGui::Checkbox("pinned", &t.pinned);
    ImGui::SameLine();
    ImGui::Checkbox("resident (copy once)", &t.resident);
    ImGui::SameLine();
    ImGui::Checkbox("first launch", &t.first_launch);
    const bool busy = t.run.valid();
    ImGui::BeginDisabled(busy || t.source == TimingSource::Recorded || !state.picture);
    if (ImGui::Button(busy ? "running..." : "run")) start_timing_run(t, state.picture->launch, state.backend);
    remember_rect(state, "timing-run");
    ImGui::EndDisabled();
    if (!t.message.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
        ImGui::TextWrapped("%s", t.message.c_str());
        ImGui::PopStyleColor();
    }
}

// ---- 2. the bars of one run -----------------------------------------------------------

void draw_run(const TimingState& t) {
    const nlohmann::json& j = t.current;
    if (j.is_null()) {
        ImGui::TextWrapped("Run a timing (or load a recording) to compare copies, kernel and the CPU.");
        return;
    }
    const bool recorded = j.contains("recorded_from");
    ImGui::TextWrapped("%s %s", j["kernel"].get<std::string>().c_str(), j["shape"].dump().c_str());
    ImGui::TextWrapped("%s", recorded ? ("recorded on " + j["recorded_from"].get<std::string>()).c_str()
                                      : (j["device"].get<std::string>() + ", " + j["date"].get<std::string>()).c_str());
    const auto per_launch = gpu_seconds_per_launch(j, t.resident);
    const double cpu = j["cpu_reference"]["seconds_median"];
    const double first = t.first_launch && j["first_launch_seconds"].is_number() ? double(j["first_launch_seconds"]) : 0;
    const double axis = std::max({per_launch.value_or(0) + first, cpu, 1e-9});

    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float width = ImGui::GetContentRegionAvail().x, bar = ImGui::GetFontSize() * 1.3f;
    const auto draw_bar = [&](const char* label, const std::vector<std::pair<std::string, double>>& parts) {
        ImGui::TextUnformatted(label);
        const ImVec2 p = ImGui::GetCursorScreenPos();
        float x = p.x;
        for (const auto& [name, seconds] : parts) {
            const float w = std::max(1.0f, float(seconds / axis) * width);
            dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + w, p.y + bar), stage_color(name));
            x += w;
        }
        ImGui::Dummy(ImVec2(width, bar));
    };
    if (per_launch) {
        std::vector<std::pair<std::string, double>> parts;
        if (first > 0) parts.push_back({"first", first});
        const double share = t.resident ? std::max(1.0, double(j.value("repeats", 1))) : 1.0;
        for (const auto& s : j["stages"])
            parts.push_back({s["name"], double(s["seconds_median"]) / (s["name"] == "kernel" ? 1.0 : share)});
        draw_bar(t.resident ? "GPU, per launch (data resident: copies shared over the repeats)" : "GPU, copies every launch",
                 parts);
    }
    draw_bar("CPU", {{"cpu", cpu}});
    ImGui::TextDisabled("axis: 0 to %s", seconds_text(axis).c_str());

    // Every figure with its origin.
    const ImVec2 table_size(0, ImGui::GetTextLineHeightWithSpacing() * 7.5f);
    if (ImGui::BeginTable("figures", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX,
                          table_size)) {
        for (const char* h : {"stage", "median", "min - max", "rate", "origin"}) ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
        const auto row = [&](const std::string& name, const nlohmann::json& s) {
            const double med = s["seconds_median"];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(name.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(seconds_text(med).c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%s - %s", seconds_text(s["seconds_min"]).c_str(), seconds_text(s["seconds_max"]).c_str());
            ImGui::TableNextColumn();
            const bool copy = name == "h2d" || name == "d2h";
            if (copy)
                ImGui::Text("%.2f GB/s", double(s["bytes"]) / med / 1e9);
            else
                ImGui::Text("%.2f GFLOP/s", double(j["flops"]) / med / 1e9);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(s["origin"].get<std::string>().c_str());
        };
        for (const auto& s : j["stages"]) row(s["name"], s);
        row("cpu (" + j["cpu_reference"].value("implementation", std::string("reference")) + ")", j["cpu_reference"]);
        if (j["first_launch_seconds"].is_number()) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted("first launch");
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(seconds_text(j["first_launch_seconds"]).c_str());
            ImGui::TableNextColumn();
            ImGui::TableNextColumn();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(j.value("first_launch_origin", std::string("measured")).c_str());
        }
        ImGui::EndTable();
    }
}

// ---- 3. history ---------------------------------------------------------------------------

void draw_history(const TimingState& t) {
    if (t.history.empty()) return;
    ImGui::TextDisabled("earlier runs");
    for (const auto& h : t.history) {
        const auto gpu = gpu_seconds_per_launch(h, false);
        ImGui::BulletText("%s %s: GPU %s, CPU %s (%s)", h["kernel"].get<std::string>().c_str(), h["shape"].dump().c_str(),
                          gpu ? seconds_text(*gpu).c_str() : "-",
                          seconds_text(h["cpu_reference"]["seconds_median"]).c_str(),
                          h["stages"][0]["origin"].get<std::string>().c_str());
    }
}

// ---- 4. the sweep chart -------------------------------------------------------------------

void draw_sweep(AppState& state) {
    TimingState& t = state.timing;
    const bool busy = t.sweep_job.valid();
    ImGui::BeginDisabled(busy || !state.picture || t.source == TimingSource::Recorded);
    if (ImGui::Button("sweep sizes")) start_sweep(t, state.picture->launch.workload.kernel, state.backend);
    remember_rect(state, "timing-sweep");
    ImGui::EndDisabled();
    if (busy) {
        ImGui::SameLine();
        if (ImGui::Button("cancel")) t.sweep_cancel = true;
        const float done = t.sweep_total ? float(t.sweep_done) / float(t.sweep_total) : 0;
        ImGui::ProgressBar(done, ImVec2(-1, 0));
    }
    if (!t.sweep || t.sweep->points.empty()) return;
    const SweepResult& r = *t.sweep;
    // Log-log axes over all series.
    double lo_t = 1e300, hi_t = 0;
    for (const auto& p : r.points)
        for (const auto v : {std::optional<double>(p.cpu_seconds), p.gpu_copy_seconds, p.gpu_resident_seconds})
            if (v && *v > 0) lo_t = std::min(lo_t, *v), hi_t = std::max(hi_t, *v);
    const double lo_n = double(r.points.front().elements), hi_n = double(std::max(r.points.back().elements, r.points.front().elements + 1));
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetFontSize() * 10;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p0, ImVec2(p0.x + w, p0.y + h), IM_COL32(20, 22, 26, 255));
    const auto at = [&](double n, double s) {
        const float x = float(std::log(n / lo_n) / std::log(hi_n / lo_n)) * w;
        const float y = h - float(std::log(s / lo_t) / std::log(std::max(hi_t / lo_t, 1.0001))) * h;
        return ImVec2(p0.x + x, p0.y + y);
    };
    const auto series = [&](auto get, ImU32 color) {
        for (size_t i = 1; i < r.points.size(); ++i) {
            const auto a = get(r.points[i - 1]), b = get(r.points[i]);
            if (a && b) dl->AddLine(at(double(r.points[i - 1].elements), *a), at(double(r.points[i].elements), *b), color, 2);
        }
    };
    series([](const SweepPoint& p) { return std::optional<double>(p.cpu_seconds); }, IM_COL32(200, 200, 200, 255));
    series([](const SweepPoint& p) { return p.gpu_copy_seconds; }, stage_color("d2h"));
    series([](const SweepPoint& p) { return p.gpu_resident_seconds; }, stage_color("kernel"));
    if (r.crossover_elements) {
        const float x = at(double(*r.crossover_elements), lo_t).x;
        dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p0.y + h), IM_COL32(255, 230, 60, 255), 1);
    }
    ImGui::Dummy(ImVec2(w, h));
    ImGui::TextDisabled("log-log: %llu to %llu elements, %s to %s", (unsigned long long)r.points.front().elements,
                        (unsigned long long)r.points.back().elements, seconds_text(lo_t).c_str(), seconds_text(hi_t).c_str());
    ImGui::TextColored(ImVec4(0.8f, 0.8f, 0.8f, 1), "CPU (measured)");
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(0.95f, 0.56f, 0.17f, 1), "GPU + copies (%s)", r.gpu_origin.empty() ? "none" : r.gpu_origin.c_str());
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(0.35f, 0.63f, 0.31f, 1), "GPU resident (%s)", r.gpu_origin.empty() ? "none" : r.gpu_origin.c_str());
    ImGui::TextWrapped("%s%s", r.sentence.c_str(), r.cancelled ? " (cancelled: partial sweep)" : "");
}

}  // namespace

void draw_timing_panel(AppState& state) {
    draw_controls(state);
    ImGui::Separator();
    draw_run(state.timing);
    draw_history(state.timing);
    ImGui::Separator();
    draw_sweep(state);
    ImGui::BeginDisabled(state.timing.current.is_null() && !state.timing.sweep);
    if (ImGui::Button("save the numbers (JSON, CSV)"))
        state.message = save_timing_numbers(state.timing, state.settings.export_dir, std::time(nullptr));
    remember_rect(state, "timing-save");
    ImGui::EndDisabled();
}

}  // namespace threadmap
