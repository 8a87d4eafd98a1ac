// Bit manipulation: bitfield extract/insert patterns, byte packing.
__kernel void bitops(__global const uint *a, __global uint *out) {
  int i = get_global_id(0);
  uint x = a[i];
  uint f = (x >> 5) & 0x3ff;
  uint g = (x & ~0xff00u) | ((f & 0xff) << 8);
  uint h = (x << 24) | ((x & 0xff00) << 8) | ((x >> 8) & 0xff00) | (x >> 24);
  out[i] = f + g + h + ((x >> 3) | (x << 29));
}
