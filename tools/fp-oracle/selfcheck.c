/* Checks the assumptions oracle.c rests on: the host's double->half and
 * float->half conversions round once and honour the rounding mode. */
#include <fenv.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
static uint16_t b16(_Float16 f) { uint16_t b; memcpy(&b, &f, 2); return b; }
int main(void) {
    int bad = 0;
    /* 1 + 2^-11 + 2^-40: above the midpoint of 1 and 1 + 2^-10 (double rounding via float would tie to 1). */
    volatile double d = 1.0 + 0x1p-11 + 0x1p-40;
    volatile float f = 1.0f + 0x1p-11f + 0x1p-20f;
    if (b16((_Float16)d) != 0x3c01) { puts("double->half rounds twice"); bad = 1; }
    if (b16((_Float16)f) != 0x3c01) { puts("float->half wrong"); bad = 1; }
    fesetround(FE_UPWARD);
    volatile double e = 1.0 + 0x1p-30;
    volatile float g = 1.0f + 0x1p-20f;
    if (b16((_Float16)e) != 0x3c01 || b16((_Float16)g) != 0x3c01) { puts("half conversion ignores FE_UPWARD"); bad = 1; }
    fesetround(FE_TOWARDZERO);
    volatile double h = 1.9999999;
    if (b16((_Float16)h) != 0x3fff) { puts("half conversion ignores FE_TOWARDZERO"); bad = 1; }
    fesetround(FE_TONEAREST);
    if (!bad) puts("ok");
    return bad;
}
