/* The reference side of the C API test, callable from C (capi_reference.cpp). */
#ifndef CTNN_CAPI_REFERENCE_H
#define CTNN_CAPI_REFERENCE_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { capi_conv_net = 0, capi_q_conv_net = 1 };
size_t capi_reference_case_count(int model);
const float* capi_reference_input(int model, size_t c);
/* 1 when the outputs equal the generator's reference for case c (output1: q_conv_net only). */
int capi_reference_matches(int model, size_t c, const float* output0, const uint8_t* output1);
float capi_reference_q_conv_net_output1_scale(void);
int capi_reference_q_conv_net_output1_zero_point(void);
size_t capi_reference_arena_bytes(int model);

#ifdef __cplusplus
}
#endif
#endif
