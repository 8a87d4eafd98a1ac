// Transcendental functions from the builtin library.
__kernel void transcendental(__global const float *a, __global float *out) {
  int i = get_global_id(0);
  float x = a[i];
  out[i * 4 + 0] = native_sin(x) + native_cos(x);
  out[i * 4 + 1] = native_exp2(x) + native_log2(fabs(x) + 1.0f);
  out[i * 4 + 2] = native_sqrt(fabs(x)) + native_rsqrt(fabs(x) + 1.0f);
  out[i * 4 + 3] = native_recip(x + 2.0f);
}
