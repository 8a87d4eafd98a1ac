// A private array indexed at run time.
__kernel void private_array(__global const int *idx, __global int *out) {
  int i = get_global_id(0);
  int t[16];
  for (int k = 0; k < 16; k++) t[k] = k * i + 1;
  out[i] = t[idx[i] & 15] + t[(idx[i] >> 4) & 15];
}
