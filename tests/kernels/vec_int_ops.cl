// Integer vector types of every width through element-wise builtins and
// component shuffles: char16, ushort8, int4, ulong2, and a 3-component vector.
__kernel void vec_int_ops(__global const uint *in, __global uint *out) {
  size_t i = get_global_id(0);
  uint4 w = vload4(i, in);
  char16 c = as_char16(w);
  char16 cr = add_sat(c, c.sFEDCBA9876543210) + rotate(c, (char16)(3));
  ushort8 s = as_ushort8(w.yzwx);
  ushort8 sr = sub_sat(s, s.s10325476) ^ (ushort8)popcount(s);
  int4 v = as_int4(w);
  int4 vr = clamp(v, (int4)(-1000000), (int4)(1000000)) + hadd(v, v.wzyx) + (int4)clz(v);
  ulong2 l = as_ulong2(w);
  ulong2 lr = mul_hi(l, l.yx) + (l >> (ulong2)(7, 61));
  int3 t = vr.xyz * (int3)(3, -5, 7);
  out[8 * i + 0] = as_uint4(cr).x ^ as_uint4(cr).w;
  out[8 * i + 1] = as_uint4(cr).y + as_uint4(cr).z;
  out[8 * i + 2] = as_uint4(sr).x - as_uint4(sr).y;
  out[8 * i + 3] = as_uint4(sr).z ^ as_uint4(sr).w;
  vstore4(as_uint4(vr) ^ as_uint4(lr), 1, out + 8 * i);
  out[8 * i + 7] += (uint)(t.x + t.y + t.z);
}
