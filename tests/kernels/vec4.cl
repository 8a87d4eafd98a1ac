// float4 vector arithmetic and dot product.
__kernel void vec4(__global const float4 *a, __global const float4 *b, __global float4 *c, __global float *d) {
  int i = get_global_id(0);
  float4 x = a[i], y = b[i];
  c[i] = x * y + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  d[i] = dot(x, y);
}
