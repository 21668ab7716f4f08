// One 16-byte block's special bytes as a bit mask, for the Events module's
// string scan (Events/JSON/ByteSearch.swift): SSE2's `pmovmskb`, which Swift's
// SIMD types cannot reach. Header-only (static inline), so the Swift compiler
// inlines it where it is called; x86-64 only (every x86-64 CPU has SSE2).
// Other architectures get no declaration here, and ByteSearch uses its
// portable Swift code there.
#ifndef CBYTEMASK_H
#define CBYTEMASK_H

#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>

/// Bit k is set when byte k of the sixteen at `p` is a quote, a backslash, a
/// control character (below 0x20) or a non-ASCII byte (0x80 and above): one
/// signed compare finds the last two (a byte of 0x80 or more is negative).
/// `p` need not be aligned.
static inline uint32_t pl_special_mask16(const void *p) {
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
    __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    __m128i low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
    return (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), low));
}
#endif

#endif
