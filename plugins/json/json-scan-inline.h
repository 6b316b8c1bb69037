/* tracepipe - json plugin: the scanner's hot paths, inline
 *
 * The member and value scanners run for every member of every event and
 * every arg; their calls' register saves were a fifth of their cost, so
 * the loops that read events (json-scan.c) and args (json-args.c) get
 * them inline. json-scan.c has the documented, exported forms
 * (chrome_scan_member(), chrome_scan_value(), ...) for everyone else.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "json-number-inline.h"
#include "json-common.h"

static inline ChromeScanResult
scan_fail (ChromeScanner *s,
           const char *at,
           const char *msg)
{
  s->error_at = at;
  s->error_msg = msg;
  return CHROME_SCAN_ERROR;
}

/* SWAR over 8 bytes at a time: most strings of a trace (keys, names,
 * categories) are short plain ASCII, where a memchr call per string and a
 * separate UTF-8 validation cost more than the string itself. */
#define ONES G_GUINT64_CONSTANT (0x0101010101010101)
#define HIGHS G_GUINT64_CONSTANT (0x8080808080808080)

/* The high bit of the first zero byte is exact; bits above it may not be. */
static inline guint64
zero_bytes (guint64 w)
{
  return (w - ONES) & ~w & HIGHS;
}

/* A mask whose lowest set byte is the first '"' or '\\' of @w, or (when
 * @clean) the first NUL or non-ASCII byte. */
static inline guint64
special_bytes (guint64 w,
               gboolean clean)
{
  guint64 m = zero_bytes (w ^ (ONES * '"')) | zero_bytes (w ^ (ONES * '\\'));

  if (clean)
    m |= zero_bytes (w) | (w & HIGHS);
  return m;
}

static inline gboolean
is_special (guchar c,
            gboolean clean)
{
  return c == '"' || c == '\\' || (clean && (c == 0 || c >= 0x80));
}

#ifdef __SSE2__
/* 16 bytes at a time where SSE2 is (every x86-64): the bit of each byte
 * that is '"' or '\\', or (when @clean) NUL or non-ASCII. */
static inline guint
special_mask16 (const char *p,
                gboolean clean)
{
  __m128i v = _mm_loadu_si128 ((const __m128i *) p);
  guint m = (guint) _mm_movemask_epi8 (_mm_or_si128 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 ('"')),
                                                     _mm_cmpeq_epi8 (v, _mm_set1_epi8 ('\\'))));

  if (clean)
    m |= (guint) _mm_movemask_epi8 (v) | (guint) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, _mm_setzero_si128 ()));
  return m;
}
#endif

/* Finds the closing quote of a string whose text starts at @p.  Returns
 * NULL when the buffer ends first.  Sets *escaped if a backslash occurs,
 * clears *clean if a NUL or a non-ASCII byte does (text that may need
 * repair as UTF-8). */
static G_ALWAYS_INLINE inline const char *
find_string_end (const char *p,
                 const char *end,
                 gboolean *escaped,
                 gboolean *clean)
{
  for (;;)
    {
      guchar c;

#ifdef __SSE2__
      while (end - p >= 16)
        {
          guint m = special_mask16 (p, *clean);

          if (m != 0)
            {
              p += __builtin_ctz (m);
              goto found;
            }
          p += 16;
        }
#endif
      while (end - p >= 8)
        {
          guint64 w, m;

          memcpy (&w, p, 8);
          m = special_bytes (w, *clean);
          if (m != 0)
            {
#if G_BYTE_ORDER == G_LITTLE_ENDIAN && defined(__GNUC__)
              p += __builtin_ctzll (m) >> 3;
#else
              while (!is_special (*p, *clean))
                p++;
#endif
              break;
            }
          p += 8;
        }
      while (p < end && !is_special (*p, *clean))
        p++;
#ifdef __SSE2__
    found:
#endif
      if (p == end)
        return NULL;
      c = *p;
      if (c == '"')
        return p;
      if (c == '\\')
        {
          /* the escaped character is never the end, whatever it is */
          *escaped = TRUE;
          *clean = FALSE;
          if (end - p < 2)
            return NULL;
          p += 2;
        }
      else
        {
          *clean = FALSE;
          p++;
        }
    }
}

/* The string at @p (after any whitespace), inlined where keys are read:
 * a call per key showed in the profile. */
