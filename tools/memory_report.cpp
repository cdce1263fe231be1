// ctnn-memory-report: the memory plan of a .tflite or .onnx model, with the plan options of ctnn::compile,
// as a table, as a picture of the pools over time (SVG, self-contained: x is the op index, y the offset,
// one box per buffer from the op that writes it to the op that reads it last; the op at the liveness
// peak is marked), and as a self-contained HTML page (the picture inline and one table row per op: its
// kind and name, the bytes occupied in the pools while it runs, the buffers it writes and reads; the
// peak's row marked).
//
//   ctnn-memory-report <model.tflite|model.onnx> [plan options] [-o FILE.svg] [--html FILE.html]
//       plan options: --pool name:bytes, --pin tensor:pool, --in-place, --reuse, --io-in-arena
//       (plan_options.hpp; ctnn-memory-report --help lists them); the picture goes to FILE.svg, by
//       default memory_plan_<model>.svg
//
// The plan is the one ctnn::compile<model, options...> makes: the same reader, importer and passes, run
// here at run time (model_file.hpp), so the numbers match the executor's. Exit status: 0; 1 when the
// model cannot be read, imported or planned (a pool over its limit, a pin that names nothing: the
// reason on stderr) or a file cannot be written; 2 for usage errors.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <ctnn/print/printer.hpp>
#include <ctnn/memory/buffer_info.hpp>

#include "command_line.hpp"
#include "model_file.hpp"
#include "plan_options.hpp"

namespace {

using ctnn::memory::buffer_kind;

struct box {
  std::string label;  // tensor name, or "scratch of <op>"
  buffer_kind kind = buffer_kind::intermediate;
  std::int32_t pool = 0;
  std::int64_t offset = 0, bytes = 0;
  std::int32_t first = 0, last = 0;  // ops, inclusive
  std::string note;                  // "in place of x", "in concat y"
};

// One box per placed tensor (from its writer to its last reader, views included) and per scratch.
template <class Module>
std::vector<box> boxes_of(const Module& m) {
  std::vector<box> boxes;
  const std::int32_t last_op = m.node_count - 1;
  for (std::int32_t t = 0; t < m.tensor_count; ++t) {
    const auto& a = m.allocations[static_cast<std::size_t>(t)];
    if (a.offset < 0) continue;
    const ctnn::tensor& x = m.tensor_at(t);
    box b{};
    b.label = std::string{x.label.view()};
    b.kind = x.role == ctnn::tensor_role::input ? buffer_kind::input : x.role == ctnn::tensor_role::output ? buffer_kind::output
                                                                                                            : buffer_kind::intermediate;
    b.pool = a.pool;
    b.offset = a.offset;
    b.bytes = x.bytes();
    b.first = b.last = x.producer >= 0 ? x.producer : 0;
    if (x.role == ctnn::tensor_role::output) b.last = last_op;
    for (std::int32_t op = 0; op < m.node_count; ++op)
      for (std::int32_t k = 0; k < m.node_at(op).input_count; ++k)
        if (m.storage_root(m.node_at(op).inputs[static_cast<std::size_t>(k)]) == t) b.last = std::max(b.last, op);
    if (x.producer >= 0) {
      const ctnn::node& n = m.node_at(x.producer);
      for (std::int32_t k = 0; k < n.input_count; ++k) {
        const std::int32_t r = m.storage_root(n.inputs[static_cast<std::size_t>(k)]);
        if (r >= 0 && r != t && m.allocations[static_cast<std::size_t>(r)].offset == a.offset &&
            m.allocations[static_cast<std::size_t>(r)].pool == a.pool && n.kind != ctnn::op_kind::concat)
          b.note = "in place of " + std::string{m.tensor_at(r).label.view()};
      }
    }
    boxes.push_back(b);
  }
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const auto& s = m.scratch[static_cast<std::size_t>(c)];
    if (s.offset < 0) continue;
    const std::int32_t op = m.calls[static_cast<std::size_t>(c)].node;
    boxes.push_back({"scratch of " + std::string{m.node_at(op).label.view()}, buffer_kind::scratch, s.pool, s.offset,
                     m.scratch_bytes[static_cast<std::size_t>(c)], op, op, {}});
  }
  std::sort(boxes.begin(), boxes.end(), [](const box& x, const box& y) {
    return x.pool != y.pool ? x.pool < y.pool : x.offset != y.offset ? x.offset < y.offset : x.first < y.first;
  });
  return boxes;
}

template <class Module>
const char* pool_name(const Module& m, std::int32_t p) {
  return m.pools[static_cast<std::size_t>(p)].name != nullptr ? m.pools[static_cast<std::size_t>(p)].name : "?";
}

