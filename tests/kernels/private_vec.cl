// Private arrays indexed by data (scratch or registers) and vector types: a
// shuffle through int4/uchar16 components and a private lookup table.
__kernel void private_vec(__global const uint *in, __global uint4 *out) {
  size_t i = get_global_id(0);
  uint v = in[i];
  uint table[16];
  for (int k = 0; k < 16; k++) table[k] = v * (k + 1) ^ (k << 24);
  uint a = table[v & 15] + table[(v >> 4) & 15];
  uchar16 b = as_uchar16((uint4)(v, v * 3, v ^ 0x5a5a5a5a, a));
  uchar16 c = b.sCDEF89AB45670123 + b;
  int4 d = as_int4(c);
  d = d.wzyx * (int4)(1, -2, 3, -4) + (d >> 3);
  out[i] = as_uint4(d) + (uint4)(table[(v >> 8) & 15], table[(v >> 12) & 15], a, v);
}
