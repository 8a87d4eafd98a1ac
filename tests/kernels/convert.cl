// Conversions between float, int, uint, short and char.
__kernel void convert(__global const float *f, __global const int *n, __global float *of,
                      __global int *oi, __global uint *ou, __global short *os, __global uchar *oc) {
  int i = get_global_id(0);
  of[i] = (float)n[i] + (float)(uint)n[i];
  oi[i] = (int)f[i];
  ou[i] = convert_uint_sat(f[i]);
  os[i] = (short)n[i];
  oc[i] = convert_uchar_sat(n[i]);
}
