// Double-precision arithmetic: fma, division, square root, conversions.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void double_math(__global const double *a, __global const double *b, __global double *out) {
  int i = get_global_id(0);
  double x = a[i], y = b[i];
  out[i * 5 + 0] = x * y + 0.25;
  out[i * 5 + 1] = x / y;
  out[i * 5 + 2] = sqrt(fabs(x));
  out[i * 5 + 3] = fmin(x, y) - floor(y);
  out[i * 5 + 4] = (double)(int)x + (double)(float)y;
}
