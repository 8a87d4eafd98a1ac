// ALU-bound benchmark kernel: a long dependent float and integer loop.
__kernel void alu_loop(__global float *out, int n) {
  int i = get_global_id(0);
  float x = (float)i * 0.001f, y = 1.0f;
  uint h = (uint)i;
  for (int k = 0; k < n; k++) {
    x = x * 0.999f + y;
    y = y * 0.5f - x * 0.0001f;
    h = (h ^ (h >> 3)) * 0x9e3779b1u + (uint)k;
  }
  out[i] = x + y + (float)(h & 0xff);
}
