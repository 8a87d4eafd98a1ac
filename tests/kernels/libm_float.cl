// Full-precision library math (exercises long straight-line code).
__kernel void libm_float(__global const float *a, __global float *out) {
  int i = get_global_id(0);
  float x = a[i];
  out[i * 3 + 0] = sqrt(fabs(x));
  out[i * 3 + 1] = exp(x * 0.25f);
  out[i * 3 + 2] = log(fabs(x) + 1.0f);
}
