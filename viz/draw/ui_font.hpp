// The UI font: DejaVu Sans where it is installed (readable on a projector), else ImGui's own.
#pragma once

struct ImFont;
struct ImGuiIO;

namespace threadmap {

inline constexpr float kBaseFontPx = 17;  // UI text at UI scale 1
inline constexpr const char* kUiFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
inline constexpr const char* kMonoFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
inline constexpr const char* kHeadingFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";
inline constexpr float kHeadingScale = 1.6f;  // an analysis tab's key figure, against UI text

// Clears io.Fonts and adds the UI font at size_px; returns it (also the default font). Adds
// the monospace font (the kernel editor's) at the same size after it, and the heading font
// (bold, kHeadingScale times larger) for the analysis tabs' key figures.
ImFont* load_ui_font(ImGuiIO& io, float size_px);

// The monospace font load_ui_font added, or the UI font where DejaVu Sans Mono is missing.
ImFont* mono_font();

// The heading font load_ui_font added, or the UI font where DejaVu Sans Bold is missing.
ImFont* heading_font();

}  // namespace threadmap
