/* tracepipe - json plugin: skipping a container whole
 *
 * The field scan skips the args object of every event (the reader parses
 * it later, from the extent found here) and any other container the
 * reader does not use. On a Chrome-shaped trace that skip was a fifth of
 * the scan: a table lookup per byte between strings, and a string scan,
 * with its setup, per key.
 *
 * Where SSE2 is (every x86-64), 32 bytes are classified at once, as the
 * first stage of simdjson does: masks of the quotes and of the brackets,
 * the bytes inside strings found by a prefix XOR of the quote mask (a
 * quote outside a string opens one, the next one closes it), and only
 * the brackets outside strings looked at one at a time. A block with a
 * backslash takes the byte loop instead, which knows which quote an
 * escape hides; escapes are rare in the containers of a trace. The
 * result is the one chrome_scan_skip_container_bytes() gives for any
 * input (the reference, kept for other machines, and compared with the
 * fast path by the unit tests).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "json-common.h"
#include "json-scan-inline.h"

/**
 * chrome_scan_skip_container_bytes:
 * @p: the container's opening bracket
 * @depth: the depth of the container holding it
 *
 * Skips an object or array without validating its inside beyond bracket
 * depth (the values skipped are never interpreted), a byte at a time
 * between strings. Leaves the scanner after the closing bracket.
 *
 * Returns: %CHROME_SCAN_OK, %CHROME_SCAN_INCOMPLETE when the buffer ends
 *   first, %CHROME_SCAN_TOO_DEEP (with s->error_at) past
 *   %CHROME_SCAN_MAX_DEPTH
 */
ChromeScanResult
chrome_scan_skip_container_bytes (ChromeScanner *s,
                                  const char *p,
                                  int depth)
{
  static const guint8 structural[256] = {
    ['"'] = 1,
    ['{'] = 1,
    ['}'] = 1,
    ['['] = 1,
    [']'] = 1,
  };
  const char *end = s->end;
  int d = 0;

  while (p < end)
    {
      char c;

      while (!structural[(guchar) *p])
        if (++p == end)
          return CHROME_SCAN_INCOMPLETE;
      c = *p;

      if (c == '"')
        {
          gboolean escaped = FALSE, clean = FALSE;
          const char *q = find_string_end (p + 1, end, &escaped, &clean);

          if (q == NULL)
            return CHROME_SCAN_INCOMPLETE;
          p = q + 1;
          continue;
        }
      if (c == '{' || c == '[')
        {
          if (depth + ++d > CHROME_SCAN_MAX_DEPTH)
            {
              s->error_at = p;
              return CHROME_SCAN_TOO_DEEP;
            }
        }
      else if ((c == '}' || c == ']') && --d == 0)
        {
          s->p = p + 1;
          return CHROME_SCAN_OK;
        }
      p++;
    }
  return CHROME_SCAN_INCOMPLETE;
}

#ifdef __SSE2__

/* Where the skip stands between two stretches of bytes. */
typedef struct
{
  int open;           /* brackets open, the container's own included */
  gboolean in_string; /* the last byte read was inside a string */
} SkipState;

/* A bracket outside strings, at @at: one more open (past the limit, the
 * skip ends TOO_DEEP), or one fewer (at none, the container is over).
 * Returns: TRUE when the skip is decided (*res says how) */
static inline gboolean
skip_bracket (ChromeScanner *s,
              SkipState *st,
              const char *at,
              gboolean opens,
              int depth,
              ChromeScanResult *res)
{
  if (opens)
    {
      if (depth + ++st->open <= CHROME_SCAN_MAX_DEPTH)
        return FALSE;
      s->error_at = at;
      *res = CHROME_SCAN_TOO_DEEP;
      return TRUE;
    }
  if (--st->open != 0)
    return FALSE;
  s->p = at + 1;
  *res = CHROME_SCAN_OK;
  return TRUE;
}

/* The byte loop, over [*p, @stop) (and the byte after @stop when the
 * last one is a backslash in a string).
 * Returns: TRUE when the skip is decided (*res says how); else FALSE,
 *   with *p where the loop stopped */
