// The kernel model's map reports; see model_map_report.hpp.
#include "app/reports/model_map_report.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "app/reports/findings_report.hpp"
#include "app/reports/printed_report.hpp"
#include "kernels/model/model_array_stats.hpp"
#include "app/reports/report_writer.hpp"

namespace threadmap {

namespace {

// Who touched an element in the report's sense, and how many threads did.
struct Touch {
    uint32_t first;
    uint32_t count;
};

class ArrayMap {
  public:
    explicit ArrayMap(const ModelMapReport& r)
        : r_(r), records_(r.result.arrays[r.array].records), shape_(r.result.arrays[r.array].shape) {}
    uint64_t size() const { return records_.size(); }
    const std::vector<uint64_t>& shape() const { return shape_; }
    Touch touch(uint64_t e) const {
        const ElementRecord& rec = records_[e];
        return r_.reads ? Touch{rec.first_reader, rec.readers} : Touch{rec.first_writer, rec.writers};
    }
    Toucher toucher(uint32_t id) const { return ThreadMap::decode_global_id(id, r_.launch.launch); }
    LaunchStats stats() const {
        return model_array_stats(r_.result, r_.array, r_.reads, r_.launch.launch,
                                 r_.launch.spec->arrays[r_.array].space == MemorySpace::Shared);
    }
    // The element's index in the array's shape, joined by `sep`.
    void write_index(Writer& w, uint64_t e, char sep) const {
        std::vector<uint64_t> index(shape_.size());
        for (size_t d = shape_.size(); d-- > 0;) {
            index[d] = e % shape_[d];
            e /= shape_[d];
        }
        for (size_t d = 0; d < index.size(); ++d) w << (d ? std::string(1, sep) : std::string()) << index[d];
    }

