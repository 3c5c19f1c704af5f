#version 330 core
// Cells of the thread map: one texel per cell, read from a buffer texture. Compiled three ways (the renderer prepends a
// #define): plain for zoomed-out views, CELL_DETAIL with cell borders and block outlines when
// cells are wide enough to see them, OPERAND for matmul's A and B (one colour, a highlighted
// row and column). llvmpipe runs shaders on the CPU and pays for every branch, taken or not,
// so the plain variant does no more than it must.
uniform samplerBuffer u_cells;  // width × height RGBA8, row 0 first
uniform int u_cells_width;
uniform float u_pixels_per_cell;
uniform vec4 u_background;
#ifdef CELL_DETAIL
uniform bool u_cell_borders;  // cells at least 6 pixels wide
uniform ivec2 u_block;        // block outline every u_block.x cells across, u_block.y down; 0: off
uniform float u_edge_width;   // > 0: outline the edges a cell's alpha marks (1: left, 2: top), this wide
#endif
#ifdef OPERAND
uniform vec4 u_solid;
uniform ivec2 u_highlight;    // (column, row) to highlight; -1: none
uniform vec4 u_highlight_color;
#endif
in vec2 v_cell;
out vec4 frag_color;

void main() {
    ivec2 cell = ivec2(floor(v_cell));
#ifdef OPERAND
    // The highlighted row and column stay at least 3 pixels wide however far zoomed out.
    float half_width = max(0.5, 1.5 / u_pixels_per_cell);
    bool row = u_highlight.y >= 0 && abs(v_cell.y - (float(u_highlight.y) + 0.5)) <= half_width;
    bool column = u_highlight.x >= 0 && abs(v_cell.x - (float(u_highlight.x) + 0.5)) <= half_width;
    vec4 c = (row || column) ? u_highlight_color : u_solid;
#else
    vec4 c = texelFetch(u_cells, cell.y * u_cells_width + min(cell.x, u_cells_width - 1));
    if (c.a < 0.25) {              // no element, no thread
        frag_color = u_background;
        return;
    }
    if (c.a < 0.75) {              // ghost: an idle thread, faded and hatched
        c.rgb = mix(c.rgb, u_background.rgb, 0.45);
        if (mod(floor((gl_FragCoord.x + gl_FragCoord.y) / 3.0), 3.0) == 0.0) c.rgb *= 0.6;
    }
#endif
#if defined(CELL_DETAIL) || defined(OPERAND)
    vec2 edge = fract(v_cell) * u_pixels_per_cell;  // pixels from the cell's top-left edges
#endif
#ifdef CELL_DETAIL
    if (u_cell_borders && (edge.x < 1.0 || edge.y < 1.0)) c.rgb *= 0.72;
    if ((u_block.x > 0 && cell.x % u_block.x == 0 && edge.x < 2.0) ||
        (u_block.y > 0 && cell.y % u_block.y == 0 && edge.y < 2.0))
        c.rgb = vec3(0.05);
    if (u_edge_width > 0.0) {
        int edges = int(c.a * 255.0 + 0.5) % 4;
        if ((edges % 2 == 1 && edge.x < u_edge_width) || (edges >= 2 && edge.y < u_edge_width)) c.rgb = vec3(0.05);
    }
#endif
#ifdef OPERAND
    if (u_pixels_per_cell >= 6.0 && (edge.x < 1.0 || edge.y < 1.0)) c.rgb *= 0.72;
#endif
    frag_color = vec4(c.rgb, 1.0);
}