template <class Module>
std::string op_label(const Module& m, std::int32_t op) {
  return std::string{m.node_at(op).label.view()};
}

// printf into a string of the length it needs.
std::string format(const char* format, auto... values) {
  std::string text(static_cast<std::size_t>(std::max(std::snprintf(nullptr, 0, format, values...), 0)), '\0');
  std::snprintf(text.data(), text.size() + 1, format, values...);
  return text;
}

// The plan's figures, one line each: the title, every pool, the inputs and outputs outside the pools.
template <class Module>
std::vector<std::string> summary_of(const Module& m) {
  std::vector<std::string> lines{format("memory plan of \"%s\" (%d ops)", std::string{m.model_name.view()}.c_str(), m.node_count)};
  std::int64_t pools_bytes = 0;
  for (std::int32_t p = 0; p < m.pool_count; ++p) {
    const auto& pool = m.pools[static_cast<std::size_t>(p)];
    const auto& use = m.pool_usage[static_cast<std::size_t>(p)];
    if (!pool.read_only) pools_bytes += use.bytes;
    std::string line = format("pool %d \"%s\": %lld bytes (limit %s, alignment %d)", p, pool_name(m, p), static_cast<long long>(use.bytes),
                              pool.size_limit < 0 ? "none" : std::to_string(pool.size_limit).c_str(), pool.alignment);
    if (pool.read_only) line += ", read-only: the constants";
    else line += format(", liveness lower bound %lld", static_cast<long long>(use.lower_bound));
    if (use.peak_node >= 0) line += format(" at op %d (%s)", use.peak_node, op_label(m, use.peak_node).c_str());
    lines.push_back(line);
  }
  // The state (variable tensors), kept between runs outside the pools: one line per state tensor.
  if (m.state_bytes() > 0) {
    lines.push_back(format("state: %lld bytes, kept between runs outside the pools (alignment %lld)", static_cast<long long>(m.state_bytes()),
                           static_cast<long long>(m.state_alignment)));
    for (std::int32_t t = 0; t < m.tensor_count; ++t) {
      const auto& s = m.tensor_at(t);
      if (s.role != ctnn::tensor_role::state) continue;
      // What reset_state() restores: the model file's values (a resource variable its CALL_ONCE initialises),
      // else every byte at state_fill (TFLM's ResetVariableTensors).
      const std::string start = s.data.bytes != nullptr
                                    ? std::string{"starts at the model file's values"}
                                    : format("starts at byte 0x%02x in every byte (%s)", static_cast<unsigned>(ctnn::state_fill(s)),
                                             s.type == ctnn::dtype::i8 ? "its zero point" : "zero");
      lines.push_back(format("  state+%lld: tensor %d \"%s\", %lld bytes, %s", static_cast<long long>(m.state_offset(t)), t,
                             std::string{s.label.view()}.c_str(), static_cast<long long>(s.bytes()), start.c_str()));
    }
  }
  // Slices stored inside their input and concats their producers wrote into: their calls copy nothing.
  if (m.copies_skipped > 0)
    lines.push_back(format("copies skipped: %d calls whose result is already in place, %lld bytes not copied", m.copies_skipped,
                           static_cast<long long>(m.bytes_not_copied)));
  lines.push_back(format("inputs and outputs in the caller's buffers: %lld bytes; RAM in all: %lld bytes",
                         static_cast<long long>(m.io_bytes_outside),
                         static_cast<long long>(pools_bytes + m.state_bytes() + m.io_bytes_outside)));
  return lines;
}

template <class Module>
void print_table(const Module& m, const std::vector<box>& boxes) {
  const std::vector<std::string> summary = summary_of(m);
  for (std::size_t k = 0; k < summary.size(); ++k) std::printf("%s%s\n", k == 0 ? "" : "  ", summary[k].c_str());
  std::printf("\n  %-6s %8s %8s %6s %6s  %-12s %-20s %s\n", "pool", "offset", "bytes", "first", "last", "kind", "buffer", "");
  for (const box& b : boxes)
    std::printf("  %-6s %8lld %8lld %6d %6d  %-12s %-20s %s\n", pool_name(m, b.pool), static_cast<long long>(b.offset),
                static_cast<long long>(b.bytes), b.first, b.last, ctnn::memory::name_of(b.kind), b.label.c_str(), b.note.c_str());
  std::printf("\n  ops:");
  for (std::int32_t op = 0; op < m.node_count; ++op)
    std::printf(" %d %s (%s)%s", op, op_label(m, op).c_str(), ctnn::name_of(m.node_at(op).kind), op + 1 < m.node_count ? "," : "\n");
}