  private:
    const ModelMapReport& r_;
    const std::vector<ElementRecord>& records_;
    const std::vector<uint64_t>& shape_;
};

const char* access_name(const ModelMapReport& r) { return r.reads ? "read" : "write"; }
bool shared(const ModelMapReport& r) { return r.launch.spec->arrays[r.array].space == MemorySpace::Shared; }

// A matmul's operands (global matrices A, B and C, as the matmul kernels name them), as the fast
// emulator's map gives them: every matmul's map names them, whichever engine made it.
void write_operands(Writer& w, const ModelMapReport& r) {
    const KernelSpec& spec = *r.launch.spec;
    std::string operands;
    for (const char* name : {"A", "B", "C"}) {
        const size_t a = spec.array_index(name);
        if (a == spec.arrays.size() || spec.arrays[a].space != MemorySpace::Global) return;
        const std::vector<uint64_t>& shape = r.result.arrays[a].shape;
        if (shape.size() != 2) return;
        operands += std::string(operands.empty() ? "" : ",") + '"' + name + "\":[" + std::to_string(shape[0]) + ',' +
                    std::to_string(shape[1]) + ']';
    }
    w << ",\"operands\":{" << operands << '}';
}

void write_json(Writer& w, const ModelMapReport& r, const ArrayMap& m) {
    const LaunchConfig& launch = r.launch.launch;
    w << "{\"launch\":{\"grid\":";
    write_json_dim(w, launch.grid);
    w << ",\"block\":";
    write_json_dim(w, launch.block);
    w << "},\"kernel\":\"" << r.launch.spec->name << "\",\"array\":\"" << r.launch.spec->arrays[r.array].name
      << "\",\"access\":\"" << access_name(r) << '"';
    if (shared(r)) {  // one block's copy: which
        w << ",\"shared_block\":";
        write_json_dim(w, unlinearize(r.launch.shared_block, launch.grid));
    }
    w << ",\"shape\":[";
    for (size_t i = 0; i < m.shape().size(); ++i) w << (i ? "," : "") << m.shape()[i];
    w << ']';
    write_operands(w, r);
    w << ",\"backend\":\"cpu-model\",\"stats\":";
    write_stats_json(w, m.stats());
    if (r.include_elements) {
        w << ",\"elements\":[";
        for (uint64_t e = 0; e < m.size(); ++e) {
            w << (e ? ",\n" : "\n") << "{\"index\":[";
            m.write_index(w, e, ',');
            w << "],";
            const Touch t = m.touch(e);
            if (t.count) {
                const Toucher who = m.toucher(t.first);
                w << "\"block\":";
                write_json_dim(w, who.block);
                w << ",\"thread\":";
                write_json_dim(w, who.thread);
            } else {
                w << "\"block\":null,\"thread\":null";
            }
            w << ",\"touches\":" << uint64_t(t.count) << '}';
        }
        w << "\n]";
    }
    w << ",\"findings\":" << findings_json(r.result).dump()
      << ",\"finding_counts\":" << finding_counts_json(r.result).dump();
    if (r.result.printed.calls > 0) w << ",\"printed\":" << printed_json(r.result.printed).dump();
    w << "}\n";
}

void write_csv(Writer& w, const ModelMapReport& r, const ArrayMap& m) {
    if (!r.include_elements) {
        write_stats_csv(w, m.stats());
        return;
    }
    static const char* const axes[] = {"i", "j", "k"};
    for (size_t d = 0; d < m.shape().size(); ++d) w << (d ? "," : "") << axes[std::min<size_t>(d, 2)];
    w << ",block_x,block_y,block_z,thread_x,thread_y,thread_z,touches\n";
    for (uint64_t e = 0; e < m.size(); ++e) {
        m.write_index(w, e, ',');
        const Touch t = m.touch(e);
        if (t.count) {
            const Toucher who = m.toucher(t.first);
            w << ',' << uint64_t(who.block.x) << ',' << uint64_t(who.block.y) << ',' << uint64_t(who.block.z) << ','
              << uint64_t(who.thread.x) << ',' << uint64_t(who.thread.y) << ',' << uint64_t(who.thread.z);
        } else {
            w << ",,,,,,";
        }
        w << ',' << uint64_t(t.count) << '\n';
    }
}

void write_table(Writer& w, const ModelMapReport& r, const ArrayMap& m) {
    const LaunchConfig& launch = r.launch.launch;
    w << "kernel    " << r.launch.spec->name << "\narray     " << r.launch.spec->arrays[r.array].name << " [";
    for (size_t d = 0; d < m.shape().size(); ++d) w << (d ? "x" : "") << m.shape()[d];
    w << "]";
    if (shared(r)) w << " (__shared__) of block " << to_string(unlinearize(r.launch.shared_block, launch.grid));
    w << ", who " << (r.reads ? "read" : "wrote") << " it\nlaunch    gridDim " << to_string(launch.grid)
      << " blocks, blockDim " << to_string(launch.block) << " threads per block\nbackend   cpu-model\n\n";
    if (r.include_elements)
        write_cell_table(w, m.size(), m.shape().size() == 2 ? m.shape()[1] : std::min<uint64_t>(16, m.size()),
                         m.shape().size() == 2, launch,
                         std::string("each cell: blockIdx/threadIdx of the first thread that ") +
                             (r.reads ? "read" : "wrote") + " it ('.' nobody, '*' more than one)",
                         [&m](uint64_t e) -> std::optional<std::pair<Toucher, uint64_t>> {
                             const Touch t = m.touch(e);
                             if (!t.count) return std::nullopt;
                             return std::make_pair(m.toucher(t.first), uint64_t(t.count));
                         });
    write_stats_table(w, m.stats(),
                      std::string(r.reads ? "read it" : "wrote to it") + (shared(r) ? ", in that block" : ""),
                      r.reads ? "read" : "written");
    w << "findings            " << findings_summary(r.result.counts) << " (threadmap check lists them)\n";
}

}  // namespace

bool write_model_map_report(std::FILE* out, const ModelMapReport& r, MapFormat format) {
    Writer w(out);
    const ArrayMap m(r);
    switch (format) {
        case MapFormat::Table:
            write_table(w, r, m);
            break;
        case MapFormat::Csv:
            write_csv(w, r, m);
            break;
        case MapFormat::Json:
            write_json(w, r, m);
            break;
    }
    return w.finish();
}

}  // namespace threadmap
