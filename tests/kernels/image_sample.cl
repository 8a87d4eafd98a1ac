// read_imagef/read_imageui with constant samplers: every OpenCL address
// mode, nearest and linear filtering, normalized and unnormalized
// coordinates, on a small 2D image read past its edges. The expected outputs
// come from PoCL (tools/images/pocl-sample.py); clang-19 + the ROCm device
// libraries compile read_imagef into image_sample_lz with the sampler (S#)
// as immediates.

// Texel-space coordinates of work-item (x, y): from about two texels before
// the image to two past it (the tests use a 5x4 image and a 12x10 grid).
float2 texel_coord(void) {
  return (float2)((get_global_id(0) - 3.0f) * 0.7f + 0.13f,
                  (get_global_id(1) - 3.0f) * 0.8f + 0.07f);
}

size_t out_index(void) { return get_global_id(1) * get_global_size(0) + get_global_id(0); }

#define UNNORM(NAME, MODE, FILTER)                                            \
  __constant sampler_t s_##NAME =                                             \
      CLK_NORMALIZED_COORDS_FALSE | MODE | FILTER;                            \
  __kernel void NAME(read_only image2d_t img, __global float4 *out) {        \
    out[out_index()] = read_imagef(img, s_##NAME, texel_coord());             \
  }

#define NORM(NAME, MODE, FILTER)                                              \
  __constant sampler_t s_##NAME = CLK_NORMALIZED_COORDS_TRUE | MODE | FILTER; \
  __kernel void NAME(read_only image2d_t img, __global float4 *out) {        \
    float2 c = texel_coord() * 1.6f;                                          \
    c /= (float2)(get_image_width(img), get_image_height(img));               \
    out[out_index()] = read_imagef(img, s_##NAME, c);                         \
  }

UNNORM(nearest_none, CLK_ADDRESS_NONE, CLK_FILTER_NEAREST)
UNNORM(nearest_clamp, CLK_ADDRESS_CLAMP, CLK_FILTER_NEAREST)
UNNORM(nearest_edge, CLK_ADDRESS_CLAMP_TO_EDGE, CLK_FILTER_NEAREST)
UNNORM(linear_clamp, CLK_ADDRESS_CLAMP, CLK_FILTER_LINEAR)
UNNORM(linear_edge, CLK_ADDRESS_CLAMP_TO_EDGE, CLK_FILTER_LINEAR)
NORM(nearest_norm_clamp, CLK_ADDRESS_CLAMP, CLK_FILTER_NEAREST)
NORM(nearest_norm_repeat, CLK_ADDRESS_REPEAT, CLK_FILTER_NEAREST)
NORM(nearest_norm_mirror, CLK_ADDRESS_MIRRORED_REPEAT, CLK_FILTER_NEAREST)
NORM(linear_norm_edge, CLK_ADDRESS_CLAMP_TO_EDGE, CLK_FILTER_LINEAR)
NORM(linear_norm_repeat, CLK_ADDRESS_REPEAT, CLK_FILTER_LINEAR)
NORM(linear_norm_mirror, CLK_ADDRESS_MIRRORED_REPEAT, CLK_FILTER_LINEAR)

// Integer texels: read_imageui with integer coordinates and a nearest,
// unnormalized, clamp-to-edge sampler (the coordinates become floats).
__constant sampler_t s_uint = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__kernel void nearest_uint(read_only image2d_t img, __global uint4 *out) {
  int2 c = (int2)((int)get_global_id(0) - 3, (int)get_global_id(1) - 3);
  out[out_index()] = read_imageui(img, s_uint, c);
}
