// The integer builtins on every integer type: add_sat, sub_sat, clz, popcount,
// rotate, mad_hi, mul_hi, mad_sat, abs_diff, hadd, rhadd (and mul24/mad24 on the
// 32-bit types). Each work-item writes 12 results per type, widened to ulong so one
// output layout serves every type. Expected values: PoCL (tools/pocl-expected.py).
// Two operand guards keep library bugs out (docs/clsmith.md, "Library bugs"):
// sub_sat subtracts no MIN and mad_sat takes odd factors, 64-bit mad_sat is left
// out (libclc-14: long sub_sat(0, LONG_MIN) is LONG_MIN; long
// mad_sat saturates 0 * negative and misses overflows), and
// abs_diff's operands are halved (clang-19 + ROCm's int/long abs_diff is wrong
// when x - y overflows).
// libclc-14 has no mad_hi; it is mul_hi(x, y) + z by definition.
#if defined(__clang_major__) && __clang_major__ == 14
#define MAD_HI(x, y, z) (mul_hi(x, y) + (z))
#else
#define MAD_HI(x, y, z) mad_hi(x, y, z)
#endif

// mad_sat on 64-bit types is left out (x * y + z, wrapping): libclc-14's is wrong.
#define MAD_SAT(x, y, z) \
  (sizeof(x) == 8 ? (ulong)(x) * (ulong)(y) + (ulong)(z) : (ulong)mad_sat(x, y, z))

#define OPS(T, U, o, x, y, z)                                  \
  o[0] = (ulong)(U)add_sat(x, y);                              \
  o[1] = (ulong)(U)sub_sat(x, (T)(y | 1));                      \
  o[2] = (ulong)(U)clz(x);                                     \
  o[3] = (ulong)(U)popcount(x);                                \
  o[4] = (ulong)(U)rotate(x, y);                               \
  o[5] = (ulong)(U)MAD_HI(x, y, z);                            \
  o[6] = (ulong)(U)mul_hi(x, z);                               \
  o[7] = (ulong)(U)MAD_SAT((T)(x | 1), (T)(y | 1), z);                      \
  o[8] = (ulong)(U)abs_diff((T)(x >> 1), (T)(y >> 1));                      \
  o[9] = (ulong)(U)hadd(x, y);                                 \
  o[10] = (ulong)(U)rhadd(x, z);                               \
  o[11] = (ulong)(U)((ulong)x * (ulong)y + (ulong)z) /* wrapping, no overflow */

#define KERNEL(T, U)                                                            \
  __kernel void int_builtins_##T(__global const T *a, __global const T *b,      \
                                 __global const T *c, __global ulong *out) {    \
    size_t i = get_global_id(0);                                                \
    __global ulong *o = out + 12 * i;                                           \
    T x = a[i], y = b[i], z = c[i];                                             \
    OPS(T, U, o, x, y, z);                                                      \
  }

KERNEL(char, uchar)
KERNEL(uchar, uchar)
KERNEL(short, ushort)
KERNEL(ushort, ushort)
KERNEL(int, uint)
KERNEL(uint, uint)
KERNEL(long, ulong)
KERNEL(ulong, ulong)

// 24-bit multiplies exist for the 32-bit types only.
__kernel void mul24_int(__global const int *a, __global const int *b, __global const int *c,
                        __global int *out) {
  size_t i = get_global_id(0);
  int x = a[i] >> 8, y = b[i] >> 8; // 24-bit signed operands: defined results
  out[2 * i] = mul24(x, y);
  out[2 * i + 1] = mad24(x, y, c[i]);
}
__kernel void mul24_uint(__global const uint *a, __global const uint *b, __global const uint *c,
                         __global uint *out) {
  size_t i = get_global_id(0);
  uint x = a[i] >> 8, y = b[i] >> 8;
  out[2 * i] = mul24(x, y);
  out[2 * i + 1] = mad24(x, y, c[i]);
}
