#include "app/reports/printed_report.hpp"

#include <nlohmann/json.hpp>

#include "app/reports/lesson_text.hpp"

namespace threadmap {

nlohmann::json printed_json(const KernelPrint& printed) {
    return {{"text", printed.text}, {"calls", printed.calls}, {"kept_calls", printed.kept_calls}};
}

std::string printed_heading(const std::string& kernel, const KernelPrint& printed) {
    std::string heading = kernel + " called printf " + grouped(printed.calls) +
                          (printed.calls == 1 ? " time" : " times") +
                          " (in the order the model ran its threads, one after another; a GPU runs a warp's "
                          "threads together and orders warps and blocks as it likes)";
    if (printed.kept_calls < printed.calls)
        heading += "; the text of the first " + grouped(printed.kept_calls) + " calls is kept (" +
                   std::to_string(KernelPrint::kMaxBytes / 1024) + " KiB)";
    return heading;
}

void write_printed(std::FILE* out, const std::string& kernel, const KernelPrint& printed) {
    if (printed.calls == 0) return;
    std::fprintf(out, "%s:\n%s", printed_heading(kernel, printed).c_str(), printed.text.c_str());
    if (!printed.text.empty() && printed.text.back() != '\n') std::fputc('\n', out);
}

}  // namespace threadmap
