// Work-group inclusive prefix sum (Hillis-Steele) and sum in local memory across
// four waves (a 256-item group), with a barrier between every step; the LDS
// buffer is both static (the scan) and a __local argument (the reduction).
__kernel void lds_scan(__global const uint *in, __global uint *scan, __global uint *sums,
                       __local uint *red) {
  __local uint buf[2][256];
  uint lid = get_local_id(0), n = get_local_size(0);
  uint v = in[get_global_id(0)];
  int src = 0;
  buf[0][lid] = v;
  red[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = 1; d < n; d <<= 1) {
    uint s = buf[src][lid];
    if (lid >= d) s += buf[src][lid - d];
    buf[1 - src][lid] = s;
    src = 1 - src;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  scan[get_global_id(0)] = buf[src][lid];
  for (uint s = n / 2; s > 0; s >>= 1) {
    if (lid < s) red[lid] = max(red[lid], red[lid + s]) + (red[lid] ^ red[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) sums[get_group_id(0)] = red[0];
}
