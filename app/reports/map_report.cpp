// Map report writers; see map_report.hpp.
#include "app/reports/map_report.hpp"

#include <nlohmann/json.hpp>

#include "app/reports/findings_report.hpp"

#include "app/reports/report_writer.hpp"

#include <cstring>
#include <vector>

namespace threadmap {

namespace {

void write_index(Writer& w, const Workload& wl, uint64_t e, char sep) {
    if (is_matrix(wl.kernel))
        w << e / wl.cols << sep << e % wl.cols;
    else
        w << e;
}

void write_json(Writer& w, const MapReport& r) {
    const auto& wl = r.workload;
    const auto& m = r.result.map;
    w << "{\"launch\":{\"grid\":";
    write_json_dim(w, m.launch.grid);
    w << ",\"block\":";
    write_json_dim(w, m.launch.block);
    w << "},\"kernel\":\"" << kernel_name(wl.kernel) << "\",\"shape\":[";
    const auto shape = map_shape(wl);
    for (size_t i = 0; i < shape.size(); ++i) w << (i ? "," : "") << shape[i];
    w << ']';
    if (is_matrix(wl.kernel)) {
        w << ",\"operands\":{\"A\":[" << wl.a_rows << ',' << wl.inner << "],\"B\":[" << wl.inner << ',' << wl.b_cols
          << "],\"C\":[" << wl.rows << ',' << wl.cols << "]}";
    }
    w << ",\"backend\":\"" << r.backend << "\",\"stats\":";
    write_stats_json(w, r.result.stats);
    if (r.include_elements) {
        w << ",\"elements\":[";
        for (uint64_t e = 0; e < m.size(); ++e) {
            w << (e ? ",\n" : "\n") << "{\"index\":[";
            write_index(w, wl, e, ',');
            w << "],";
            if (const auto t = m.toucher(e)) {
                w << "\"block\":";
                write_json_dim(w, t->block);
                w << ",\"thread\":";
                write_json_dim(w, t->thread);
            } else {
                w << "\"block\":null,\"thread\":null";
            }
            w << ",\"touches\":" << uint64_t(m.touches[e]) << '}';
        }
        w << "\n]";
    }
    if (r.findings)
        w << ",\"findings\":" << findings_json(*r.findings).dump()
          << ",\"finding_counts\":" << finding_counts_json(*r.findings).dump();
    else
        w << ",\"findings\":null,\"findings_not_checked\":" << nlohmann::json(r.findings_not_checked).dump();
    w << "}\n";
}

void write_csv(Writer& w, const MapReport& r) {
    if (!r.include_elements) {
        write_stats_csv(w, r.result.stats);
        return;
    }
    const auto& m = r.result.map;
    w << (is_matrix(r.workload.kernel) ? "i,j" : "i")
      << ",block_x,block_y,block_z,thread_x,thread_y,thread_z,touches\n";
    for (uint64_t e = 0; e < m.size(); ++e) {
        write_index(w, r.workload, e, ',');
        if (const auto t = m.toucher(e)) {
            w << ',' << uint64_t(t->block.x) << ',' << uint64_t(t->block.y) << ',' << uint64_t(t->block.z) << ','
              << uint64_t(t->thread.x) << ',' << uint64_t(t->thread.y) << ',' << uint64_t(t->thread.z);
        } else {
            w << ",,,,,,";
        }
        w << ',' << uint64_t(m.touches[e]) << '\n';
    }
}

void write_table(Writer& w, const MapReport& r) {
    const auto& wl = r.workload;
    const auto& m = r.result.map;
    const auto& s = r.result.stats;
    w << "kernel    " << kernel_name(wl.kernel) << "\nshape     ";
    if (is_matrix(wl.kernel))
        w << "C " << wl.rows << "x" << wl.cols << " = A " << wl.a_rows << "x" << wl.inner << " · B " << wl.inner << "x"
          << wl.b_cols;
    else
        w << wl.n << " elements";
    w << "\nlaunch    gridDim " << to_string(m.launch.grid) << " blocks, blockDim " << to_string(m.launch.block)
      << " threads per block\nbackend   " << r.backend << "\n\n";

    if (r.include_elements)
        write_cell_table(w, m.size(), is_matrix(wl.kernel) ? wl.cols : std::min<uint64_t>(16, wl.n),
                         is_matrix(wl.kernel), m.launch,
                         "each cell: blockIdx/threadIdx of the thread that wrote it ('.' nobody, '*' more than one)",
                         [&m](uint64_t e) -> std::optional<std::pair<Toucher, uint64_t>> {
                             if (const auto t = m.toucher(e)) return std::make_pair(*t, uint64_t(m.touches[e]));
                             return std::nullopt;
                         });
    write_stats_table(w, s, "", "written");
}

}  // namespace

bool write_map_report(std::FILE* out, const MapReport& r, MapFormat format) {
    Writer w(out);
    switch (format) {
        case MapFormat::Table:
            write_table(w, r);
            break;
        case MapFormat::Csv:
            write_csv(w, r);
            break;
        case MapFormat::Json:
            write_json(w, r);
            break;
    }
    return w.finish();
}

}  // namespace threadmap
