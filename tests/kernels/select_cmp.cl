// Comparisons and selects in float and int.
__kernel void select_cmp(__global const float *a, __global const float *b, __global const int *c,
                         __global float *out, __global int *outi) {
  int i = get_global_id(0);
  float x = a[i], y = b[i];
  out[i] = x > y ? x - y : (x == y ? 0.5f : y * 2.0f);
  outi[i] = (c[i] >= 0) + (c[i] != 7) + ((uint)c[i] < 100u) + isnan(x) + (x <= y);
}
