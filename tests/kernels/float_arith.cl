// Float arithmetic: mul, div, mad, fabs, floor, ceil, min, max.
__kernel void float_arith(__global const float *a, __global const float *b, __global float *out) {
  int i = get_global_id(0);
  float x = a[i], y = b[i];
  out[i * 6 + 0] = x * y + 1.5f;
  out[i * 6 + 1] = x / y;
  out[i * 6 + 2] = mad(x, y, -x);
  out[i * 6 + 3] = fabs(x) - floor(y) + ceil(x);
  out[i * 6 + 4] = fmin(x, y) * fmax(x, y);
  out[i * 6 + 5] = clamp(x, 0.0f, 1.0f) + trunc(y) + rint(x);
}
