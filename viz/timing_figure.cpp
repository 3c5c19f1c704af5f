// Timing drawings; see timing_figure.hpp.
#include "timing_figure.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "frame.hpp"
#include "overlay.hpp"

namespace threadmap {

namespace {

ImU32 stage_color(const std::string& name) {
    if (name == "h2d") return IM_COL32(78, 121, 167, 255);
    if (name == "kernel") return IM_COL32(89, 161, 79, 255);
    if (name == "d2h") return IM_COL32(242, 142, 43, 255);
    if (name == "first") return IM_COL32(225, 87, 89, 255);
    return IM_COL32(170, 170, 170, 255);  // the CPU
}

constexpr ImU32 kText = IM_COL32(230, 230, 230, 255);

}  // namespace

std::string seconds_text(double s) {
    char buf[32];
    if (s < 1e-3)
        std::snprintf(buf, sizeof buf, "%.1f us", s * 1e6);
    else if (s < 1)
        std::snprintf(buf, sizeof buf, "%.2f ms", s * 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.2f s", s);
    return buf;
}

float draw_timing_bars(ImDrawList* dl, ImFont* font, float size, float x, float y, float width,
                       const std::vector<TimingBar>& bars, double axis) {
    axis = std::max(axis, 1e-12);
    const float bar = size * 1.3f;
    float cy = y;
    for (const auto& b : bars) {
        dl->AddText(font, size, ImVec2(x, cy), kText, b.label.c_str());
        cy += size * 1.3f;
        float cx = x;
        std::string legend;
        for (const auto& [name, seconds] : b.segments) {
            const float w = std::max(1.0f, float(seconds / axis) * width);
            dl->AddRectFilled(ImVec2(cx, cy), ImVec2(cx + w, cy + bar), stage_color(name));
            cx += w;
            legend += (legend.empty() ? "" : "  |  ") + name + " " + seconds_text(seconds);
        }
        cy += bar + size * 0.2f;
        dl->AddText(font, size * 0.85f, ImVec2(x, cy), IM_COL32(190, 190, 190, 255), legend.c_str());
        cy += size * 1.4f;
    }
    dl->AddText(font, size * 0.85f, ImVec2(x, cy), IM_COL32(150, 150, 150, 255),
                ("axis: 0 to " + seconds_text(axis)).c_str());
    return cy + size * 1.2f - y;
}

void draw_sweep_chart(ImDrawList* dl, ImFont* font, float size, float x, float y, float w, float h,
                      const SweepResult& r) {
    dl->AddRectFilled(ImVec2(x, y), ImVec2(x + w, y + h), IM_COL32(20, 22, 26, 255));
    if (r.points.empty()) return;
    double lo_t = 1e300, hi_t = 0;
    for (const auto& p : r.points)
        for (const auto v : {std::optional<double>(p.cpu_seconds), p.gpu_copy_seconds, p.gpu_resident_seconds})
            if (v && *v > 0) lo_t = std::min(lo_t, *v), hi_t = std::max(hi_t, *v);
    const double lo_n = double(r.points.front().elements);
    const double hi_n = double(std::max(r.points.back().elements, r.points.front().elements + 1));
    const float legend_h = size * 1.5f;
    const float ph = h - legend_h;
    const auto at = [&](double n, double s) {
        const float px = float(std::log(n / lo_n) / std::log(hi_n / lo_n)) * w;
        const float py = ph - float(std::log(s / lo_t) / std::log(std::max(hi_t / lo_t, 1.0001))) * ph;
        return ImVec2(x + px, y + py);
    };
    const auto series = [&](auto get, ImU32 color) {
        for (size_t i = 1; i < r.points.size(); ++i) {
            const auto a = get(r.points[i - 1]), b = get(r.points[i]);
            if (a && b) dl->AddLine(at(double(r.points[i - 1].elements), *a), at(double(r.points[i].elements), *b), color, 2);
        }
    };
    series([](const SweepPoint& p) { return std::optional<double>(p.cpu_seconds); }, stage_color("cpu"));
    series([](const SweepPoint& p) { return p.gpu_copy_seconds; }, stage_color("d2h"));
    series([](const SweepPoint& p) { return p.gpu_resident_seconds; }, stage_color("kernel"));
    if (r.crossover_elements) {
        const float cx = at(double(*r.crossover_elements), lo_t).x;
        dl->AddLine(ImVec2(cx, y), ImVec2(cx, y + ph), IM_COL32(255, 230, 60, 255), 1);
    }
    char axes[160];
    std::snprintf(axes, sizeof axes, "log-log: %llu to %llu elements, %s to %s",
                  (unsigned long long)r.points.front().elements, (unsigned long long)r.points.back().elements,
                  seconds_text(lo_t).c_str(), seconds_text(hi_t).c_str());
    dl->AddText(font, size * 0.85f, ImVec2(x + size * 0.3f, y + size * 0.2f), IM_COL32(150, 150, 150, 255), axes);
    const std::string gpu = r.gpu_origin.empty() ? "none" : r.gpu_origin;
    float lx = x;
    for (const auto& [text, color] : {std::pair{std::string("CPU (measured)"), stage_color("cpu")},
                                      std::pair{"GPU + copies (" + gpu + ")", stage_color("d2h")},
                                      std::pair{"GPU resident (" + gpu + ")", stage_color("kernel")}}) {
        dl->AddRectFilled(ImVec2(lx, y + ph + size * 0.4f), ImVec2(lx + size * 0.8f, y + ph + size * 1.2f), color);
        dl->AddText(font, size * 0.9f, ImVec2(lx + size, y + ph + size * 0.3f), kText, text.c_str());
        lx += size * 1.5f + font->CalcTextSizeA(size * 0.9f, 1e9f, 0, text.c_str()).x;
    }
}

void draw_timing_figure(int width, int height, float font_px, const std::vector<std::string>& caption,
                        const std::vector<TimingBar>& bars, double axis, const SweepResult* sweep) {
    clear_bound_framebuffer(width, height, {16, 17, 20, 255});
    Overlay overlay(width, height);
    ImDrawList* dl = overlay.list();
    ImFont* font = overlay.font();
    const float pad = font_px * 0.8f, inner = float(width) - 2 * pad;
    float y = pad;
    for (const auto& line : caption) {
        dl->AddText(font, font_px, ImVec2(pad, y), kText, line.c_str());
        y += font_px * 1.3f;
    }
    y += font_px * 0.6f;
    y += draw_timing_bars(dl, font, font_px, pad, y, inner, bars, axis) + font_px * 0.6f;
    if (sweep && !sweep->points.empty()) {
        const float chart_h = std::max(font_px * 6, float(height) - y - font_px * 3.5f);
        draw_sweep_chart(dl, font, font_px, pad, y, inner, chart_h, *sweep);
        dl->AddText(font, font_px * 0.9f, ImVec2(pad, y + chart_h + font_px * 0.5f), kText, sweep->sentence.c_str());
    }
    overlay.render();
}

}  // namespace threadmap
