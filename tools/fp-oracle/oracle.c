/* Reference results for crates/fp: the host's IEEE arithmetic (x86-64 SSE,
 * rounding selected with fesetround, which sets MXCSR.RC) on edge and random
 * operands, one line per case:
 *
 *   OP A [B [C]] : NE UP DN TZ      (hex bit patterns)
 *
 * with the results under round-to-nearest-even, toward +inf, toward -inf and
 * toward zero.
 *
 * f32/f64 add, sub, mul, div, sqrt, fma are single SSE/FMA3 instructions in
 * inline assembly, so the operand order (which decides the NaN returned) is
 * fixed: first source first. f16 operations (GCC's _Float16 has no x86-64
 * arithmetic of its own) are computed in double, where add, sub and mul of
 * two halves are exact and div and sqrt are correctly rounded with 53 >= 2*11+2
 * bits (so one more rounding to half is innocent), then converted with the
 * host's double->half conversion in the same mode; fma16 is computed in double
 * rounded to odd (round toward zero, last bit set if inexact), which makes the
 * final rounding to half correct in every mode (a zero result, which is exact,
 * is recomputed in the mode itself for its sign). Integer->half goes through
 * double (exact for 32-bit integers). Built by gen.sh.
 */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#pragma STDC FENV_ACCESS ON

