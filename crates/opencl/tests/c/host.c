/* A plain OpenCL 1.2 host program against the ICD loader: on every risa
 * device, builds a kernel from source, runs it over a 2-D NDRange with a
 * global offset and a __local argument, reads back, checks; then checks
 * error codes for bad input, sub-buffers, fill, map and profiling. Prints
 * one line per device and "N passed, N failed". */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

static int passed, failed;
#define CHECK(c, ...) do { if (c) passed++; else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

static const char *src =
    "__kernel void k(__global int *out, __local int *tmp, int add) {\n"
    "  size_t x = get_global_id(0), y = get_global_id(1);\n"
    "  size_t w = get_global_size(0) + get_global_offset(0);\n"
    "  tmp[get_local_id(0)] = (int)(y * w + x);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[y * w + x] = tmp[get_local_id(0)] + add;\n"
    "}\n";

int main(void) {
    cl_platform_id plats[8]; cl_uint np = 0;
    clGetPlatformIDs(8, plats, &np);
    cl_platform_id p = NULL;
    for (cl_uint i = 0; i < np; i++) {
        char name[64] = {0};
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (!strcmp(name, "risa")) p = plats[i];
    }
    if (!p) { printf("no risa platform\n"); return 2; }
    cl_device_id devs[16]; cl_uint nd = 0;
    CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 16, devs, &nd) == CL_SUCCESS && nd > 0, "devices");
    for (cl_uint d = 0; d < nd; d++) {
        char dname[128]; cl_int e;
        clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof dname, dname, NULL);
        cl_context ctx = clCreateContext(NULL, 1, &devs[d], NULL, NULL, &e);
        CHECK(e == CL_SUCCESS, "%s: context %d", dname, e);
        cl_command_queue q = clCreateCommandQueue(ctx, devs[d], CL_QUEUE_PROFILING_ENABLE, &e);
        CHECK(e == CL_SUCCESS, "%s: queue %d", dname, e);
        cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
        e = clBuildProgram(prog, 1, &devs[d], "", NULL, NULL);
        if (e != CL_SUCCESS) {
            char log[4096] = {0};
            clGetProgramBuildInfo(prog, devs[d], CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
            printf("%s: build failed: %s\n", dname, log);
        }
        CHECK(e == CL_SUCCESS, "%s: build %d", dname, e);
        cl_kernel k = clCreateKernel(prog, "k", &e);
        CHECK(e == CL_SUCCESS, "%s: kernel %d", dname, e);
        cl_uint nargs = 0;
        clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
        CHECK(nargs == 3, "%s: %u args", dname, nargs);
        enum { W = 64, H = 8 };
        cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, W * H * 4, NULL, &e);
        CHECK(e == CL_SUCCESS, "%s: buffer %d", dname, e);
        int pattern = -1;
        CHECK(clEnqueueFillBuffer(q, out, &pattern, 4, 0, W * H * 4, 0, NULL, NULL) == CL_SUCCESS, "fill");
        int add = 5;
        CHECK(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS, "arg0");
        CHECK(clSetKernelArg(k, 1, 32 * 4, NULL) == CL_SUCCESS, "arg1");
        CHECK(clSetKernelArg(k, 2, sizeof add, &add) == CL_SUCCESS, "arg2");
        CHECK(clSetKernelArg(k, 2, 2, &add) == CL_INVALID_ARG_SIZE, "%s: bad arg size", dname);
        CHECK(clSetKernelArg(k, 3, 4, &add) == CL_INVALID_ARG_INDEX, "%s: bad arg index", dname);
        size_t off[2] = {32, 0}, gs[2] = {32, H}, ls[2] = {32, 1}, bad[2] = {3, 1};
        cl_event ev;
        e = clEnqueueNDRangeKernel(q, k, 2, off, gs, ls, 0, NULL, &ev);
        CHECK(e == CL_SUCCESS, "%s: ndrange %d", dname, e);
        CHECK(clEnqueueNDRangeKernel(q, k, 2, off, gs, bad, 0, NULL, NULL) == CL_INVALID_WORK_GROUP_SIZE, "%s: bad local", dname);
        CHECK(clEnqueueNDRangeKernel(q, k, 4, off, gs, ls, 0, NULL, NULL) == CL_INVALID_WORK_DIMENSION, "bad dims");
        clFinish(q);
        cl_ulong t0 = 0, t1 = 0;
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &t0, NULL);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &t1, NULL);
        CHECK(t1 > t0 && t0 > 0, "%s: profiling %llu..%llu", dname, (unsigned long long)t0, (unsigned long long)t1);
        cl_int st = 0;
        clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
        CHECK(st == CL_COMPLETE, "status");
        int host[W * H];
        CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL) == CL_SUCCESS, "read");
        int good = 1;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                good &= host[y * W + x] == (x < 32 ? -1 : y * W + x + 5);
        CHECK(good, "%s: results (host[32]=%d host[W+33]=%d)", dname, host[32], host[W + 33]);
        /* a sub-buffer and a map of it */
        cl_buffer_region r = {256, 256};
        cl_mem sub = clCreateSubBuffer(out, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
        CHECK(e == CL_SUCCESS, "%s: sub-buffer %d", dname, e);
        cl_buffer_region r2 = {3, 4};
        clCreateSubBuffer(out, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r2, &e);
        CHECK(e == CL_MISALIGNED_SUB_BUFFER_OFFSET, "misaligned %d", e);
        int *m = clEnqueueMapBuffer(q, sub, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 256, 0, NULL, NULL, &e);
        CHECK(e == CL_SUCCESS && m && m[0] == host[64], "%s: map", dname);
        if (m) { m[1] = 4242; clEnqueueUnmapMemObject(q, sub, m, 0, NULL, NULL); }
        int v = 0;
        clEnqueueReadBuffer(q, out, CL_TRUE, 256 + 4, 4, &v, 0, NULL, NULL);
        CHECK(v == 4242, "%s: unmap wrote back (%d)", dname, v);
        /* bad input is an error code */
        CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, W * H * 4, 4, &v, 0, NULL, NULL) == CL_INVALID_VALUE, "oob read");
        CHECK(clCreateKernel(prog, "nope", &e) == NULL && e == CL_INVALID_KERNEL_NAME, "bad name");
        const char *bad_src = "__kernel void k(__global int *o) { o[0] = undefined_thing; }";
        cl_program bp = clCreateProgramWithSource(ctx, 1, &bad_src, NULL, &e);
        CHECK(clBuildProgram(bp, 0, NULL, NULL, NULL, NULL) == CL_BUILD_PROGRAM_FAILURE, "bad build");
        char log[4096] = {0};
        clGetProgramBuildInfo(bp, devs[d], CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        CHECK(strstr(log, "undefined_thing") != NULL, "%s: build log: %s", dname, log);
        clReleaseProgram(bp);
        clReleaseMemObject(sub);
        clReleaseEvent(ev);
        clReleaseMemObject(out);
        clReleaseKernel(k);
        clReleaseProgram(prog);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
        printf("%s: done\n", dname);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
