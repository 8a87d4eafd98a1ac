// gfx906 only: the dot-product builtins and mixed-precision fma
// (v_dot2_f32_f16, v_dot2_i32_i16, v_dot2_u32_u16, v_dot4_i32_i8,
// v_dot4_u32_u8, v_dot8_i32_i4, v_dot8_u32_u4, each with and without clamp,
// and v_fma_mix_f32 / v_fma_mixlo_f16 from fma of widened halves).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void dot_mix(__global int *out, __global const uint *a, __global const uint *b,
                      __global const int *c, __global float *fout, __global const half *h,
                      __global const float *f, __global half *hout) {
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    int z = c[i];
    short2 sx = as_short2(x), sy = as_short2(y);
    ushort2 ux = as_ushort2(x), uy = as_ushort2(y);
    out[14 * i + 0] = __builtin_amdgcn_sdot2(sx, sy, z, false);
    out[14 * i + 1] = __builtin_amdgcn_sdot2(sx, sy, z, true);
    out[14 * i + 2] = (int)__builtin_amdgcn_udot2(ux, uy, (uint)z, false);
    out[14 * i + 3] = (int)__builtin_amdgcn_udot2(ux, uy, (uint)z, true);
    out[14 * i + 4] = __builtin_amdgcn_sdot4((int)x, (int)y, z, false);
    out[14 * i + 5] = __builtin_amdgcn_sdot4((int)x, (int)y, z, true);
    out[14 * i + 6] = (int)__builtin_amdgcn_udot4(x, y, (uint)z, false);
    out[14 * i + 7] = (int)__builtin_amdgcn_udot4(x, y, (uint)z, true);
    out[14 * i + 8] = __builtin_amdgcn_sdot8((int)x, (int)y, z, false);
    out[14 * i + 9] = __builtin_amdgcn_sdot8((int)x, (int)y, z, true);
    out[14 * i + 10] = (int)__builtin_amdgcn_udot8(x, y, (uint)z, false);
    out[14 * i + 11] = (int)__builtin_amdgcn_udot8(x, y, (uint)z, true);
    half2 hx = vload2(i, h), hy = vload2(i + 1, h);
    fout[4 * i + 0] = __builtin_amdgcn_fdot2(hx, hy, f[i], false);
    fout[4 * i + 1] = __builtin_amdgcn_fdot2(hx, hy, f[i], true);
    // fma of widened halves: v_fma_mix_f32; rounded back to half: v_fma_mixlo_f16.
    fout[4 * i + 2] = fma((float)hx.x, (float)hy.y, f[i]);
    hout[i] = (half)fma((float)hx.y, (float)hy.x, (float)h[i + 2]);
    out[14 * i + 12] = 0;
    out[14 * i + 13] = 0;
    fout[4 * i + 3] = 0.0f;
}