static const int MODES[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static float f32(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static uint32_t b32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static double f64(uint64_t b) { double f; memcpy(&f, &b, 8); return f; }
static uint64_t b64(double f) { uint64_t b; memcpy(&b, &f, 8); return b; }
static _Float16 h16(uint16_t b) { _Float16 f; memcpy(&f, &b, 2); return f; }
static uint16_t b16(_Float16 f) { uint16_t b; memcpy(&b, &f, 2); return b; }

/* One SSE instruction each; "0" ties the first source to the destination. */
#define BIN(name, insn, T)                                                   \
    static T name(T a, T b) {                                                \
        __asm__ volatile(insn " %2, %0" : "=x"(a) : "0"(a), "x"(b));         \
        return a;                                                            \
    }
BIN(add_s, "addss", float)
BIN(sub_s, "subss", float)
BIN(mul_s, "mulss", float)
BIN(div_s, "divss", float)
BIN(add_d, "addsd", double)
BIN(sub_d, "subsd", double)
BIN(mul_d, "mulsd", double)
BIN(div_d, "divsd", double)
static float sqrt_s(float a) { float r; __asm__ volatile("sqrtss %1, %0" : "=x"(r) : "x"(a)); return r; }
static double sqrt_d(double a) { double r; __asm__ volatile("sqrtsd %1, %0" : "=x"(r) : "x"(a)); return r; }
/* vfmadd213 dst, src2, src3 (Intel order): dst = src2 * dst + src3; a NaN
 * result is the first NaN of src2, dst, src3 (measured), so dst = b and
 * src2 = a give the priority a, b, c. */
static float fma_s(float a, float b, float c) {
    __asm__ volatile("vfmadd213ss %2, %1, %0" : "+x"(b) : "x"(a), "x"(c));
    return b;
}
static double fma_d(double a, double b, double c) {
    __asm__ volatile("vfmadd213sd %2, %1, %0" : "+x"(b) : "x"(a), "x"(c));
    return b;
}
static float cvt_ds(double a) { float r; __asm__ volatile("cvtsd2ss %1, %0" : "=x"(r) : "x"(a)); return r; }

static uint16_t d_to_h(double x) { volatile double v = x; return b16((_Float16)v); }
static double h_to_d(uint16_t h) { return (double)h16(h); }

/* Operand pools: the formats' landmarks, and random values. */
static const uint32_t E32[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x80800000,
    0x3f800000, 0xbf800000, 0x3f800001, 0x3fffffff, 0x40400000, 0x3eaaaaab, 0x7f7fffff,
    0xff7fffff, 0x7f000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc01234, 0x7f800001,
    0x33800000, 0x4b800001, 0x0ca00000, 0x34000000, 0x7effffff};
static const uint64_t E64[] = {
    0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x8000000000000001,
    0x000fffffffffffff, 0x0010000000000000, 0x8010000000000000, 0x3ff0000000000000,
    0xbff0000000000000, 0x3ff0000000000001, 0x3fffffffffffffff, 0x4008000000000000,
    0x3fd5555555555555, 0x7fefffffffffffff, 0xffefffffffffffff, 0x7fe0000000000000,
    0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0xfff8000000001234,
    0x7ff0000000000001, 0x3ca0000000000000, 0x4340000000000001, 0x0350000000000000,
    0x3cb0000000000000, 0x7fdfffffffffffff};
static const uint16_t E16[] = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x8400, 0x3c00, 0xbc00, 0x3c01, 0x3fff,
    0x4200, 0x3555, 0x7bff, 0xfbff, 0x7800, 0x7c00, 0xfc00, 0x7e00, 0xfe12, 0x7c01,
    0x1400, 0x6401, 0x0a00, 0x1800, 0x77ff};
#define N(a) (sizeof(a) / sizeof(a[0]))

/* Random operands of a few shapes: any bits; near 1 (so sums cancel and
 * products round); short mantissas (halfway cases); tiny (denormal results). */
static uint64_t rand_bits(int ebits, int mbits, int shape) {
    uint64_t sign = next() & 1, man = next() & ((1ull << mbits) - 1);
    uint64_t emax = (1ull << ebits) - 1, bias = emax >> 1, e;
    switch (shape) {
    case 0: return next() & ((1ull << (ebits + mbits + 1)) - 1);
    case 1: e = bias - 2 + next() % 5; break;
    case 2: e = bias - 3 + next() % 7; man &= ~((1ull << (mbits - (int)(next() % 4) - 1)) - 1); break;
    case 3: e = next() % 4; break;
    default: e = emax - 1 - next() % 3; break;
    }
    return sign << (ebits + mbits) | e << mbits | man;
}

static uint64_t operand(int ebits, int mbits, const void *edges, int nedges, int width, int i) {
    if (i < nedges) {
        if (width == 32) return ((const uint32_t *)edges)[i];
        if (width == 64) return ((const uint64_t *)edges)[i];
        return ((const uint16_t *)edges)[i];
    }
    return rand_bits(ebits, mbits, (int)(next() % 5));
}

enum { W16 = 16, W32 = 32, W64 = 64 };

static uint64_t compute(const char *op, int w, uint64_t a, uint64_t b, uint64_t c, int mode) {
    fesetround(MODES[mode]);
    uint64_t r = 0;
    if (w == W32) {
        float x = f32(a), y = f32(b), z = f32(c);
        if (!strcmp(op, "add")) r = b32(add_s(x, y));
        else if (!strcmp(op, "sub")) r = b32(sub_s(x, y));
        else if (!strcmp(op, "mul")) r = b32(mul_s(x, y));
        else if (!strcmp(op, "div")) r = b32(div_s(x, y));
        else if (!strcmp(op, "sqrt")) r = b32(sqrt_s(x));
        else if (!strcmp(op, "fma")) r = b32(fma_s(x, y, z));
    } else if (w == W64) {
        double x = f64(a), y = f64(b), z = f64(c);
        if (!strcmp(op, "add")) r = b64(add_d(x, y));
        else if (!strcmp(op, "sub")) r = b64(sub_d(x, y));
        else if (!strcmp(op, "mul")) r = b64(mul_d(x, y));
        else if (!strcmp(op, "div")) r = b64(div_d(x, y));
        else if (!strcmp(op, "sqrt")) r = b64(sqrt_d(x));
        else if (!strcmp(op, "fma")) r = b64(fma_d(x, y, z));
    } else {
        double x = h_to_d(a), y = h_to_d(b), z = h_to_d(c), d = 0;
        if (!strcmp(op, "add")) d = add_d(x, y);
        else if (!strcmp(op, "sub")) d = sub_d(x, y);
        else if (!strcmp(op, "mul")) d = mul_d(x, y);
        else if (!strcmp(op, "div")) d = div_d(x, y);
        else if (!strcmp(op, "sqrt")) d = sqrt_d(x);
        else if (!strcmp(op, "fma")) {
            fesetround(FE_TOWARDZERO);
            feclearexcept(FE_INEXACT);
            d = fma_d(x, y, z);
            if (fetestexcept(FE_INEXACT)) d = f64(b64(d) | 1);
            fesetround(MODES[mode]);
            /* An exact zero's sign depends on the mode (-0 toward -inf). */
            if (d == 0) d = fma_d(x, y, z);
        }
        r = d_to_h(d);
    }
    fesetround(FE_TONEAREST);
    return r;
}

static void arith(const char *op, int arity, int w, int nrand) {
    int ebits = w == 16 ? 5 : w == 32 ? 8 : 11, mbits = w == 16 ? 10 : w == 32 ? 23 : 52;
    const void *edges = w == 16 ? (const void *)E16 : w == 32 ? (const void *)E32 : (const void *)E64;
    int ne = w == 16 ? N(E16) : w == 32 ? N(E32) : N(E64);
    /* fma: every edge triple is too many; take a stride through them. */
    int cases = arity == 1 ? ne + nrand : arity == 2 ? ne * ne + nrand : 700 + nrand;
    for (int i = 0; i < cases; i++) {
        uint64_t a, b = 0, c = 0;
        if (arity == 1) a = operand(ebits, mbits, edges, ne, w, i);
        else if (arity == 2 && i < ne * ne) {
            a = operand(ebits, mbits, edges, ne, w, i / ne);
            b = operand(ebits, mbits, edges, ne, w, i % ne);
        } else if (arity == 3 && i < 700) {
            a = operand(ebits, mbits, edges, ne, w, (int)(next() % ne));
            b = operand(ebits, mbits, edges, ne, w, (int)(next() % ne));
            c = operand(ebits, mbits, edges, ne, w, (int)(next() % ne));
        } else {
            a = operand(ebits, mbits, edges, 0, w, 0);
            b = operand(ebits, mbits, edges, 0, w, 0);
            c = operand(ebits, mbits, edges, 0, w, 0);
            if (arity == 3 && (next() & 1)) {
                /* c close to -a*b: cancellation in the fused sum. */
                fesetround(FE_TONEAREST);
                if (w == 32) c = b32(-(f32(a) * f32(b))) ^ (next() & 3);
                else if (w == 64) c = b64(-(f64(a) * f64(b))) ^ (next() & 3);
                else c = d_to_h(-(h_to_d(a) * h_to_d(b))) ^ (next() & 3);
            }
        }
        printf("%s%d %llx", op, w, (unsigned long long)a);
        if (arity > 1) printf(" %llx", (unsigned long long)b);
        if (arity > 2) printf(" %llx", (unsigned long long)c);
        printf(" :");
        for (int m = 0; m < 4; m++) printf(" %llx", (unsigned long long)compute(op, w, a, b, c, m));
        printf("\n");
    }
}

/* ldexp: x * 2^n, which rounds only when the result is below the normal
 * range (and overflows past it). glibc's ldexpf/ldexp round in the current
 * mode; half goes through double (exact there) and one conversion. Line:
 * "ldexpW A N : ..." with N as the hex of its 32-bit two's complement. */
static void ldexp_cases(int w, int nrand) {
    int ebits = w == 16 ? 5 : w == 32 ? 8 : 11, mbits = w == 16 ? 10 : w == 32 ? 23 : 52;
    int bias = (1 << (ebits - 1)) - 1;
    const void *edges = w == 16 ? (const void *)E16 : w == 32 ? (const void *)E32 : (const void *)E64;
    int ne = w == 16 ? N(E16) : w == 32 ? N(E32) : N(E64);
    for (int i = 0; i < ne + nrand; i++) {
        uint64_t a = operand(ebits, mbits, edges, i < ne ? ne : 0, w, i < ne ? i : 0);
        /* Shifts that reach the denormal range, overflow, or stay put. */
        int span = 2 * bias + mbits + 4;
        int n = (int)(next() % (2 * span + 1)) - span;
        printf("ldexp%d %llx %x :", w, (unsigned long long)a, (unsigned)n);
        for (int m = 0; m < 4; m++) {
            fesetround(MODES[m]);
            uint64_t r;
            if (w == 32) { volatile float x = f32((uint32_t)a); r = b32(ldexpf(x, n)); }
            else if (w == 64) { volatile double x = f64(a); r = b64(ldexp(x, n)); }
            else { volatile double x = h_to_d((uint16_t)a); r = d_to_h(ldexp(x, n)); }
            fesetround(FE_TONEAREST);
            printf(" %llx", (unsigned long long)r);
        }
        printf("\n");
    }
}

/* Conversions: NAME, source kind, count. */
static void conv(const char *name, int nrand) {
    int from_w = 0; /* float source width, or 0 for integers */
    if (!strcmp(name, "f64_to_f32") || !strcmp(name, "f64_to_f16")) from_w = 64;
    if (!strcmp(name, "f32_to_f16")) from_w = 32;
    int ne = from_w == 64 ? N(E64) : from_w == 32 ? N(E32) : 0;
    for (int i = 0; i < ne + nrand; i++) {
        uint64_t a;
        if (from_w == 64) {
            a = i < ne ? E64[i] : rand_bits(11, 52, (int)(next() % 5));
            if (i >= ne && !strcmp(name, "f64_to_f16") && (next() & 1)) {
                /* Around half's range: exponents 2^-26 .. 2^16. */
                a = (a & 0x800fffffffffffffull) | (uint64_t)(1023 - 26 + next() % 43) << 52;
            }
            if (i >= ne && !strcmp(name, "f64_to_f32") && (next() & 1)) {
                a = (a & 0x800fffffffffffffull) | (uint64_t)(1023 - 152 + next() % 282) << 52;
            }
        } else if (from_w == 32) {
            a = i < ne ? E32[i] : rand_bits(8, 23, (int)(next() % 5));
            if (i >= ne && (next() & 1))
                a = (a & 0x807fffff) | (uint64_t)(127 - 26 + next() % 43) << 23;
        } else {
            /* Integers: small, around 2^24 / 2^53, anything. */
            uint64_t v = next();
            switch (next() % 4) {
            case 0: v &= 0xffff; break;
            case 1: v = (1ull << 24) + (v & 0xff) - 0x80; break;
            case 2: v >>= next() % 64; break;
            default: break;
            }
            if (i < 8) v = (uint64_t[]){0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0xffffffffffffffffull, 0x8000000000000000ull, 0x7fffffffffffffffull}[i];
            if (strstr(name, "32_to")) v &= 0xffffffff;
            a = v;
        }
        printf("%s %llx :", name, (unsigned long long)a);
        for (int m = 0; m < 4; m++) {
            fesetround(MODES[m]);
            uint64_t r = 0;
            volatile uint64_t va = a;
            if (!strcmp(name, "f64_to_f32")) r = b32(cvt_ds(f64(va)));
            else if (!strcmp(name, "f64_to_f16")) r = d_to_h(f64(va));
            else if (!strcmp(name, "f32_to_f16")) { volatile float x = f32((uint32_t)va); r = b16((_Float16)x); }
            else if (!strcmp(name, "i32_to_f32")) { volatile int32_t x = (int32_t)va; r = b32((float)x); }
            else if (!strcmp(name, "u32_to_f32")) { volatile uint32_t x = (uint32_t)va; r = b32((float)x); }
            else if (!strcmp(name, "i64_to_f32")) { volatile int64_t x = (int64_t)va; r = b32((float)x); }
            else if (!strcmp(name, "u64_to_f32")) { volatile uint64_t x = va; r = b32((float)x); }
            else if (!strcmp(name, "i64_to_f64")) { volatile int64_t x = (int64_t)va; r = b64((double)x); }
            else if (!strcmp(name, "u64_to_f64")) { volatile uint64_t x = va; r = b64((double)x); }
            else if (!strcmp(name, "i32_to_f16")) { volatile int32_t x = (int32_t)va; r = d_to_h((double)x); }
            else if (!strcmp(name, "u32_to_f16")) { volatile uint32_t x = (uint32_t)va; r = d_to_h((double)x); }
            fesetround(FE_TONEAREST);
            printf(" %llx", (unsigned long long)r);
        }
        printf("\n");
    }
}

int main(void) {
    static const int widths[3] = {16, 32, 64};
    for (int k = 0; k < 3; k++) {
        int w = widths[k];
        arith("add", 2, w, 300);
        arith("sub", 2, w, 0);
        arith("mul", 2, w, 300);
        arith("div", 2, w, 300);
        arith("sqrt", 1, w, 300);
        arith("fma", 3, w, 600);
        ldexp_cases(w, 400);
    }
    static const char *convs[] = {"f64_to_f32", "f64_to_f16", "f32_to_f16", "i32_to_f32", "u32_to_f32",
                                  "i64_to_f32", "u64_to_f32", "i64_to_f64", "u64_to_f64", "i32_to_f16",
                                  "u32_to_f16"};
    for (unsigned k = 0; k < N(convs); k++) conv(convs[k], 300);
    return 0;
}
