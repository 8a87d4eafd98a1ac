// Many scalar and pointer arguments (kcache beyond the first lines).
__kernel void many_args(__global float *o, __global const float *p0, __global const float *p1,
                        __global const float *p2, __global const float *p3, float s0, float s1,
                        float s2, float s3, int k0, int k1, int k2, int k3, uint u0, uint u1,
                        float s4, float s5, float s6, float s7, int k4, int k5, int k6, int k7) {
  int i = get_global_id(0);
  float v = p0[i] * s0 + p1[i] * s1 + p2[i] * s2 + p3[i] * s3;
  v += (float)(k0 + k1 * k2 - k3) + (float)(u0 ^ u1);
  v += s4 * s5 - s6 * s7 + (float)(k4 + k5 + k6 + k7);
  o[i] = v;
}
