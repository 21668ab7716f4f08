// SHA-256 (FIPS 180-4) with the x86 SHA extensions (SHA-NI): the standard
// two-rounds-per-instruction schedule, 64-byte blocks straight from memory;
// one message, or several at once with their rounds interleaved.
#include "CSHA256.h"
#include <stdint.h>
#include <string.h>

// The round constants (FIPS 180-4, 4.2.2), for this file and Ledger's portable Swift SHA-256.
const uint32_t pl_sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int pl_sha256_hw_available(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (!((c >> 9) & 1) || !((c >> 19) & 1)) return 0;  // SSSE3, SSE4.1
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b >> 29) & 1;                                 // SHA
}


#define PL_SHA __attribute__((target("sha,sse4.1,ssse3")))
#if defined(__clang__)
#define PL_UNROLL _Pragma("clang loop unroll(full)")
#else
#define PL_UNROLL _Pragma("GCC unroll 16")
#endif

// One message being hashed: its state (as the instructions want it: ABEF and
// CDGH), the blocks still to hash (its full 64-byte blocks where they lie,
// then one or two padded tail blocks of its own), and where its h0...h7 go.
typedef struct {
    __m128i abef, cdgh;
    const uint8_t *next;  // the next full block of the message
    size_t full;          // full blocks left
    size_t tails;         // tail blocks in `tail`
    size_t tailsDone;     // of which hashed
    uint32_t *out;        // h0...h7 when done
    uint8_t tail[128];    // the last bytes, 0x80, zeros, the bit length
} lane;

static size_t blocks_left(const lane *l) { return l->full + (l->tails - l->tailsDone); }

// Starts hashing `length` bytes at `data` (FIPS 180-4, 5.1.1 and 5.3.3).
PL_SHA static void lane_start(lane *l, const void *data, size_t length, uint32_t *out) {
    // h0...h7 as ABEF (A in the high lane) and CDGH.
    l->abef = _mm_set_epi32(0x6a09e667, (int)0xbb67ae85, 0x510e527f, (int)0x9b05688c);
    l->cdgh = _mm_set_epi32(0x3c6ef372, (int)0xa54ff53a, 0x1f83d9ab, 0x5be0cd19);
    const uint8_t *p = (const uint8_t *)data;
    l->next = p;
    l->full = length / 64;
    const size_t rest = length - l->full * 64;
    memset(l->tail, 0, sizeof l->tail);
    if (rest > 0) memcpy(l->tail, p + l->full * 64, rest);
    l->tail[rest] = 0x80;
    l->tails = rest + 9 <= 64 ? 1 : 2;
    l->tailsDone = 0;
    const uint64_t bits = (uint64_t)length * 8;
    for (int i = 0; i < 8; i++) l->tail[l->tails * 64 - 1 - i] = (uint8_t)(bits >> (8 * i));
    l->out = out;
}

// The next block of a lane with blocks left.
static const uint8_t *next_block(lane *l) {
    if (l->full > 0) {
        const uint8_t *b = l->next;
        l->next += 64;
        l->full--;
        return b;
    }
    return l->tail + 64 * l->tailsDone++;
}

// Writes a finished lane's h0...h7.
PL_SHA static void lane_finish(const lane *l) {
    uint32_t abef[4], cdgh[4];
    _mm_storeu_si128((__m128i *)abef, l->abef);   // F E B A
    _mm_storeu_si128((__m128i *)cdgh, l->cdgh);   // H G D C
    const uint32_t h[8] = {abef[3], abef[2], cdgh[3], cdgh[2], abef[1], abef[0], cdgh[1], cdgh[0]};
    memcpy(l->out, h, sizeof h);
}

