// SHA-256 with the x86 SHA extensions, for the Ledger module (and a prefetch hint).
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

#endif
