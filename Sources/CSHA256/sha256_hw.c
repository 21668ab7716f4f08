// SHA-256 (FIPS 180-4) with the x86 SHA extensions (SHA-NI): the standard
// two-rounds-per-instruction schedule, 64-byte blocks straight from memory.
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

// Processes `blocks` 64-byte blocks into the state h0...h7.
__attribute__((target("sha,sse4.1,ssse3")))
static void compress(uint32_t state[8], const uint8_t *p, size_t blocks) {
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    // The state as the instructions want it: ABEF and CDGH.
    __m128i t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xB1);  // CDAB
    __m128i s1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1B); // EFGH
    __m128i s0 = _mm_alignr_epi8(t, s1, 8);     // ABEF
    s1 = _mm_blend_epi16(s1, t, 0xF0);          // CDGH
    while (blocks--) {
        const __m128i abef = s0, cdgh = s1;
        __m128i m[4];
        for (int g = 0; g < 16; g++) {          // four rounds per step
            __m128i w;
            if (g < 4) {
                w = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * g)), swap);
            } else {
                w = _mm_sha256msg1_epu32(m[(g - 4) & 3], m[(g - 3) & 3]);
                w = _mm_add_epi32(w, _mm_alignr_epi8(m[(g - 1) & 3], m[(g - 2) & 3], 4));
                w = _mm_sha256msg2_epu32(w, m[(g - 1) & 3]);
            }
            m[g & 3] = w;
            const __m128i x = _mm_add_epi32(w, _mm_loadu_si128((const __m128i *)&pl_sha256_k[4 * g]));
            s1 = _mm_sha256rnds2_epu32(s1, s0, x);
            s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(x, 0x0E));
        }
        s0 = _mm_add_epi32(s0, abef);
        s1 = _mm_add_epi32(s1, cdgh);
        p += 64;
    }
    t = _mm_shuffle_epi32(s0, 0x1B);            // FEBA
    s1 = _mm_shuffle_epi32(s1, 0xB1);           // DCHG
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(t, s1, 0xF0));  // DCBA
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(s1, t, 8));     // HGFE
}

void pl_sha256_hw(const void *data, size_t length, void *digest) {
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const uint8_t *p = (const uint8_t *)data;
    const size_t full = length / 64;
    compress(h, p, full);
    // The tail: the remaining bytes, 0x80, zeros, the bit length; one or two blocks.
    uint8_t tail[128];
    memset(tail, 0, sizeof tail);
    const size_t rest = length - full * 64;
    if (rest > 0) memcpy(tail, p + full * 64, rest);
    tail[rest] = 0x80;
    const size_t blocks = rest + 9 <= 64 ? 1 : 2;
    const uint64_t bits = (uint64_t)length * 8;
    for (int i = 0; i < 8; i++) tail[blocks * 64 - 1 - i] = (uint8_t)(bits >> (8 * i));
    compress(h, tail, blocks);
    uint8_t *out = (uint8_t *)digest;
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(h[i] >> 24); out[4 * i + 1] = (uint8_t)(h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(h[i] >> 8); out[4 * i + 3] = (uint8_t)h[i];
    }
}

#else

int pl_sha256_hw_available(void) { return 0; }

void pl_sha256_hw(const void *data, size_t length, void *digest) {
    (void)data; (void)length; memset(digest, 0, 32);
}

#endif