// One block into each of `n` states (ABEF s0[l], CDGH s1[l]), the lanes'
// rounds interleaved: an SHA256RNDS2 waits on the one before it in its lane,
// and the other lanes' fill the wait. `n` is a constant where this is inlined.
PL_SHA static inline __attribute__((always_inline))
void rounds(__m128i *s0, __m128i *s1, const uint8_t *const *block, const int n) {
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i abef[4], cdgh[4], m[4][4];
    for (int l = 0; l < n; l++) { abef[l] = s0[l]; cdgh[l] = s1[l]; }
    PL_UNROLL
    for (int g = 0; g < 16; g++) {              // four rounds per step
        const __m128i k = _mm_loadu_si128((const __m128i *)&pl_sha256_k[4 * g]);
        __m128i x[4];
        for (int l = 0; l < n; l++) {
            __m128i w;
            if (g < 4) {
                w = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(block[l] + 16 * g)), swap);
            } else {
                w = _mm_sha256msg1_epu32(m[l][(g - 4) & 3], m[l][(g - 3) & 3]);
                w = _mm_add_epi32(w, _mm_alignr_epi8(m[l][(g - 1) & 3], m[l][(g - 2) & 3], 4));
                w = _mm_sha256msg2_epu32(w, m[l][(g - 1) & 3]);
            }
            m[l][g & 3] = w;
            x[l] = _mm_add_epi32(w, k);
        }
        for (int l = 0; l < n; l++) s1[l] = _mm_sha256rnds2_epu32(s1[l], s0[l], x[l]);
        for (int l = 0; l < n; l++) s0[l] = _mm_sha256rnds2_epu32(s0[l], s1[l], _mm_shuffle_epi32(x[l], 0x0E));
    }
    for (int l = 0; l < n; l++) { s0[l] = _mm_add_epi32(s0[l], abef[l]); s1[l] = _mm_add_epi32(s1[l], cdgh[l]); }
}

// Hashes as many blocks as the shortest of `n` lanes has left into each
// lane, the states held in registers throughout.
PL_SHA static inline __attribute__((always_inline)) void run(lane *const *ls, const int n) {
    size_t steps = blocks_left(ls[0]);
    for (int l = 1; l < n; l++) { const size_t b = blocks_left(ls[l]); if (b < steps) steps = b; }
    __m128i s0[4], s1[4];
    for (int l = 0; l < n; l++) { s0[l] = ls[l]->abef; s1[l] = ls[l]->cdgh; }
    while (steps--) {
        const uint8_t *block[4];
        for (int l = 0; l < n; l++) block[l] = next_block(ls[l]);
        rounds(s0, s1, block, n);
    }
    for (int l = 0; l < n; l++) { ls[l]->abef = s0[l]; ls[l]->cdgh = s1[l]; }
}

PL_SHA static void run1(lane *const *ls) { run(ls, 1); }
PL_SHA static void run2(lane *const *ls) { run(ls, 2); }
PL_SHA static void run4(lane *const *ls) { run(ls, 4); }

void pl_sha256_hw(const void *data, size_t length, void *digest) {
    lane l;
    uint32_t h[8];
    lane_start(&l, data, length, h);
    lane *const ls[1] = {&l};
    run1(ls);
    lane_finish(&l);
    uint8_t *out = (uint8_t *)digest;
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(h[i] >> 24); out[4 * i + 1] = (uint8_t)(h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(h[i] >> 8); out[4 * i + 3] = (uint8_t)h[i];
    }
}

void pl_sha256_hw_lines(const pl_sha256_span *lines, size_t count, uint32_t *words, int width) {
    width = width >= 4 ? 4 : width >= 2 ? 2 : 1;
    lane lanes[4];
    // active[0..<n] are being hashed; active[n..<4] are free.
    lane *active[4] = {&lanes[0], &lanes[1], &lanes[2], &lanes[3]};
    int n = 0;
    size_t started = 0;
    for (;;) {
        // A free lane takes the next line.
        for (; n < width && started < count; n++, started++) {
            lane_start(active[n], lines[started].data, lines[started].length, words + 8 * started);
        }
        if (n == 0) return;
        // As many lanes at once as are busy (fewer only once no line is left).
        const int ran = n == 4 ? 4 : n >= 2 ? 2 : 1;
        if (ran == 4) run4(active); else if (ran == 2) run2(active); else run1(active);
        for (int l = 0; l < ran && l < n; l++) {
            if (blocks_left(active[l]) > 0) continue;
            lane_finish(active[l]);
            // The last busy lane takes its place (and is looked at next).
            lane *done = active[l];
            n--;
            active[l] = active[n];
            active[n] = done;
            l--;
        }
    }
}

#else

int pl_sha256_hw_available(void) { return 0; }

void pl_sha256_hw(const void *data, size_t length, void *digest) {
    (void)data; (void)length; memset(digest, 0, 32);
}

void pl_sha256_hw_lines(const pl_sha256_span *lines, size_t count, uint32_t *words, int width) {
    (void)lines; (void)width; memset(words, 0, 32 * count);
}

#endif
