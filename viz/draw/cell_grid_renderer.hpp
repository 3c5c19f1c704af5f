// CellGridRenderer: draws the map from a texture (one texel per cell) with our own shader,
// plus matmul's operands A and B beside C. One draw call per quad, whatever the cell count.
#pragma once

#include <optional>
#include <vector>

#include "viz/color/colors.hpp"
#include "viz/draw/gl_resources.hpp"
#include "viz/layout/map_labels.hpp"
#include "viz/layout/map_layout.hpp"
#include "viz/layout/view_transform.hpp"

namespace threadmap {

inline constexpr Rgba8 kSceneBackground{24, 26, 30, 255};  // the dark theme's (theme.hpp)

struct SceneTarget {
    ViewRect viewport;                    // where to draw, in framebuffer pixels from the top-left
    int framebuffer_height = 0;           // to flip into GL's bottom-left origin
    Rgba8 background = kSceneBackground;  // behind the cells; idle threads' cells fade towards it
};

class CellGridRenderer {
  public:
    CellGridRenderer();  // needs a current GL 3.3 core context

    static int max_texture_side();
    static uint64_t max_cells();  // GL_MAX_TEXTURE_BUFFER_SIZE

    // The cell colours live in a GL buffer that the shader reads as a buffer texture, so they
    // are written in place: map_cells gives width·height RGBA8 slots (row 0 first) to fill,
    // unmap_cells hands them to GL. No staging copy, and a CUDA path can register the buffer.
    // A buffer GL cannot map gives nullptr and is kept as the thread's GL failure.
    Rgba8* map_cells(uint32_t width, uint32_t height);
    void unmap_cells();
    // Sizes the colour buffer for width × height cells (reallocating only when they outgrow it,
    // or take under a quarter of it) and returns its GL name, for CUDA–OpenGL interop to register.
    GLuint prepare_cells(uint32_t width, uint32_t height);
    // Grows the colour buffer ahead to hold `cells` (the cells a map computing now will have),
    // so that its allocation is not paid in the frame the map lands in. Growing drops the
    // colours it holds: for a buffer that shows no map yet.
    void reserve_cells(uint64_t cells);
    // Counts the buffer's storages: CUDA interop registers it anew when this changed.
    uint64_t storage_generation() const { return storage_generation_; }
    // The colours as GL holds them (tests compare interop and host painting with it).
    std::vector<Rgba8> read_cells() const;
    void upload(const Rgba8* cells, uint32_t width, uint32_t height);  // map, copy, unmap

    // C (and A, B for matmul); hovered: a C element (column, row) whose row of A and column
    // of B are highlighted.
    void draw_scene(const MapLayout& layout, const View& view, const SceneTarget& target,
                    std::optional<glm::ivec2> hovered_element) const;

  private:
    // One compiled variant of shaders/cell_grid.frag and its uniforms.
    struct Variant {
        explicit Variant(const char* defines);
        GlProgram program;
        GLint projection, rect, pixels_per_cell, background, cells, cells_width, cell_borders, block, edge_width, solid,
            highlight, highlight_color;
    };
    const Variant& use(const Variant& v, const View& view, const ViewRect& r, Rgba8 background) const;

    Variant plain_, detail_, operand_;
    GlVertexArray vao_;
    GlBuffer cells_;
    GlTexture texture_;                // a GL_TEXTURE_BUFFER view of cells_
    uint32_t width_ = 0, height_ = 0;  // the cells the buffer holds now, row 0 first
    uint64_t capacity_ = 0;            // the buffer's bytes (at least width_ · height_ cells)
    uint64_t storage_generation_ = 0;
};

}  // namespace threadmap