std::string escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

// The picture: one panel per writable pool, stacked.
template <class Module>
std::string svg_of(const Module& m, const std::vector<box>& boxes) {
  const double width = 960, left = 90, right = 30, panel_height = 380, top = 84, bottom = 140, gap = 100;
  const std::int32_t ops = std::max(m.node_count, 1);
  const double column = (width - left - right) / ops;
  std::vector<std::int32_t> shown;
  for (std::int32_t p = 0; p < m.pool_count; ++p)
    if (!m.pools[static_cast<std::size_t>(p)].read_only) shown.push_back(p);
  const double height = top + static_cast<double>(shown.size()) * (panel_height + gap) - gap + bottom;
  static const char* const fills[] = {"#4e79a7", "#59a14f", "#9c755f", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#bab0ac"};
  std::string s;
  const auto put = [&s](const char* text, auto... values) { s += format(text, values...); };
  put("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
      "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
      width, height, width, height);
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  put("<text x=\"%.0f\" y=\"26\" font-size=\"17\" font-weight=\"bold\">ctnn memory plan: %s</text>\n", left,
      escape(m.model_name.view()).c_str());
  put("<text x=\"%.0f\" y=\"46\" font-size=\"12\" fill=\"#444\">x: op index (a box spans the ops from its writer to its last reader), "
      "y: byte offset; dashed: liveness lower bound; red: the op at the peak</text>\n",
      left);
  for (std::size_t panel = 0; panel < shown.size(); ++panel) {
    const std::int32_t p = shown[panel];
    const auto& use = m.pool_usage[static_cast<std::size_t>(p)];
    const std::int64_t pool_bytes = std::max<std::int64_t>(use.bytes, 1);
    const double y0 = top + static_cast<double>(panel) * (panel_height + gap);  // top of the panel
    const double scale = panel_height / static_cast<double>(pool_bytes);
    const auto y_of = [&](std::int64_t offset) { return y0 + panel_height - static_cast<double>(offset) * scale; };
    const auto x_of = [&](std::int32_t op) { return left + op * column; };
    // Frame, offset ticks, pool label.
    put("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fafafa\" stroke=\"#999\"/>\n", left, y0, width - left - right,
        panel_height);
    for (int k = 0; k <= 4; ++k) {
      const std::int64_t offset = pool_bytes * k / 4;
      put("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", left, y_of(offset), width - right, y_of(offset));
      put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%lld</text>\n", left - 6, y_of(offset) + 4,
          static_cast<long long>(offset));
    }
    put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" transform=\"rotate(-90 %.1f %.1f)\" text-anchor=\"middle\">pool \"%s\" "
        "(bytes)</text>\n",
        left - 62, y0 + panel_height / 2, left - 62, y0 + panel_height / 2, escape(pool_name(m, p)).c_str());
    // The op at the peak (a band under the boxes; the line and its label over them, below).
    if (use.peak_node >= 0)
      put("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#e15759\" fill-opacity=\"0.10\"/>\n", x_of(use.peak_node), y0,
          column, panel_height);
    // Boxes.
    std::size_t colour = 0;
    for (const box& b : boxes) {
      if (b.pool != p) continue;
      const double x = x_of(b.first) + 2, w = (b.last - b.first + 1) * column - 4;
      const double y = y_of(b.offset + b.bytes), h = std::max(static_cast<double>(b.bytes) * scale, 1.0);
      const char* fill = b.kind == buffer_kind::scratch ? "#9e9e9e" : b.kind == buffer_kind::input ? "#8cd17d"
                         : b.kind == buffer_kind::output                                          ? "#f28e2b"
                                                                                                  : fills[colour++ % 8];
      put("<g><title>%s: %lld bytes at offset %lld, ops %d..%d%s%s</title>\n", escape(b.label).c_str(), static_cast<long long>(b.bytes),
          static_cast<long long>(b.offset), b.first, b.last, b.note.empty() ? "" : ", ", escape(b.note).c_str());
      put("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"3\" fill=\"%s\" fill-opacity=\"0.85\" stroke=\"#333\" "
          "stroke-width=\"0.8\"/>\n",
          x, y, w, h, fill);
      const std::string text = b.label + " " + std::to_string(b.bytes) + " B";
      const double font = std::min(12.0, 1.8 * w / static_cast<double>(text.size()));
      if (h >= 14 && font >= 7)
        put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" fill=\"white\" text-anchor=\"middle\">%s</text>\n", x + w / 2,
            y + h / 2 + font / 3, std::min(font, h - 2), escape(text).c_str());
      else if (font >= 7)  // a thin box: the label just above it
        put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" fill=\"#222\" text-anchor=\"middle\">%s</text>\n", x + w / 2, y - 3,
            std::min(font, 10.0), escape(text).c_str());
      s += "</g>\n";
    }
    if (use.peak_node >= 0) {
      put("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e15759\" stroke-width=\"2\" stroke-opacity=\"0.8\"/>\n",
          x_of(use.peak_node) + column / 2, y0 - 6, x_of(use.peak_node) + column / 2, y0 + panel_height);
      put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"#c0392b\" text-anchor=\"middle\">peak: op %d (%s), %lld bytes live</text>\n",
          x_of(use.peak_node) + column / 2, y0 - 10, use.peak_node, escape(m.node_at(use.peak_node).label.view()).c_str(),
          static_cast<long long>(use.lower_bound));
    }
    // The liveness lower bound.
    if (use.lower_bound > 0)
      put("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" stroke-dasharray=\"6 4\"/>\n", left, y_of(use.lower_bound),
          width - right, y_of(use.lower_bound));
    // Op axis.
    for (std::int32_t op = 0; op < m.node_count; ++op) {
      const double xc = x_of(op) + column / 2;
      put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%d</text>\n", xc, y0 + panel_height + 14, op);
      if (panel + 1 == shown.size())
        put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\" transform=\"rotate(-35 %.1f %.1f)\">%s (%s)</text>\n", xc,
            y0 + panel_height + 30, xc, y0 + panel_height + 30, escape(m.node_at(op).label.view()).c_str(), ctnn::name_of(m.node_at(op).kind));
    }
  }
  const double legend_y = height - 14;
  put("<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" fill=\"#444\">green: model input, orange: model output, grey: scratch, "
      "other colours: intermediates. Hover a box for its numbers.</text>\n",
      left, legend_y);
  s += "</svg>\n";
  return s;
}

