// A private array too large and too dynamically indexed to live in registers:
// it is placed in scratch (private segment) memory.
__kernel void scratch_array(__global const int *a, __global int *out) {
  int i = get_global_id(0);
  int t[64];
  for (int k = 0; k < 64; k++) t[k] = a[i] ^ k;
  for (int k = 0; k < 64; k++) t[(k * 7 + a[i]) & 63] += k;
  out[i] = t[a[i] & 63] + t[(a[i] >> 6) & 63];
}
