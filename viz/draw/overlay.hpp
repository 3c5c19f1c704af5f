// Drawing text and shapes outside an ImGui frame (figures, exports): an ImDrawList of our
// own, rendered with ImGui's OpenGL3 backend into whatever framebuffer is bound.
#pragma once

#include <imgui.h>

namespace threadmap {

class Overlay {
  public:
    Overlay(int width, int height);  // needs an ImGui context that has run one NewFrame
    ImDrawList* list() { return &list_; }
    static ImFont* font();  // the UI font of the current ImGui context
    void render();          // draws onto the bound framebuffer, which is width×height

  private:
    ImDrawList list_;
    int width_, height_;
};

// ImGui with the OpenGL3 backend and no window, for `threadmap render`: a context, the UI
// font, one NewFrame. Needs a current GL context; undone in the destructor.
class HeadlessImGui {
  public:
    HeadlessImGui(int width, int height, float font_px);
    ~HeadlessImGui();
    HeadlessImGui(const HeadlessImGui&) = delete;
    HeadlessImGui& operator=(const HeadlessImGui&) = delete;
};

}  // namespace threadmap
