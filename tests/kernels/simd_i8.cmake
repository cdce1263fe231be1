# Vectorised int8 kernels (kernel/simd/i8) against the reference kernels, bit-exact.
