// Integer-coordinate image reads and writes (clang-19 + ROCm device libraries
// turn read_imagei/write_imagei into image_load/image_store; libclc-14 has no
// image builtins). Work-items past the image read zeros and their writes are
// dropped; the mirrored read goes out of range on the other side.
__kernel void image_rw(__read_only image2d_t src, __write_only image2d_t dst, int w) {
    int x = get_global_id(0), y = get_global_id(1);
    int4 p = read_imagei(src, (int2)(x, y));
    int4 q = read_imagei(src, (int2)(w - 1 - x, y));
    write_imagei(dst, (int2)(x, y), p * 2 + q.wzyx);
}
