/* User events in wait lists, run against one platform (argv[1], its name)
 * on each of its devices (or the first N: argv[2]). Prints what a program
 * observes (values, statuses, callbacks, return codes) so that the output
 * for risa can be compared line for line with another platform's. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>

static const char *src =
    "__kernel void inc(__global int *a) { a[get_global_id(0)] += 1; }\n";

static const char *state(cl_event e) {
    cl_int s = 1234;
    clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
    if (s == CL_COMPLETE) return "complete";
    if (s > CL_COMPLETE) return "pending";
    return "error";
}

static int calls;
static void CL_CALLBACK on_done(cl_event e, cl_int st, void *ud) {
    (void)e;
    (void)ud;
    if (st == CL_COMPLETE) calls++;
}

/* Sets a user event's status from another thread, a little later. */
static void *setter(void *u) {
    usleep(100000);
    clSetUserEventStatus((cl_event)u, CL_COMPLETE);
    return NULL;
}

static void run(cl_platform_id p, cl_device_id dev) {
    cl_int e;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &e);
    cl_command_queue q2 = clCreateCommandQueue(ctx, dev, 0, &e);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    e = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
    printf("build %d\n", e);
    cl_kernel k = clCreateKernel(prog, "inc", &e);
    enum { N = 64 };
    int init[N], host[N], host2[N];
    for (int i = 0; i < N; i++) init[i] = i, host[i] = -1, host2[i] = -1;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof init, NULL, &e);
    clSetKernelArg(k, 0, sizeof buf, &buf);
    size_t gs = N;

    /* 1. A write waiting for a user event; the kernel and the read after it
     * in the same in-order queue wait too; a second queue's read waits for
     * the first queue's kernel. */
    printf("1. in-order queue behind a user event\n");
    cl_event u = clCreateUserEvent(ctx, &e);
    printf("  user event %d: %s\n", e, state(u));
    cl_event w, kev, r, r2;
    printf("  write %d\n", clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof init, init, 1, &u, &w));
    printf("  kernel %d\n", clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, NULL, 0, NULL, &kev));
    printf("  read %d\n", clEnqueueReadBuffer(q, buf, CL_FALSE, 0, sizeof host, host, 0, NULL, &r));
    printf("  read on queue 2 %d\n", clEnqueueReadBuffer(q2, buf, CL_FALSE, 0, sizeof host2, host2, 1, &kev, &r2));
    clSetEventCallback(r, CL_COMPLETE, on_done, "read");
    clFlush(q);
    clFlush(q2);
    printf("  before: write %s, kernel %s, read %s, host[5] %d, host2[5] %d, callbacks %d\n",
           state(w), state(kev), state(r), host[5], host2[5], calls);
    printf("  set status %d\n", clSetUserEventStatus(u, CL_COMPLETE));
    printf("  set again %d\n", clSetUserEventStatus(u, CL_COMPLETE));
    printf("  wait %d\n", clWaitForEvents(1, &r2));
    printf("  finish %d\n", clFinish(q));
    printf("  after: write %s, kernel %s, read %s, host[5] %d, host2[5] %d, callbacks %d\n",
           state(w), state(kev), state(r), host[5], host2[5], calls);

    /* 2. A user event set to an error: the commands that wait for it, and
     * those waiting for them, do not run and end with an error. */
    printf("2. a user event set to an error\n");
    cl_event u2 = clCreateUserEvent(ctx, &e);
    cl_event w2, m2;
    int other[N];
    for (int i = 0; i < N; i++) other[i] = 1000;
    printf("  write %d\n", clEnqueueWriteBuffer(q2, buf, CL_FALSE, 0, sizeof other, other, 1, &u2, &w2));
    printf("  marker %d\n", clEnqueueMarkerWithWaitList(q, 1, &w2, &m2));
    printf("  set status %d\n", clSetUserEventStatus(u2, -7));
    printf("  wait %d\n", clWaitForEvents(1, &m2) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    printf("  finish %d %d\n", clFinish(q), clFinish(q2));
    cl_int us = 0;
    clGetEventInfo(u2, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof us, &us, NULL);
    printf("  user %d", us);
    printf(", write %s", state(w2));
    printf(", marker %s\n", state(m2));
    printf("  blocking read %d\n", clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
    printf("  host[5] %d (the failed write did not run)\n", host[5]);

    /* 3. Errors that are reported at once. */
    printf("3. errors\n");
    printf("  status > complete %d\n", clSetUserEventStatus(u2, CL_RUNNING));
    printf("  not a user event %d\n", clSetUserEventStatus(w, CL_COMPLETE));
    printf("  bad wait list %d\n", clEnqueueMarkerWithWaitList(q, 1, NULL, NULL));

    /* 4. A blocking read behind a user event another thread would set is
     * not tested (it blocks); a blocking read behind a complete one runs. */
    cl_event u3 = clCreateUserEvent(ctx, &e);
    clSetUserEventStatus(u3, CL_COMPLETE);
    printf("4. blocking read behind a complete user event %d\n",
           clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof host, host, 1, &u3, NULL));
    printf("  host[9] %d\n", host[9]);

    /* 5. Blocking calls behind a user event that another thread sets. */
    printf("5. another thread sets the status\n");
    cl_event u4 = clCreateUserEvent(ctx, &e), u5 = clCreateUserEvent(ctx, &e);
    pthread_t t;
    pthread_create(&t, NULL, setter, u4);
    for (int i = 0; i < N; i++) host[i] = -1;
    printf("  blocking read %d\n", clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof host, host, 1, &u4, NULL));
    printf("  host[7] %d\n", host[7]);
    pthread_join(t, NULL);
    printf("  kernel %d\n", clEnqueueNDRangeKernel(q2, k, 1, NULL, &gs, NULL, 1, &u5, NULL));
    pthread_create(&t, NULL, setter, u5);
    printf("  finish %d\n", clFinish(q2));
    printf("  blocking read %d\n", clEnqueueReadBuffer(q2, buf, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
    printf("  host[7] %d\n", host[7]);
    pthread_join(t, NULL);
    clReleaseEvent(u4); clReleaseEvent(u5);

    clReleaseEvent(u); clReleaseEvent(u2); clReleaseEvent(u3);
    clReleaseEvent(w); clReleaseEvent(kev); clReleaseEvent(r); clReleaseEvent(r2);
    clReleaseEvent(w2); clReleaseEvent(m2);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseCommandQueue(q2);
    clReleaseContext(ctx);
    (void)p;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: events PLATFORM-NAME [DEVICES]\n"); return 2; }
    cl_platform_id plats[8]; cl_uint np = 0;
    clGetPlatformIDs(8, plats, &np);
    for (cl_uint i = 0; i < np; i++) {
        char name[128] = {0};
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strcmp(name, argv[1])) continue;
        cl_device_id devs[16]; cl_uint nd = 0;
        clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 16, devs, &nd);
        if (argc > 2 && (cl_uint)atoi(argv[2]) < nd) nd = atoi(argv[2]);
        for (cl_uint d = 0; d < nd; d++) {
            char dname[128];
            clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof dname, dname, NULL);
            printf("device %s\n", dname);
            calls = 0;
            run(plats[i], devs[d]);
        }
        return 0;
    }
    printf("no platform %s\n", argv[1]);
    return 2;
}