static G_ALWAYS_INLINE inline ChromeScanResult
scan_string_at (ChromeScanner *s,
                const char *p,
                ChromeValue *v)
{
  const char *q;
  gboolean escaped = FALSE, clean = TRUE;

  if (p == s->end)
    return CHROME_SCAN_INCOMPLETE;
  if (*p != '"')
    return scan_fail (s, p, "expected a string");
  q = find_string_end (p + 1, s->end, &escaped, &clean);
  if (q == NULL)
    return CHROME_SCAN_INCOMPLETE;
  v->type = CHROME_VALUE_STRING;
  v->start = p + 1;
  v->end = q;
  v->escaped = escaped;
  v->clean = clean;
  s->p = q + 1;
  return CHROME_SCAN_OK;
}

static inline ChromeScanResult
scan_literal (ChromeScanner *s,
              const char *p,
              const char *word,
              ChromeValueType type,
              ChromeValue *v)
{
  gsize len = strlen (word);
  gsize avail = s->end - p;

  if (memcmp (p, word, MIN (len, avail)) != 0)
    return scan_fail (s, p, "unexpected character");
  if (avail < len)
    return CHROME_SCAN_INCOMPLETE;
  v->type = type;
  v->start = p;
  v->end = p + len;
  v->escaped = v->clean = FALSE;
  s->p = p + len;
  return CHROME_SCAN_OK;
}

/* The characters a number's text runs over (a sign only leads in valid
 * JSON; the converters of json-number.c judge the run). */
static const guint8 chrome_number_char[256] = {
  ['+'] = 1,
  ['-'] = 1,
  ['.'] = 1,
  ['0'] = 1,
  ['1'] = 1,
  ['2'] = 1,
  ['3'] = 1,
  ['4'] = 1,
  ['5'] = 1,
  ['6'] = 1,
  ['7'] = 1,
  ['8'] = 1,
  ['9'] = 1,
  ['E'] = 1,
  ['e'] = 1,
};

static inline ChromeScanResult
scan_number (ChromeScanner *s,
             const char *p,
             ChromeValue *v)
{
  const char *q = p;

  while (q < s->end && chrome_number_char[(guchar) *q])
    q++;
  /* A number is only known to be complete when something follows it. */
  if (q == s->end)
    return CHROME_SCAN_INCOMPLETE;
  v->type = CHROME_VALUE_NUMBER;
  v->start = p;
  v->end = q;
  v->escaped = v->clean = FALSE;
  s->p = q;
  return CHROME_SCAN_OK;
}

/* A plain number at the scanner (which stands after the ':'), scanned
 * and converted in one pass: digits, then at most @scale (0 to 3)
 * fraction digits after a '.', at most 18 digits with @scale, and with a
 * fraction below 2^51 once scaled; exactly the text on which
 * chrome_decimal_to_scaled() (or, with @scale 0,
 * chrome_decimal_to_int64()) takes its one-loop path and where
 * chrome_time_to_ns() gives the same, so *@out is what they give.  Anything else (a sign, more fraction digits, an exponent,
 * a string, the end of the buffer) returns FALSE with nothing consumed:
 * the caller scans the value as before and converts it later.  Every
 * event's ts, pid and tid, and most durations, are read so: their text
 * was walked twice before (scan, then convert). */
static G_ALWAYS_INLINE inline gboolean
scan_plain_number (ChromeScanner *s,
                   int scale,
                   ChromeValue *v,
                   gint64 *out)
{
  static const guint16 scale_up[4] = { 1, 10, 100, 1000 };
  const char *p = s->p;
  const char *end = s->end;
  const char *digits = p;
  guint64 m = 0;
  int nfrac = 0;

  if (end - p >= 8 && chrome_read_8_digits (p, &m))
    p += 8;
  while (p < end && chrome_is_digit (*p))
    m = m * 10 + (guint64) (*p++ - '0');
  if (p == digits || p == end || (p - digits) + scale > 18)
    return FALSE;
  if (*p == '.')
    {
      const char *frac = ++p;

      while (p < end && chrome_is_digit (*p) && p - frac < scale)
        m = m * 10 + (guint64) (*p++ - '0');
      nfrac = p - frac;
      if (nfrac == 0 || p == end)
        return FALSE;
    }
  /* A time with a fraction from 2^51 ns on: trace_processor's doubles
   * (chrome_time_to_ns()) no longer give the exact value. */
  if (chrome_number_char[(guchar) *p] || (nfrac > 0 && m * scale_up[scale - nfrac] >= (G_GUINT64_CONSTANT (1) << 51)))
    return FALSE;
  v->type = CHROME_VALUE_NUMBER;
  v->start = digits;
  v->end = p;
  v->escaped = v->clean = FALSE;
  s->p = p;
  *out = (gint64) (m * scale_up[scale - nfrac]);
  return TRUE;
}

