// Narrow loads and stores (char, short) through byte addresses.
__kernel void bytes_shorts(__global const uchar *a, __global const short *b, __global uchar *oa,
                           __global short *ob) {
  int i = get_global_id(0);
  oa[i] = a[i] + a[i + 1];
  ob[i] = b[i] * 3 - (short)a[i];
}