// The bytes of the pools occupied while `op` runs: the union of the live boxes' ranges, pool by pool (a
// result written over its input shares bytes with it).
std::int64_t occupied_bytes(const std::vector<box>& boxes, std::int32_t op) {
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;  // (pool << 40) + offset keeps pools apart
  for (const box& b : boxes)
    if (b.first <= op && op <= b.last) {
      const std::int64_t base = static_cast<std::int64_t>(b.pool) << 40;
      ranges.emplace_back(base + b.offset, base + b.offset + b.bytes);
    }
  std::sort(ranges.begin(), ranges.end());
  std::int64_t bytes = 0, covered_to = -1;
  for (const auto& [start, end] : ranges) {
    if (end <= covered_to) continue;
    bytes += end - std::max(start, covered_to);
    covered_to = end;
  }
  return bytes;
}

// A tensor as an op's operand: its name and where it lives.
template <class Module>
std::string operand_text(const Module& m, std::int32_t t) {
  const ctnn::tensor& x = m.tensor_at(t);
  const std::string label{x.label.view()};
  const std::int32_t root = m.storage_root(t);
  const auto& a = m.allocations[static_cast<std::size_t>(root)];
  std::string where = a.offset >= 0 ? format("%s+%lld", pool_name(m, a.pool), static_cast<long long>(a.offset)) : "caller's buffer";
  if (root != t) where = "view of " + std::string{m.tensor_at(root).label.view()} + ", " + where;
  return label + " (" + std::to_string(x.bytes()) + " B, " + where + ")";
}

