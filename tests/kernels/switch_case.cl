// A switch statement.
__kernel void switch_case(__global const int *a, __global float *out) {
  int i = get_global_id(0);
  float r;
  switch (a[i] & 7) {
  case 0: r = 1.0f; break;
  case 1: r = (float)i; break;
  case 2: r = -2.5f; break;
  case 3: r = (float)a[i] * 0.5f; break;
  default: r = 0.0f;
  }
  out[i] = r;
}
