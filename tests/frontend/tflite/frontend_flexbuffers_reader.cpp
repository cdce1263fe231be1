// The constexpr FlexBuffers reader (frontend/flexbuffers.hpp) on the custom options TFLM's own FlexBuffers builder
// wrote for its DETECTION_POSTPROCESS tests: every value read at compile time and again at run time, then every
// prefix and every single-byte corruption of those bytes (this test is built with AddressSanitizer and UBSan: a
// read outside the span or any undefined behaviour fails it).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <doctest/doctest.h>

#include <ctnn/frontend/flexbuffers.hpp>
#include <ctnn/frontend/tflite/schema.hpp>

namespace {

namespace flex = ctnn::flexbuffers;

// TFLM's g_gen_data_regular_nms (tensorflow/lite/micro/kernels/detection_postprocess_flexbuffers_generated_data.cc,
// Apache-2.0, written by flexbuffers::Builder): max_detections 3, max_classes_per_detection 1, detections_per_class
// 1, use_regular_nms true, nms_score_threshold 0, nms_iou_threshold 0.5, num_classes 2, scales 10, 10, 5, 5. Its
// keys' vector is 1 byte wide, its values 4.
constexpr std::string_view tflm_options{
    "\x6d\x61\x78\x5f\x64\x65\x74\x65\x63\x74\x69\x6f\x6e\x73\x00\x6d\x61\x78\x5f\x63\x6c\x61\x73\x73"
    "\x65\x73\x5f\x70\x65\x72\x5f\x64\x65\x74\x65\x63\x74\x69\x6f\x6e\x00\x64\x65\x74\x65\x63\x74\x69"
    "\x6f\x6e\x73\x5f\x70\x65\x72\x5f\x63\x6c\x61\x73\x73\x00\x75\x73\x65\x5f\x72\x65\x67\x75\x6c\x61"
    "\x72\x5f\x6e\x6d\x73\x00\x6e\x6d\x73\x5f\x73\x63\x6f\x72\x65\x5f\x74\x68\x72\x65\x73\x68\x6f\x6c"
    "\x64\x00\x6e\x6d\x73\x5f\x69\x6f\x75\x5f\x74\x68\x72\x65\x73\x68\x6f\x6c\x64\x00\x6e\x75\x6d\x5f"
    "\x63\x6c\x61\x73\x73\x65\x73\x00\x79\x5f\x73\x63\x61\x6c\x65\x00\x78\x5f\x73\x63\x61\x6c\x65\x00"
    "\x68\x5f\x73\x63\x61\x6c\x65\x00\x77\x5f\x73\x63\x61\x6c\x65\x00\x0b\x78\x12\x94\xa4\x43\x58\x33"
    "\x6a\x11\x22\x2b\x0b\x00\x00\x00\x01\x00\x00\x00\x0b\x00\x00\x00\x01\x00\x00\x00\x00\x00\xa0\x40"
    "\x01\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x3f\x00\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00"
    "\x00\x00\xa0\x40\x00\x00\x20\x41\x00\x00\x20\x41\x06\x0e\x06\x06\x0e\x0e\x06\x6a\x0e\x0e\x0e\x37"
    "\x26\x01",
    242};

constexpr bool reads_tflm_options() {
  flex::map_reader r{tflm_options.data(), tflm_options.size()};
  std::int64_t detections = 0, classes = 0, per_class = 0;
  double iou = 0, y_scale = 0, h_scale = 0, score = -1;
  bool regular = false;
  return !r.failed() && r.size() == 11 && r.as_int(r.find("max_detections"), detections) && detections == 3 &&
         r.as_int(r.find("num_classes"), classes) && classes == 2 && r.as_int(r.find("detections_per_class"), per_class) &&
         per_class == 1 && r.as_bool(r.find("use_regular_nms"), regular) && regular &&
         r.as_real(r.find("nms_iou_threshold"), iou) && iou == 0.5 && r.as_real(r.find("y_scale"), y_scale) &&
         y_scale == 10.0 && r.as_real(r.find("h_scale"), h_scale) && h_scale == 5.0 &&
         r.as_real(r.find("nms_score_threshold"), score) && score == 0.0 && !r.find("w_scal").present &&
         !r.find("w_scale_").present && !r.failed();
}
static_assert(reads_tflm_options());

// A key that is not a number, and bytes that end too early.
// Maps written by scripts/gen_op_tests_detection.py's flexbuffer_map: 8-byte words (a negative integer, one
// above 16 bits, a double) and 2-byte words (a negative integer, one above 8 bits).
constexpr std::string_view wide_map{
    "\x66\x00\x6e\x00\x75\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00\x16\x00"
    "\x00\x00\x00\x00\x00\x00\x1c\x00\x00\x00\x00\x00\x00\x00\x18\x00\x00\x00\x00\x00\x00\x00\x08\x00\x00\x00"
    "\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xd0\x3f\xfd\xff\xff\xff\xff\xff"
    "\xff\xff\x70\x11\x01\x00\x00\x00\x00\x00\x0f\x07\x07\x1b\x27\x01",
    94};
constexpr std::string_view narrow_map{
    "\x6d\x00\x6e\x00\x02\x00\x06\x00\x06\x00\x04\x00\x02\x00\x02\x00\xc8\x00\xfd\xff\x05\x05\x06\x25\x01", 25};

constexpr bool reads_words_of_8_and_2_bytes() {
  flex::map_reader wide{wide_map.data(), wide_map.size()}, narrow{narrow_map.data(), narrow_map.size()};
  std::int64_t n = 0, u = 0, m = 0, n2 = 0, f_as_int = -1;
  double f = 0;
  return wide.as_int(wide.find("n"), n) && n == -3 && wide.as_int(wide.find("u"), u) && u == 70000 &&
         wide.as_real(wide.find("f"), f) && f == 0.25 && wide.as_int(wide.find("f"), f_as_int) && f_as_int == 0 &&
         narrow.as_int(narrow.find("n"), n2) && n2 == -3 && narrow.as_int(narrow.find("m"), m) && m == 200 &&
         !narrow.find("nm").present && !wide.failed() && !narrow.failed();
}
static_assert(reads_words_of_8_and_2_bytes());

constexpr bool refuses_a_string_as_a_number() {
  flex::map_reader r{tflm_options.data(), tflm_options.size()};
  flex::value v = r.find("max_detections");
  v.type = flex::value_type::string;
  std::int64_t ignored = 0;
  return !r.as_int(v, ignored) && r.failed() && r.error() == flex::expectation::number;
}
static_assert(refuses_a_string_as_a_number());
static_assert(flex::map_reader{tflm_options.data(), 2}.failed());
static_assert(flex::map_reader{tflm_options.data(), 200}.failed());

}  // namespace

TEST_CASE("the FlexBuffers reader stays inside every prefix and every single-byte corruption of TFLM's options") {
  CHECK(reads_tflm_options());
  CHECK(reads_words_of_8_and_2_bytes());
  std::string bytes{tflm_options};
  const auto read_all = [](const std::string& b, std::size_t size) {
    flex::map_reader r{b.data(), size};
    std::int64_t i = 0;
    double d = 0;
    bool flag = false;
    for (std::string_view key : ctnn::tflite::detection_postprocess_keys) {
      const flex::value v = r.find(key);
      r.as_int(v, i);
      r.as_real(v, d);
      r.as_bool(v, flag);
    }
    return r.failed();
  };
  for (std::size_t size = 0; size < bytes.size(); ++size) read_all(std::string(bytes, 0, size), size);  // inside, or failed
  for (std::size_t at = 0; at < bytes.size(); ++at)
    for (int value : {0x00, 0x01, 0x03, 0x7f, 0x80, 0xff}) {
      std::string corrupted = bytes;
      corrupted[at] = static_cast<char>(value);
      read_all(corrupted, corrupted.size());  // any answer, never a read outside (the sanitizers check)
    }
}

