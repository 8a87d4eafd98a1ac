// float8 min/max, mix and step.
__kernel void fmin_fmax_vec(__global const float8 *a, __global const float8 *b, __global float8 *out) {
  int i = get_global_id(0);
  float8 x = a[i], y = b[i];
  out[i] = mix(fmin(x, y), fmax(x, y), 0.25f) + step(0.5f, x);
}
