// ARC_HD: marks a function callable on the host and the device under nvcc, plain C++
// elsewhere (the headers the CPU tests share with the kernels: swt_shape.h, adaptive_rule.h).
#pragma once

#if defined(__CUDACC__)
#define ARC_HD __host__ __device__
#else
#define ARC_HD
#endif