// The page: the figures, the picture inline, and one row per op (the peak's rows marked "peak").
template <class Module>
std::string html_of(const Module& m, const std::vector<box>& boxes, const std::string& svg) {
  const std::string title = "ctnn memory plan: " + escape(m.model_name.view());
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + title + "</title>\n" +
                  "<style>\nbody { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; margin: 1.5em; }\n"
                  "table { border-collapse: collapse; font-size: 13px; }\n"
                  "th, td { border: 1px solid #bbb; padding: 3px 8px; text-align: left; vertical-align: top; }\n"
                  "td.bytes { text-align: right; }\n"
                  "tr.peak { background: #fbe3e3; font-weight: bold; }\n</style>\n</head>\n<body>\n<h1>" + title + "</h1>\n<ul id=\"summary\">\n";
  for (const std::string& line : summary_of(m)) s += "<li>" + escape(line) + "</li>\n";
  s += "</ul>\n<div id=\"picture\">\n" + svg + "</div>\n";
  s += "<h2>Ops</h2>\n<p>live bytes: the bytes of the pools occupied while the op runs (the live buffers' ranges; a result "
       "written over its input counts once). Marked: the op at a pool's liveness peak.</p>\n";
  s += "<table id=\"ops\">\n<thead><tr><th>op</th><th>kind</th><th>name</th><th>live bytes</th><th>writes</th><th>reads</th>"
       "<th>peak</th></tr></thead>\n<tbody>\n";
  for (std::int32_t op = 0; op < m.node_count; ++op) {
    std::string peak;
    for (std::int32_t p = 0; p < m.pool_count; ++p)
      if (!m.pools[static_cast<std::size_t>(p)].read_only && m.pool_usage[static_cast<std::size_t>(p)].peak_node == op)
        peak += format("%speak of pool \"%s\": %lld bytes", peak.empty() ? "" : "; ", pool_name(m, p),
                       static_cast<long long>(m.pool_usage[static_cast<std::size_t>(p)].lower_bound));
    const ctnn::node& n = m.node_at(op);
    std::string writes = n.output >= 0 ? escape(operand_text(m, n.output)) : "";
    for (const box& b : boxes)
      if (b.kind == buffer_kind::scratch && b.first == op)
        writes += format("<br>scratch (%lld B, %s+%lld)", static_cast<long long>(b.bytes), pool_name(m, b.pool), static_cast<long long>(b.offset));
    std::string reads;
    for (std::int32_t k = 0; k < n.input_count; ++k) {
      const std::int32_t t = n.inputs[static_cast<std::size_t>(k)];
      if (t < 0 || m.tensor_at(t).role == ctnn::tensor_role::constant) continue;
      reads += (reads.empty() ? "" : "<br>") + escape(operand_text(m, t));
    }
    s += format("<tr id=\"op%d\" class=\"%s\"><td>%d</td><td>%s</td><td>", op, peak.empty() ? "op" : "op peak", op, ctnn::name_of(n.kind)) +
         escape(n.label.view()) + format("</td><td class=\"bytes\">%lld</td><td>", static_cast<long long>(occupied_bytes(boxes, op))) + writes +
         "</td><td>" + reads + "</td><td>" + escape(peak) + "</td></tr>\n";
  }
  s += "</tbody>\n</table>\n</body>\n</html>\n";
  return s;
}

// Writes `text` to `path`; false (and a message) if it cannot.
bool write_file(const char* program, const std::string& path, const std::string& text) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  const bool written = file != nullptr && std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (file == nullptr || std::fclose(file) != 0 || !written) {
    std::fprintf(stderr, "%s: cannot write %s\n", program, path.c_str());
    return false;
  }
  return true;
}

constexpr std::string_view synopsis = "<model.tflite|model.onnx> [plan options] [-o FILE.svg] [--html FILE.html]";
constexpr std::string_view details =
    "The memory plan ctnn::compile makes for the model with those options: a table on stdout, a picture\n"
    "(SVG; default memory_plan_<model>.svg) and, with --html, a page with the picture and one row per op.\n"
    "  -o FILE.svg         where the picture goes\n"
    "  --html FILE.html    a self-contained page: the figures, the picture, a table of the ops\n";
constexpr std::array<ctnn_tools::option_spec, 2> own_options{{{"-o", true}, {"--html", true}}};

// Where the picture and the page go (empty: the default picture, no page).
struct outputs {
  std::string svg_path, html_path;
};

int report(const char* program, const char* model, const outputs& out, const ctnn_tools::plan_options& options) {
  return ctnn_tools::with_compiled_model(program, model, options, [&](const auto& m) {
    const auto boxes = boxes_of(m);
    print_table(m, boxes);
    const std::string svg = svg_of(m, boxes);
    const std::string svg_path =
        !out.svg_path.empty() ? out.svg_path : "memory_plan_" + std::string{ctnn_tools::stem_of(model)} + ".svg";
    if (!write_file(program, svg_path, svg)) return 1;
    std::printf("\npicture: %s\n", svg_path.c_str());
    if (!out.html_path.empty()) {
      if (!write_file(program, out.html_path, html_of(m, boxes, svg))) return 1;
      std::printf("page: %s\n", out.html_path.c_str());
    }
    return 0;
  });
}

}  // namespace

int main(int argc, char** argv) {
  ctnn_tools::plan_options options;
  const char* model = nullptr;
  outputs out;
  const int status = ctnn_tools::read_model_arguments(argc, argv, synopsis, details, own_options, options, model,
                                                      [&out](std::string_view option, const char* value) {
                                                        (option == "-o" ? out.svg_path : out.html_path) = value;
                                                      });
  return status >= 0 ? status : report(argv[0], model, out, options);
}
