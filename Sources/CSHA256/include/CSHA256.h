// SHA-256 with the x86 SHA extensions, for the Ledger module (and a prefetch
// hint, reading a digest's 64 hex digits sixteen at a time, and the read
// pipeline's atomic claim of a chunk).
//
// Ledger hashes every line it reads; its portable Swift SHA-256 runs at
// ~240 MB/s, these instructions at ~1 GB/s on 365-byte lines (more with
// several lines at once: pl_sha256_hw_lines). Ledger calls
// pl_sha256_hw only when pl_sha256_hw_available() says the CPU has them;
// on other CPUs and architectures it uses its Swift implementation.
#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// The 64 round constants of SHA-256 (FIPS 180-4, 4.2.2): one table for the
/// hardware path here and Ledger's portable Swift path.
extern const uint32_t pl_sha256_k[64];

/// ``pl_sha256_k`` as a pointer (Swift sees a C array as a tuple).
static inline const uint32_t *pl_sha256_constants(void) { return pl_sha256_k; }

/// 1 when this CPU has the SHA extensions (and SSSE3, SSE4.1), else 0.
int pl_sha256_hw_available(void);

/// Writes the SHA-256 of `length` bytes at `data` to `digest` (32 bytes,
/// big-endian, as printed). Only call it when pl_sha256_hw_available() is 1.
void pl_sha256_hw(const void *data, size_t length, void *digest);

/// One message of a batch (``pl_sha256_hw_lines``): `length` bytes at `data`
/// (`data` may be null when `length` is 0).
typedef struct {
    const void *data;
    size_t length;
} pl_sha256_span;

/// Writes the SHA-256 of each of `count` messages as its eight state words
/// h0...h7 (`words[8k...8k+7]` for `lines[k]`; big-endian, they are the
/// digest's 32 bytes). Hashes `width` messages at once (1, 2 or 4), their
/// rounds interleaved: the SHA instructions of one message wait on each
/// other, so several messages fill those waits. When a message ends, the
/// next takes its lane; once none is left, the rest go on two, then one, at
/// a time. Only call it when pl_sha256_hw_available() is 1.
void pl_sha256_hw_lines(const pl_sha256_span *lines, size_t count, uint32_t *words, int width);

/// Asks the CPU to start loading the cache line holding `address` (a hint:
/// never faults, whatever the address). Ledger's readers use it for the id
/// index, whose slots they know a few lines ahead.
static inline void pl_prefetch(const void *address) { __builtin_prefetch(address); }

/// Sets `*state` to `desired` when it holds `expected`, in one atomic step
/// (acquire and release); returns 1 when it did, else 0. Ledger's read
/// pipeline claims each chunk of lines with it, so that exactly one thread
/// (a worker, or the reading thread instead of waiting) checks it.
static inline int pl_atomic_claim(int *state, int expected, int desired) {
    return __atomic_compare_exchange_n(state, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ? 1 : 0;
}

/// Reads `*state` atomically (acquire: what was written before the
/// ``pl_atomic_store`` of that value is seen).
static inline int pl_atomic_load(const int *state) { return __atomic_load_n(state, __ATOMIC_ACQUIRE); }

/// Writes `*state` atomically (release: what was written before is seen by a
/// thread that loads or claims this value).
static inline void pl_atomic_store(int *state, int value) { __atomic_store_n(state, value, __ATOMIC_RELEASE); }

/// Reads the 64 hex digits at `hex` into the 32 bytes they spell (`out`,
/// first digit pair first, as printed). Returns 1 when every digit is `0-9`
/// or `a-f` (lowercase, as the chain writes a SHA-256), else 0 (`out` is
/// then meaningless). With SSE2 (every x86-64 CPU) sixteen digits at a time;
/// elsewhere one at a time. Readers parse every line's `prev` with it.
static inline int pl_lowercase_hex32(const uint8_t *hex, uint8_t *out) {
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    __m128i ok = _mm_cmpeq_epi8(zero, zero);
    __m128i pairs[4];
    for (int k = 0; k < 4; k++) {
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(hex + 16 * k));
        __m128i d = _mm_sub_epi8(c, _mm_set1_epi8('0'));
        __m128i l = _mm_sub_epi8(c, _mm_set1_epi8('a'));
        // Unsigned d <= 9 (a digit), l <= 5 (a letter): the saturated difference is zero.
        __m128i isDigit = _mm_cmpeq_epi8(_mm_subs_epu8(d, _mm_set1_epi8(9)), zero);
        __m128i isLetter = _mm_cmpeq_epi8(_mm_subs_epu8(l, _mm_set1_epi8(5)), zero);
        ok = _mm_and_si128(ok, _mm_or_si128(isDigit, isLetter));
        __m128i nibble = _mm_or_si128(_mm_and_si128(isDigit, d),
                                      _mm_and_si128(isLetter, _mm_add_epi8(l, _mm_set1_epi8(10))));
        // Each 16-bit lane holds two digits (the first in its low byte): first << 4 | second.
        pairs[k] = _mm_or_si128(_mm_and_si128(_mm_slli_epi16(nibble, 4), _mm_set1_epi16(0x00F0)),
                                _mm_srli_epi16(nibble, 8));
    }
    _mm_storeu_si128((__m128i *)(void *)out, _mm_packus_epi16(pairs[0], pairs[1]));
    _mm_storeu_si128((__m128i *)(void *)(out + 16), _mm_packus_epi16(pairs[2], pairs[3]));
    return _mm_movemask_epi8(ok) == 0xFFFF;
#else
    for (int k = 0; k < 32; k++) {
        int v = 0;
        for (int j = 0; j < 2; j++) {
            uint8_t c = hex[2 * k + j];
            int n;
            if (c >= '0' && c <= '9') n = c - '0';
            else if (c >= 'a' && c <= 'f') n = c - 'a' + 10;
            else return 0;
            v = v << 4 | n;
        }
        out[k] = (uint8_t)v;
    }
    return 1;
#endif
}

#endif