static G_ALWAYS_INLINE inline ChromeScanResult
scan_value (ChromeScanner *s,
            ChromeValue *v,
            int depth)
{
  const char *p = chrome_skip_ws (s->p, s->end);
  ChromeScanResult res;

  if (p == s->end)
    return CHROME_SCAN_INCOMPLETE;
  switch (*p)
    {
    case '"':
      s->p = p;
      return scan_string_at (s, p, v);
    case '{':
    case '[':
      res = chrome_scan_skip_container (s, p, depth);
      if (res == CHROME_SCAN_OK)
        {
          v->type = *p == '{' ? CHROME_VALUE_OBJECT : CHROME_VALUE_ARRAY;
          v->start = p;
          v->end = s->p;
          v->escaped = FALSE;
          v->clean = FALSE;
        }
      return res;
    case 't':
      return scan_literal (s, p, "true", CHROME_VALUE_TRUE, v);
    case 'f':
      return scan_literal (s, p, "false", CHROME_VALUE_FALSE, v);
    case 'n':
      return scan_literal (s, p, "null", CHROME_VALUE_NULL, v);
    default:
      if (*p == '-' || g_ascii_isdigit (*p))
        return scan_number (s, p, v);
      return scan_fail (s, p, "unexpected character");
    }
}

/* Consumes the ',' between items or the closing bracket.  A comma right
 * before the closing bracket is tolerated. */
static G_ALWAYS_INLINE inline ChromeScanResult
scan_separator (ChromeScanner *s,
                gboolean first,
                char close,
                const char **out)
{
  const char *p = chrome_skip_ws (s->p, s->end);

  if (p == s->end)
    return CHROME_SCAN_INCOMPLETE;
  if (*p == close)
    {
      s->p = p + 1;
      return CHROME_SCAN_END;
    }
  if (!first)
    {
      if (*p != ',')
        return scan_fail (s, p, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
      p = chrome_skip_ws (p + 1, s->end);
      if (p == s->end)
        return CHROME_SCAN_INCOMPLETE;
      if (*p == close)
        {
          s->p = p + 1;
          return CHROME_SCAN_END;
        }
    }
  *out = p;
  return CHROME_SCAN_OK;
}

/* The usual, compact form of a member, `,"key":value` (`"key":value`
 * for the first), takes two tests instead of the whitespace skips and
 * end checks of the general path (four skips a member were 6 % of a JSON
 * conversion); anything else goes the general way, which it matches. */
static G_ALWAYS_INLINE inline ChromeScanResult
scan_member (ChromeScanner *s,
             gboolean *first,
             ChromeValue *key)
{
  const char *p = s->p;
  ChromeScanResult res;

  if (!*first && G_LIKELY (s->end - p >= 2 && p[0] == ',' && p[1] == '"'))
    p++;
  else if (!(*first && s->end - p >= 1 && p[0] == '"'))
    {
      res = scan_separator (s, *first, '}', &p);
      if (res != CHROME_SCAN_OK)
        return res;
    }
  s->p = p;
  res = scan_string_at (s, p, key);
  if (res != CHROME_SCAN_OK)
    return res == CHROME_SCAN_ERROR ? scan_fail (s, p, "expected a key string") : res;
  p = s->p;
  /* whitespace is at most ' ' */
  if (G_LIKELY (s->end - p >= 2 && p[0] == ':' && (guchar) p[1] > ' '))
    p++;
  else
    {
      p = chrome_skip_ws (p, s->end);
      if (p == s->end)
        return CHROME_SCAN_INCOMPLETE;
      if (*p != ':')
        return scan_fail (s, p, "expected ':'");
      p = chrome_skip_ws (p + 1, s->end);
      if (p == s->end)
        return CHROME_SCAN_INCOMPLETE;
    }
  s->p = p;
  *first = FALSE;
  return CHROME_SCAN_OK;
}
