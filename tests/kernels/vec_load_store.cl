// vload/vstore of float2 and float3 plus swizzles.
__kernel void vec_load_store(__global const float *a, __global float *out) {
  int i = get_global_id(0);
  float2 p = vload2(i, a);
  float3 q = vload3(i, a + 64);
  vstore3(q.zxy + p.xyx, i, out);
  vstore2(p.yx * 2.0f, i, out + 128);
}
