// What an image argument reports about itself: the OpenCL channel data type
// and channel order (CLK_* values; ROCm's device libraries read them from
// dwords 8 and 9 of the image object), width and height.
__kernel void image_info(__read_only image2d_t img, __global int *out) {
    out[0] = get_image_channel_data_type(img);
    out[1] = get_image_channel_order(img);
    out[2] = get_image_width(img);
    out[3] = get_image_height(img);
}
