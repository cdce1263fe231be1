# Vectorised float32 kernels (kernel/simd/f32) against the reference kernels.
