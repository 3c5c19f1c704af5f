// UI font loading; see ui_font.hpp.
#include "viz/draw/ui_font.hpp"

#include <imgui.h>
#include <unistd.h>

namespace threadmap {

namespace {
ImFont* g_mono = nullptr;     // one window per process
ImFont* g_heading = nullptr;  // an analysis tab's key figure

// Latin, with the spaces, punctuation, arrows and mathematical signs the labels use ("×", "·",
// "…", "→", "↓", "≥", the Code tab's figure space); the fonts cover them (DejaVu).
const ImWchar kGlyphRanges[] = {0x0020, 0x00FF, 0x2000, 0x2027, 0x2190, 0x21FF, 0x2200, 0x22FF, 0};
}  // namespace

ImFont* load_ui_font(ImGuiIO& io, float size_px) {
    io.Fonts->Clear();
    ImFont* font = nullptr;
    // Glyphs on whole pixels, rasterised once each: ImGui's default draws each three times
    // (horizontal oversampling, for positions between pixels), which at the larger UI scales
    // a projector wants took the rebuild's frame to 60 ms (Ctrl+= eight times, to scale 3, at
    // 1600×900; 37 ms now). At these sizes the snapped text is as crisp.
    ImFontConfig glyphs;
    glyphs.OversampleH = 1;
    glyphs.PixelSnapH = true;
    if (access(kUiFontPath, R_OK) == 0)
        font = io.Fonts->AddFontFromFileTTF(kUiFontPath, size_px, &glyphs, kGlyphRanges);
    if (font == nullptr) {
        ImFontConfig config;
        config.SizePixels = size_px;
        font = io.Fonts->AddFontDefault(&config);
    }
    io.FontDefault = font;
    g_mono = access(kMonoFontPath, R_OK) == 0
                 ? io.Fonts->AddFontFromFileTTF(kMonoFontPath, size_px, &glyphs, kGlyphRanges)
                 : nullptr;
    if (g_mono == nullptr) g_mono = font;
    g_heading = access(kHeadingFontPath, R_OK) == 0
                    ? io.Fonts->AddFontFromFileTTF(kHeadingFontPath, size_px * kHeadingScale, &glyphs, kGlyphRanges)
                    : nullptr;
    if (g_heading == nullptr) g_heading = font;
    return font;
}

ImFont* mono_font() { return g_mono; }

ImFont* heading_font() { return g_heading; }

}  // namespace threadmap
