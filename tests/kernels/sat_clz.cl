// Saturating adds and 64-bit clz: clang selects integer CLAMP for them
// (v_add_u32 ... clamp on GCN 1.2, v_add_co_u32/v_add_i32 ... clamp on GCN 1.4).
__kernel void sat_clz(__global const uint *a, __global const uint *b, __global const ulong *w,
                      __global uint *out) {
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    out[8 * i + 0] = add_sat(x, y);
    out[8 * i + 1] = sub_sat(x, y);
    out[8 * i + 2] = (uint)add_sat((int)x, (int)y);
    out[8 * i + 3] = (uint)sub_sat((int)x, (int)y);
    out[8 * i + 4] = (uint)clz(w[i]);
    out[8 * i + 5] = (uint)add_sat((ushort)x, (ushort)y);
    out[8 * i + 6] = (uint)(short)add_sat((short)x, (short)y);
    out[8 * i + 7] = (uint)popcount(w[i]);
}
