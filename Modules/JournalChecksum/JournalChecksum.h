// The journal's CRC-32 (zlib's polynomial, reflected) folded 16 bytes at a time with
// carry-less multiplication, for the CPUs that have it: Swift cannot reach the PCLMULQDQ
// instruction itself. Gopal et al., "Fast CRC Computation for Generic Polynomials Using
// PCLMULQDQ Instruction" (Intel, 2009), with the bit-reflected constants of zlib's polynomial
// as zlib (Chromium's crc32_simd.c) and Linux use them.
//
// Header only, imported by BlocJournal (a system library target): the functions are compiled
// into the Swift module that calls them, no C object of their own (whose DWARF 5 debug
// information valgrind 3.19, which Scripts/bench-instructions runs, cannot read).
#ifndef JOURNAL_CHECKSUM_H
#define JOURNAL_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/// Whether this CPU can fold (PCLMULQDQ and SSE4.1); when not, every length is for the
/// caller's tables.
static inline int journal_crc32_folds(void) {
  unsigned int a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  return (c & bit_PCLMUL) != 0 && (c & bit_SSE4_1) != 0;
}

/// The running CRC-32 value (not yet inverted) after the `length` bytes at `bytes` follow
/// those `crc` was computed over. `length` is a multiple of 16, at least 64; only when
/// `journal_crc32_folds()` said yes.
__attribute__((target("pclmul,sse4.1"))) static inline uint32_t journal_crc32_fold(
    const uint8_t *bytes, size_t length, uint32_t crc) {
  // x^(4*128+32) and x^(4*128-32) mod P (four blocks at once), x^(128+32) and x^(128-32) (one
  // block), x^64 (128 bits to 64), P and its Barrett constant: all bit-reflected.
  const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
  const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
  const __m128i k5k0 = _mm_set_epi64x(0, 0x0163cd6124);
  const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);

  __m128i x1 = _mm_loadu_si128((const __m128i *)(bytes + 0x00));
  __m128i x2 = _mm_loadu_si128((const __m128i *)(bytes + 0x10));
  __m128i x3 = _mm_loadu_si128((const __m128i *)(bytes + 0x20));
  __m128i x4 = _mm_loadu_si128((const __m128i *)(bytes + 0x30));
  x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
  bytes += 64;
  length -= 64;

  // Four blocks side by side while 64 bytes are left.
  while (length >= 64) {
    __m128i x5 = _mm_clmulepi64_si128(x1, k1k2, 0x00);
    __m128i x6 = _mm_clmulepi64_si128(x2, k1k2, 0x00);
    __m128i x7 = _mm_clmulepi64_si128(x3, k1k2, 0x00);
    __m128i x8 = _mm_clmulepi64_si128(x4, k1k2, 0x00);
    x1 = _mm_clmulepi64_si128(x1, k1k2, 0x11);
    x2 = _mm_clmulepi64_si128(x2, k1k2, 0x11);
    x3 = _mm_clmulepi64_si128(x3, k1k2, 0x11);
    x4 = _mm_clmulepi64_si128(x4, k1k2, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x5), _mm_loadu_si128((const __m128i *)(bytes + 0x00)));
    x2 = _mm_xor_si128(_mm_xor_si128(x2, x6), _mm_loadu_si128((const __m128i *)(bytes + 0x10)));
    x3 = _mm_xor_si128(_mm_xor_si128(x3, x7), _mm_loadu_si128((const __m128i *)(bytes + 0x20)));
    x4 = _mm_xor_si128(_mm_xor_si128(x4, x8), _mm_loadu_si128((const __m128i *)(bytes + 0x30)));
    bytes += 64;
    length -= 64;
  }

  // The four into one, then one block at a time.
  __m128i x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
  x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), x2), x5);
  x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
  x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), x3), x5);
  x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
  x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), x4), x5);
  while (length >= 16) {
    x2 = _mm_loadu_si128((const __m128i *)bytes);
    x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), x2), x5);
    bytes += 16;
    length -= 16;
  }

  // 128 bits to 64, then Barrett's reduction to the 32-bit remainder.
  const __m128i low32 = _mm_setr_epi32(~0, 0, ~0, 0);
  x2 = _mm_clmulepi64_si128(x1, k3k4, 0x10);
  x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2);
  x2 = _mm_srli_si128(x1, 4);
  x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, low32), k5k0, 0x00), x2);
  x2 = _mm_clmulepi64_si128(_mm_and_si128(x1, low32), poly, 0x10);
  x2 = _mm_clmulepi64_si128(_mm_and_si128(x2, low32), poly, 0x00);
  x1 = _mm_xor_si128(x1, x2);
  return (uint32_t)_mm_extract_epi32(x1, 1);
}

#else

static inline int journal_crc32_folds(void) { return 0; }

static inline uint32_t journal_crc32_fold(const uint8_t *bytes, size_t length, uint32_t crc) {
  (void)bytes;
  (void)length;
  return crc;
}

#endif
#endif
