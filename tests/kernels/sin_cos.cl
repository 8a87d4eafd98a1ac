// Library sine and cosine with range reduction.
__kernel void sin_cos(__global const float *a, __global float *s, __global float *c) {
  int i = get_global_id(0);
  s[i] = sin(a[i]);
  c[i] = cos(a[i]);
}