static gboolean
skip_bytes (ChromeScanner *s,
            SkipState *st,
            const char **p,
            const char *stop,
            int depth,
            ChromeScanResult *res)
{
  const char *q = *p;

  for (; q < stop; q++)
    {
      char c = *q;

      if (st->in_string)
        {
          if (c == '"')
            st->in_string = FALSE;
          else if (c == '\\' && ++q == s->end)
            return *res = CHROME_SCAN_INCOMPLETE, TRUE;
        }
      else if (c == '"')
        st->in_string = TRUE;
      else if ((c == '{' || c == '[' || c == '}' || c == ']') && skip_bracket (s, st, q, c == '{' || c == '[', depth, res))
        return TRUE;
    }
  *p = q;
  return FALSE;
}

/* The bit of each of the 32 bytes at @lo, @hi that is @c. */
static inline guint32
mask32 (__m128i lo,
        __m128i hi,
        char c)
{
  __m128i k = _mm_set1_epi8 (c);

  return (guint32) _mm_movemask_epi8 (_mm_cmpeq_epi8 (lo, k)) | (guint32) _mm_movemask_epi8 (_mm_cmpeq_epi8 (hi, k)) << 16;
}

/* Bit i: the XOR of bits 0..i of @m (for a quote mask: whether byte i
 * is inside a string that opens in the block, its opening quote
 * included and its closing quote not). */
static inline guint32
prefix_xor32 (guint32 m)
{
  m ^= m << 1;
  m ^= m << 2;
  m ^= m << 4;
  m ^= m << 8;
  m ^= m << 16;
  return m;
}

/* The brackets of one block that has no backslash, in order.
 * Returns: TRUE when the skip is decided (*res says how) */
static inline gboolean
skip_brackets (ChromeScanner *s,
               SkipState *st,
               const char *p,
               guint32 open,
               guint32 brackets,
               int depth,
               ChromeScanResult *res)
{
  for (; brackets != 0; brackets &= brackets - 1)
    {
      guint i = (guint) __builtin_ctz (brackets);

      if (skip_bracket (s, st, p + i, (open >> i) & 1, depth, res))
        return TRUE;
    }
  return FALSE;
}

/**
 * chrome_scan_skip_container:
 *
 * chrome_scan_skip_container_bytes(), 32 bytes at a time.
 */
ChromeScanResult
chrome_scan_skip_container (ChromeScanner *s,
                            const char *p,
                            int depth)
{
  /* '[' | 0x20 is '{' and ']' | 0x20 is '}'; no other byte becomes either */
  const __m128i case_bit = _mm_set1_epi8 (0x20);
  SkipState st = { 0, FALSE };
  ChromeScanResult res = CHROME_SCAN_INCOMPLETE;

  while (s->end - p >= 32)
    {
      __m128i lo = _mm_loadu_si128 ((const __m128i *) p);
      __m128i hi = _mm_loadu_si128 ((const __m128i *) (p + 16));
      __m128i lo_folded = _mm_or_si128 (lo, case_bit);
      __m128i hi_folded = _mm_or_si128 (hi, case_bit);
      guint32 inside, open, close;

      if (G_UNLIKELY (mask32 (lo, hi, '\\') != 0))
        {
          if (skip_bytes (s, &st, &p, p + 32, depth, &res))
            return res;
          continue;
        }
      inside = prefix_xor32 (mask32 (lo, hi, '"')) ^ (st.in_string ? G_MAXUINT32 : 0);
      st.in_string = inside >> 31;
      open = mask32 (lo_folded, hi_folded, '{') & ~inside;
      close = mask32 (lo_folded, hi_folded, '}') & ~inside;
      if ((open | close) != 0 && skip_brackets (s, &st, p, open, open | close, depth, &res))
        return res;
      p += 32;
    }
  if (skip_bytes (s, &st, &p, s->end, depth, &res))
    return res;
  return CHROME_SCAN_INCOMPLETE;
}

#else /* !__SSE2__ */

ChromeScanResult
chrome_scan_skip_container (ChromeScanner *s,
                            const char *p,
                            int depth)
{
  return chrome_scan_skip_container_bytes (s, p, depth);
}

#endif
