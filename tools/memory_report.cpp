// ctnn-memory-report: the digits demo model's memory plan as a table, and as a picture of the pools over
// time (SVG, self-contained): x is the op index, y the offset, one box per buffer from the op that
// writes it to the op that reads it last; the op at the liveness peak is marked.
//
//   ctnn-memory-report                     the table, and memory_plan_digits.svg
//   ctnn-memory-report -o FILE.svg         the picture to FILE.svg
//   ctnn-memory-report --io-in-arena       plan with the model's input and output in the arena
//   ctnn-memory-report --reuse             plan with in-place ops, concat in place, memory-aware order
//   ctnn-memory-report --in-place-windows  plan with in-place convolutions (their boxes overlap their input)
//
// The plan is the one ctnn::compile<digits::model> makes (same code, run here at run time on the module
// plan_memory receives), so the numbers match the executor's.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <ctnn/ir/printer.hpp>
#include <ctnn/memory/algorithms.hpp>
#include <ctnn/pass/pipeline.hpp>

#include "digits_model.hpp"

namespace {

using ctnn::memory::buffer_kind;

// The module plan_memory receives in the default pipeline (after lower_te).
static_assert(std::is_same_v<ctnn::default_pipeline::pass<6>, ctnn::pass::plan_memory<>>);
using module_type = std::remove_cvref_t<decltype(ctnn::stage_v<digits::model, ctnn::default_pipeline, 6>)>;

struct box {
  std::string label;  // tensor name, or "scratch of <op>"
  buffer_kind kind = buffer_kind::intermediate;
  std::int32_t pool = 0;
  std::int64_t offset = 0, bytes = 0;
  std::int32_t first = 0, last = 0;  // ops, inclusive
  std::string note;                  // "in place of x", "in concat y"
};

// One box per placed tensor (from its writer to its last reader, views included) and per scratch.
std::vector<box> boxes_of(const module_type& m) {
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

const char* pool_name(const module_type& m, std::int32_t p) {
  return m.pools[static_cast<std::size_t>(p)].name != nullptr ? m.pools[static_cast<std::size_t>(p)].name : "?";
}

void print_table(const module_type& m, const std::vector<box>& boxes) {
  std::printf("memory plan of \"%s\" (%d ops)\n", std::string{m.model_name.view()}.c_str(), m.node_count);
  for (std::int32_t p = 0; p < m.pool_count; ++p) {
    const auto& pool = m.pools[static_cast<std::size_t>(p)];
    const auto& use = m.pool_usage[static_cast<std::size_t>(p)];
    std::printf("  pool %d \"%s\": %lld bytes (limit %s, alignment %d), liveness lower bound %lld", p, pool_name(m, p),
                static_cast<long long>(p == 0 ? m.arena_bytes() : use.bytes),
                pool.size_limit < 0 ? "none" : std::to_string(pool.size_limit).c_str(), pool.alignment, static_cast<long long>(use.lower_bound));
    if (use.peak_node >= 0) std::printf(" at op %d (%s)", use.peak_node, std::string{m.node_at(use.peak_node).label.view()}.c_str());
    std::printf("\n");
  }
  std::printf("  inputs and outputs in the caller's buffers: %lld bytes; RAM in all: %lld bytes\n",
              static_cast<long long>(m.io_bytes_outside), static_cast<long long>(m.arena_bytes() + m.io_bytes_outside));
  std::printf("\n  %-6s %8s %8s %6s %6s  %-12s %-20s %s\n", "pool", "offset", "bytes", "first", "last", "kind", "buffer", "");
  for (const box& b : boxes)
    std::printf("  %-6s %8lld %8lld %6d %6d  %-12s %-20s %s\n", pool_name(m, b.pool), static_cast<long long>(b.offset),
                static_cast<long long>(b.bytes), b.first, b.last, ctnn::memory::name_of(b.kind), b.label.c_str(), b.note.c_str());
  std::printf("\n  ops:");
  for (std::int32_t op = 0; op < m.node_count; ++op)
    std::printf(" %d %s (%s)%s", op, std::string{m.node_at(op).label.view()}.c_str(), ctnn::name_of(m.node_at(op).kind),
                op + 1 < m.node_count ? "," : "\n");
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
std::string svg_of(const module_type& m, const std::vector<box>& boxes) {
  const double width = 960, left = 90, right = 30, panel_height = 380, top = 84, bottom = 140, gap = 100;
  const std::int32_t ops = std::max(m.node_count, 1);
  const double column = (width - left - right) / ops;
  std::vector<std::int32_t> shown;
  for (std::int32_t p = 0; p < m.pool_count; ++p)
    if (!m.pools[static_cast<std::size_t>(p)].read_only) shown.push_back(p);
  const double height = top + static_cast<double>(shown.size()) * (panel_height + gap) - gap + bottom;
  static const char* const fills[] = {"#4e79a7", "#59a14f", "#9c755f", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#bab0ac"};
  std::string s;
  char line[1024];
  const auto put = [&](const char* format, auto... values) {
    std::snprintf(line, sizeof line, format, values...);
    s += line;
  };
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
    const std::int64_t pool_bytes = std::max<std::int64_t>(p == 0 ? m.arena_bytes() : use.bytes, 1);
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

}  // namespace

int main(int argc, char** argv) {
  std::string path = "memory_plan_digits.svg";
  ctnn::memory::plan_config config{};
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-o" && i + 1 < argc) path = argv[++i];
    else if (arg == "--io-in-arena") config.io_in_arena = true;
    else if (arg == "--reuse") config.in_place = config.concat_in_place = config.reorder = true;
    else if (arg == "--in-place-windows") ctnn::in_place_windows::apply(config);  // a conv's result over its input: boxes overlap
    else {
      std::fprintf(stderr, "usage: %s [-o FILE.svg] [--io-in-arena] [--reuse] [--in-place-windows]\n", argv[0]);
      return 2;
    }
  }
  auto m = std::make_unique<module_type>(ctnn::stage_v<digits::model, ctnn::default_pipeline, 6>);
  *m = ctnn::pass::plan_module<ctnn::memory::default_planner>(*m, config);
  if (m->error.failed()) {
    std::fprintf(stderr, "%s: planning failed (error code %d)\n", argv[0], static_cast<int>(m->error.code));
    return 1;
  }
  const auto boxes = boxes_of(*m);
  print_table(*m, boxes);
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    std::fprintf(stderr, "%s: cannot open %s for writing\n", argv[0], path.c_str());
    return 1;
  }
  const std::string svg = svg_of(*m, boxes);
  const bool written = std::fwrite(svg.data(), 1, svg.size(), file) == svg.size();
  if (std::fclose(file) != 0 || !written) {
    std::fprintf(stderr, "%s: cannot write %s\n", argv[0], path.c_str());
    return 1;
  }
  std::printf("\npicture: %s\n", path.c_str());
  return 0;
}
