// Timing drawings; see timing_figure.hpp.
#include "viz/draw/timing_figure.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "viz/draw/frame.hpp"
#include "viz/draw/overlay.hpp"

namespace threadmap {

namespace {

ImU32 stage_color(const std::string& name) {
    if (name == "h2d") return IM_COL32(78, 121, 167, 255);
    if (name == "kernel") return IM_COL32(89, 161, 79, 255);
    if (name == "d2h") return IM_COL32(242, 142, 43, 255);
    if (name == "first") return IM_COL32(225, 87, 89, 255);
    if (name == "alloc") return IM_COL32(176, 122, 161, 255);
    return IM_COL32(170, 170, 170, 255);  // the CPU
}

ImU32 ink(Rgba8 c, uint8_t alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }

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
                       const std::vector<TimingBar>& bars, double axis, const Theme& theme) {
    const ImU32 text = ink(theme.text), faint = ink(theme.faint_text);
    axis = std::max(axis, 1e-12);
    const float bar = size * 1.3f;
    float cy = y;
    // What each segment's colour is, once above the bars.
    float lx = x;
    for (const auto& [name, label] : {std::pair{"first", "first launch"}, std::pair{"alloc", "device allocation"},
                                      std::pair{"h2d", "host to device"}, std::pair{"kernel", "kernel"},
                                      std::pair{"d2h", "device to host"}, std::pair{"cpu", "CPU"}}) {
        const float tw = font->CalcTextSizeA(size * 0.85f, 1e9f, 0, label).x;
        if (lx > x && lx + size + tw > x + width) lx = x, cy += size * 1.2f;  // wrap in narrow panels
        dl->AddRectFilled(ImVec2(lx, cy + size * 0.15f), ImVec2(lx + size * 0.7f, cy + size * 0.85f),
                          stage_color(name));
        dl->AddText(font, size * 0.85f, ImVec2(lx + size * 0.9f, cy), faint, label);
        lx += size * 1.6f + tw;
    }
    cy += size * 1.5f;
    for (const auto& b : bars) {
        dl->AddText(font, size, ImVec2(x, cy), text, b.label.c_str());
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
        dl->AddText(font, size * 0.85f, ImVec2(x, cy), faint, legend.c_str());
        cy += size * 1.4f;
    }
    dl->AddText(font, size * 0.85f, ImVec2(x, cy), faint, ("axis: 0 to " + seconds_text(axis)).c_str());
    return cy + size * 1.2f - y;
}

namespace {

// Decade labels: 1, 10, 100, 1K … 1G elements; 1 ns … 100 s.
std::string elements_text(double n) {
    const char* suffix[] = {"", "K", "M", "G", "T"};
    int k = 0;
    for (; n >= 1000 && k < 4; ++k) n /= 1000;
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.0f%s", n, suffix[k]);
    return buf;
}

std::string decade_seconds_text(double s) {
    const char* unit[] = {"ns", "\u00b5s", "ms", "s"};
    double v = s * 1e9;
    int k = 0;
    for (; v >= 999.5 && k < 3; ++k) v /= 1000;
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.0f %s", v, unit[k]);
    return buf;
}

double decade_below(double v) { return std::pow(10.0, std::floor(std::log10(v) + 1e-9)); }
double decade_above(double v) { return std::pow(10.0, std::ceil(std::log10(v) - 1e-9)); }

// A sweep chart's log–log axes: elements across, seconds up, each spanning whole decades (so
// every axis has at least two labelled ticks), in the plot's pixel rectangle.
struct SweepAxes {
    double lo_n, hi_n, lo_t, hi_t;
    float px0, px1, py0, py1;
    ImVec2 at(double n, double s) const {
        const float fx = float(std::log(n / lo_n) / std::log(hi_n / lo_n));
        const float fy = float(std::log(s / lo_t) / std::log(hi_t / lo_t));
        return ImVec2(px0 + fx * (px1 - px0), py1 - fy * (py1 - py0));
    }
};

// None when no point has a time to draw.
std::optional<SweepAxes> sweep_axes(const SweepResult& r, ImFont* font, float size, float x, float y, float w,
                                    float h) {
    double lo_t = 1e300, hi_t = 0;
    for (const auto& p : r.points)
        for (const auto v : {std::optional<double>(p.cpu_seconds), p.gpu_copy_seconds, p.gpu_resident_seconds})
            if (v && *v > 0) lo_t = std::min(lo_t, *v), hi_t = std::max(hi_t, *v);
    if (hi_t <= 0) return std::nullopt;
    SweepAxes a;
    a.lo_t = decade_below(lo_t);
    a.hi_t = std::max(decade_above(hi_t), a.lo_t * 10);
    a.lo_n = decade_below(double(std::max<uint64_t>(r.points.front().elements, 1)));
    a.hi_n = std::max(decade_above(double(r.points.back().elements)), a.lo_n * 10);
    const float tick_size = size * 0.8f;
    const float left = font->CalcTextSizeA(tick_size, 1e9f, 0, "100 ms").x + size * 0.8f;
    const float legend_h = size * 1.5f, bottom = tick_size * 1.6f;
    a.px0 = x + left;
    a.px1 = x + w - size * 0.8f;
    a.py0 = y + size * 0.6f;
    a.py1 = y + h - legend_h - bottom;
    return a;
}

// The decades' grid lines with their labels, the frame and the axes' names.
void draw_sweep_grid(ImDrawList* dl, ImFont* font, float tick_size, const SweepAxes& a, float x, float w,
                     const Theme& theme) {
    const ImU32 grid = ink(theme.text, 28), tick_text = ink(theme.faint_text);
    for (double n = a.lo_n; n <= a.hi_n * 1.0001; n *= 10) {
        const float gx = a.at(n, a.lo_t).x;
        dl->AddLine(ImVec2(gx, a.py0), ImVec2(gx, a.py1), grid);
        const std::string label = elements_text(n);
        const float tw = font->CalcTextSizeA(tick_size, 1e9f, 0, label.c_str()).x;
        dl->AddText(font, tick_size, ImVec2(std::clamp(gx - tw / 2, x, x + w - tw), a.py1 + tick_size * 0.25f),
                    tick_text, label.c_str());
    }
    for (double s = a.lo_t; s <= a.hi_t * 1.0001; s *= 10) {
        const float gy = a.at(a.lo_n, s).y;
        dl->AddLine(ImVec2(a.px0, gy), ImVec2(a.px1, gy), grid);
        const std::string label = decade_seconds_text(s);
        const float tw = font->CalcTextSizeA(tick_size, 1e9f, 0, label.c_str()).x;
        dl->AddText(font, tick_size, ImVec2(a.px0 - tw - tick_size * 0.375f, gy - tick_size / 2), tick_text,
                    label.c_str());
    }
    dl->AddRect(ImVec2(a.px0, a.py0), ImVec2(a.px1, a.py1), ink(theme.text, 70));
    dl->AddText(font, tick_size, ImVec2(a.px1 - font->CalcTextSizeA(tick_size, 1e9f, 0, "elements (log)").x, a.py0 + 2),
                tick_text, "elements (log)");
    dl->AddText(font, tick_size, ImVec2(a.px0 + 4, a.py0 + 2), tick_text, "time per launch (log)");
}

// The three series' colours and names along the bottom.
void draw_sweep_legend(ImDrawList* dl, ImFont* font, float size, float x, float ly, const SweepResult& r,
                       const Theme& theme) {
    const std::string gpu = r.gpu_origin.empty() ? "none" : r.gpu_origin;
    float lx = x;
    for (const auto& [text, color] : {std::pair{std::string("CPU (measured)"), stage_color("cpu")},
                                      std::pair{"GPU + copies (" + gpu + ")", stage_color("d2h")},
                                      std::pair{"GPU resident (" + gpu + ")", stage_color("kernel")}}) {
        dl->AddRectFilled(ImVec2(lx, ly + size * 0.4f), ImVec2(lx + size * 0.8f, ly + size * 1.2f), color);
        dl->AddText(font, size * 0.9f, ImVec2(lx + size, ly + size * 0.3f), ink(theme.text), text.c_str());
        lx += size * 1.5f + font->CalcTextSizeA(size * 0.9f, 1e9f, 0, text.c_str()).x;
    }
}

}  // namespace

void draw_sweep_chart(ImDrawList* dl, ImFont* font, float size, float x, float y, float w, float h,
                      const SweepResult& r, const Theme& theme) {
    dl->AddRectFilled(ImVec2(x, y), ImVec2(x + w, y + h), ink(theme.scene));
    if (r.points.empty()) return;
    const std::optional<SweepAxes> axes = sweep_axes(r, font, size, x, y, w, h);
    if (!axes) return;
    const SweepAxes& a = *axes;
    const float tick_size = size * 0.8f;
    draw_sweep_grid(dl, font, tick_size, a, x, w, theme);
    const auto series = [&](auto get, ImU32 color) {
        for (size_t i = 1; i < r.points.size(); ++i) {
            const auto from = get(r.points[i - 1]), to = get(r.points[i]);
            if (from && to)
                dl->AddLine(a.at(double(r.points[i - 1].elements), *from), a.at(double(r.points[i].elements), *to),
                            color, 2);
        }
    };
    series([](const SweepPoint& p) { return std::optional<double>(p.cpu_seconds); }, stage_color("cpu"));
    series([](const SweepPoint& p) { return p.gpu_copy_seconds; }, stage_color("d2h"));
    series([](const SweepPoint& p) { return p.gpu_resident_seconds; }, stage_color("kernel"));
    if (r.resident.elements) {  // where the resident GPU starts to win, marked and named
        const ImU32 yellow = theme.light ? IM_COL32(170, 120, 0, 255) : IM_COL32(255, 230, 60, 255);
        const float cx = a.at(double(*r.resident.elements), a.lo_t).x;
        dl->AddLine(ImVec2(cx, a.py0), ImVec2(cx, a.py1), yellow, 1.5f);
        const std::string label = "crossover: " + elements_text(double(*r.resident.elements)) + " elements";
        const float tw = font->CalcTextSizeA(tick_size, 1e9f, 0, label.c_str()).x;
        const float lx = cx + tw + size * 0.4f < a.px1 ? cx + size * 0.3f : cx - tw - size * 0.3f;
        dl->AddText(font, tick_size, ImVec2(lx, a.py0 + tick_size * 1.5f), yellow, label.c_str());
    }
    draw_sweep_legend(dl, font, size, x, y + h - size * 1.5f, r, theme);
}

void draw_timing_figure(int width, int height, float font_px, const std::vector<std::string>& caption,
                        const std::vector<TimingBar>& bars, double axis, const SweepResult* sweep, const Theme& theme) {
    clear_bound_framebuffer(width, height, theme.window);
    const ImU32 text = ink(theme.text);
    Overlay overlay(width, height);
    ImDrawList* dl = overlay.list();
    ImFont* font = overlay.font();
    const float pad = font_px * 0.8f, inner = float(width) - 2 * pad;
    float y = pad;
    for (const auto& line : caption) {
        dl->AddText(font, font_px, ImVec2(pad, y), text, line.c_str());
        y += font_px * 1.3f;
    }
    y += font_px * 0.6f;
    y += draw_timing_bars(dl, font, font_px, pad, y, inner, bars, axis, theme) + font_px * 0.6f;
    if (sweep && !sweep->points.empty()) {
        // The sentence under the chart, wrapped to the figure's width: the chart takes what is left.
        const float sentence_px = font_px * 0.9f;
        const float sentence_h = font->CalcTextSizeA(sentence_px, 1e9f, inner, sweep->sentence.c_str()).y;
        const float chart_h = std::max(font_px * 6, float(height) - y - sentence_h - font_px * 1.5f);
        draw_sweep_chart(dl, font, font_px, pad, y, inner, chart_h, *sweep, theme);
        dl->AddText(font, sentence_px, ImVec2(pad, y + chart_h + font_px * 0.5f), text, sweep->sentence.c_str(),
                    nullptr, inner);
    }
    overlay.render();
}

}  // namespace threadmap
