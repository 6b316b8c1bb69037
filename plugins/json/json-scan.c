/* tracepipe - json plugin: an in-place pull scanner over a JSON buffer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "json-private.h"

static ChromeScanResult
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

ChromeScanResult
chrome_scan_string (ChromeScanner *s,
                    ChromeValue *v)
{
  return scan_string_at (s, chrome_skip_ws (s->p, s->end), v);
}

/* Skips an object or array starting at @p without validating its inside
 * beyond bracket depth: the values we skip are never interpreted. */
static ChromeScanResult
skip_container (ChromeScanner *s,
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

static ChromeScanResult
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

static ChromeScanResult
scan_number (ChromeScanner *s,
             const char *p,
             ChromeValue *v)
{
  static const guint8 number_char[256] = {
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
  const char *q = p;

  while (q < s->end && number_char[(guchar) *q])
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

/**
 * chrome_scan_value:
 * @depth: the depth of the container holding the value
 *
 * Scans one value of any type; containers are skipped whole.
 */
ChromeScanResult
chrome_scan_value (ChromeScanner *s,
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
      res = skip_container (s, p, depth);
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

/**
 * chrome_scan_enter:
 * @open: '{' or '['
 *
 * Consumes the opening bracket of a container.
 */
ChromeScanResult
chrome_scan_enter (ChromeScanner *s,
                   char open)
{
  const char *p = chrome_skip_ws (s->p, s->end);

  if (p == s->end)
    return CHROME_SCAN_INCOMPLETE;
  if (*p != open)
    return scan_fail (s, p, open == '{' ? "expected an object" : "expected an array");
  s->p = p + 1;
  return CHROME_SCAN_OK;
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

/**
 * chrome_scan_member:
 * @first: (inout): TRUE before the first member; cleared on success
 * @key: (out): the member's key
 *
 * Advances to the next member of an object: on %CHROME_SCAN_OK the scanner
 * stands at the member's value.  %CHROME_SCAN_END when the object closes.
 * On INCOMPLETE or ERROR the scanner position is unspecified: callers
 * scan again from a position they saved.
 */
ChromeScanResult
chrome_scan_member (ChromeScanner *s,
                    gboolean *first,
                    ChromeValue *key)
{
  const char *p = NULL;
  ChromeScanResult res = scan_separator (s, *first, '}', &p);

  if (res != CHROME_SCAN_OK)
    return res;
  s->p = p;
  res = scan_string_at (s, p, key);
  if (res != CHROME_SCAN_OK)
    return res == CHROME_SCAN_ERROR ? scan_fail (s, p, "expected a key string") : res;
  p = chrome_skip_ws (s->p, s->end);
  if (p == s->end)
    return CHROME_SCAN_INCOMPLETE;
  if (*p != ':')
    return scan_fail (s, p, "expected ':'");
  p = chrome_skip_ws (p + 1, s->end);
  if (p == s->end)
    return CHROME_SCAN_INCOMPLETE;
  s->p = p;
  *first = FALSE;
  return CHROME_SCAN_OK;
}

/**
 * chrome_scan_element:
 * @first: (inout): TRUE before the first element; cleared on success
 *
 * Advances to the next element of an array: on %CHROME_SCAN_OK the scanner
 * stands at the element.  %CHROME_SCAN_END when the array closes.
 */
ChromeScanResult
chrome_scan_element (ChromeScanner *s,
                     gboolean *first)
{
  const char *p = NULL;
  ChromeScanResult res = scan_separator (s, *first, ']', &p);

  if (res != CHROME_SCAN_OK)
    return res;
  s->p = p;
  *first = FALSE;
  return CHROME_SCAN_OK;
}

/**
 * chrome_value_is:
 *
 * Returns: whether @v is a string equal to @literal (escapes are not
 *   decoded: keys we compare against never need them)
 */
gboolean
chrome_value_is (const ChromeValue *v,
                 const char *literal)
{
  gsize len = strlen (literal);

  return v->type == CHROME_VALUE_STRING && (gsize) (v->end - v->start) == len &&
         memcmp (v->start, literal, len) == 0;
}

/**
 * chrome_utf8_repair_append:
 *
 * Appends @p, replacing each byte that is not part of valid UTF-8 (and
 * each NUL) by U+FFFD, so no consumer ever sees broken text.
 */
void
chrome_utf8_repair_append (GString *out,
                           const char *p,
                           gsize len)
{
  const char *end = p + len;

  while (p < end)
    {
      const char *valid_end;

      g_utf8_validate_len (p, end - p, &valid_end);
      g_string_append_len (out, p, valid_end - p);
      if (valid_end == end)
        break;
      g_string_append_len (out, "\xEF\xBF\xBD", 3);
      p = valid_end + 1;
    }
}

static int
hex_digit (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Reads the 4 hex digits after "\u" at @p; -1 if they are not there. */
static int
read_u_escape (const char *p,
               const char *end)
{
  int cp = 0;

  if (end - p < 6 || p[0] != '\\' || p[1] != 'u')
    return -1;
  for (int i = 2; i < 6; i++)
    {
      int d = hex_digit (p[i]);

      if (d < 0)
        return -1;
      cp = cp * 16 + d;
    }
  return cp;
}

/**
 * chrome_decode_escape:
 *
 * Decodes the escape at @p (a backslash) into @out.
 *
 * Returns: the position after the escape
 */
const char *
chrome_decode_escape (const char *p,
                      const char *end,
                      GString *out)
{
  static const char plain_from[] = "\"\\/bfnrt";
  static const char plain_to[] = "\"\\/\b\f\n\r\t";
  const char *hit;
  int cp;

  if (p + 1 >= end)
    {
      g_string_append_len (out, "\xEF\xBF\xBD", 3);
      return end;
    }
  hit = strchr (plain_from, p[1]);
  if (hit != NULL && p[1] != '\0')
    {
      g_string_append_c (out, plain_to[hit - plain_from]);
      return p + 2;
    }
  cp = read_u_escape (p, end);
  if (cp < 0)
    {
      /* Not a JSON escape: keep the character, drop the backslash. */
      chrome_utf8_repair_append (out, p + 1, 1);
      return p + 2;
    }
  p += 6;
  if (cp >= 0xD800 && cp <= 0xDBFF)
    {
      int low = read_u_escape (p, end);

      if (low >= 0xDC00 && low <= 0xDFFF)
        {
          g_string_append_unichar (out, 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00));
          return p + 6;
        }
      cp = 0xFFFD;
    }
  else if ((cp >= 0xDC00 && cp <= 0xDFFF) || cp == 0)
    cp = 0xFFFD;
  g_string_append_unichar (out, cp);
  return p;
}

/**
 * chrome_string_decode:
 * @v: a string value
 * @scratch: where a decoded copy goes when one is needed
 * @len: (out): the length of the result
 *
 * Returns: the string's text, unescaped and valid UTF-8: either a pointer
 *   into the buffer (no copy when nothing needs changing) or @scratch->str
 */
const char *
chrome_string_decode (const ChromeValue *v,
                      GString *scratch,
                      gsize *len)
{
  const char *p = v->start;
  const char *end = v->end;

  if (v->clean)
    {
      *len = end - p;
      return p;
    }
  if (!v->escaped)
    {
      const char *valid_end;

      if (g_utf8_validate_len (p, end - p, &valid_end))
        {
          *len = end - p;
          return p;
        }
      g_string_truncate (scratch, 0);
      chrome_utf8_repair_append (scratch, p, end - p);
      *len = scratch->len;
      return scratch->str;
    }
  g_string_truncate (scratch, 0);
  while (p < end)
    {
      const char *bs = memchr (p, '\\', end - p);

      if (bs == NULL)
        bs = end;
      chrome_utf8_repair_append (scratch, p, bs - p);
      if (bs == end)
        break;
      p = chrome_decode_escape (bs, end, scratch);
    }
  *len = scratch->len;
  return scratch->str;
}

static const guint64 pow10_table[20] = {
  1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
  100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
  1000000000000ull, 10000000000000ull, 100000000000000ull,
  1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
  1000000000000000000ull, 10000000000000000000ull
};

/* Whether mant * 10 + digit still fits in 64 bits. */
static inline gboolean
fits_digit (guint64 mant,
            char digit)
{
  return mant < G_MAXUINT64 / 10 ||
         (mant == G_MAXUINT64 / 10 && (guint64) (digit - '0') <= G_MAXUINT64 % 10);
}

static inline gboolean
is_digit (char c)
{
  return (guchar) (c - '0') < 10;
}

/* Eight digits at once (little-endian words): timestamps have 10 to 16
 * digits.  Returns FALSE, with nothing read, unless all 8 bytes at @p
 * are digits. */
static inline gboolean
read_8_digits (const char *p,
               guint64 *value)
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  guint64 w;

  memcpy (&w, p, 8);
  if (((w & G_GUINT64_CONSTANT (0xF0F0F0F0F0F0F0F0)) |
       (((w + G_GUINT64_CONSTANT (0x0606060606060606)) & G_GUINT64_CONSTANT (0xF0F0F0F0F0F0F0F0)) >> 4)) !=
      G_GUINT64_CONSTANT (0x3333333333333333))
    return FALSE;
  w -= G_GUINT64_CONSTANT (0x3030303030303030);
  w = w * 10 + (w >> 8); /* pairs of digits */
  w = ((w & G_GUINT64_CONSTANT (0x000000FF000000FF)) * G_GUINT64_CONSTANT (0x000F424000000064) +
       ((w >> 16) & G_GUINT64_CONSTANT (0x000000FF000000FF)) * G_GUINT64_CONSTANT (0x0000271000000001)) >>
      32;
  *value = (guint32) w;
  return TRUE;
#else
  return FALSE;
#endif
}

/* Below this, 8 more digits always fit, each on its own too (the
 * per-digit rule of fits_digit() never drops one of them). */
#define ROOM_FOR_8_DIGITS G_GUINT64_CONSTANT (10000000000)

/* Parses a JSON number into mantissa and decimal exponent.  (Locals, not
 * the out parameters, in the loops: a store through a pointer may alias
 * the text, which would make the compiler reload everything.) */
static gboolean
decimal_split (const char *p,
               const char *end,
               gboolean *neg,
               guint64 *mant,
               int *exp10)
{
  const char *digits;
  guint64 m = 0;
  int x = 0;

  *neg = p < end && *p == '-';
  p += *neg;
  for (digits = p; end - p >= 8 && m < ROOM_FOR_8_DIGITS; p += 8)
    {
      guint64 eight;

      if (!read_8_digits (p, &eight))
        break;
      m = m * 100000000 + eight;
    }
  for (; p < end && is_digit (*p); p++)
    {
      if (fits_digit (m, *p))
        m = m * 10 + (guint64) (*p - '0');
      else
        x++;
    }
  if (p == digits)
    return FALSE;
  if (p < end && *p == '.')
    {
      if (++p == end || !is_digit (*p))
        return FALSE;
      for (; end - p >= 8 && m < ROOM_FOR_8_DIGITS; p += 8, x -= 8)
        {
          guint64 eight;

          if (!read_8_digits (p, &eight))
            break;
          m = m * 100000000 + eight;
        }
      for (; p < end && is_digit (*p); p++)
        {
          if (fits_digit (m, *p))
            {
              m = m * 10 + (guint64) (*p - '0');
              x--;
            }
        }
    }
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean eneg = FALSE;
      int e = 0;

      p++;
      if (p < end && (*p == '+' || *p == '-'))
        eneg = *p++ == '-';
      if (p == end || !is_digit (*p))
        return FALSE;
      for (; p < end && is_digit (*p); p++)
        e = MIN (e * 10 + (*p - '0'), 100000);
      x += eneg ? -e : e;
    }
  *mant = m;
  *exp10 = x;
  return p == end;
}

/* mant * 10^exp10, rounded half away from zero or truncated. */
static gboolean
decimal_scale (guint64 mant,
               int exp10,
               gboolean truncate,
               guint64 *out)
{
  if (mant == 0)
    exp10 = 0;
  for (; exp10 > 0; exp10--)
    {
      if (mant > G_MAXUINT64 / 10)
        return FALSE;
      mant *= 10;
    }
  if (exp10 < 0)
    {
      int k = -exp10;

      if (k > 19)
        mant = 0; /* mant < 10^19, so less than half of 10^k */
      else
        {
          guint64 pw = pow10_table[k];
          guint64 r = mant % pw;

          mant /= pw;
          if (!truncate && r >= pw - r)
            mant++;
        }
    }
  *out = mant;
  return TRUE;
}

/* The common case, a plain integer (pids, tids, microseconds) whose
 * digits and @scale make at most 18 digits: nothing to round, no
 * overflow. FALSE, with nothing set, for anything else. */
static inline gboolean
small_integer (const char *p,
               const char *end,
               int scale,
               gint64 *out)
{
  gboolean neg = p < end && *p == '-';
  guint64 m = 0;

  p += neg;
  if (p == end || end - p + scale > 18)
    return FALSE;
  /* timestamps in µs have 10 to 16 digits: the first eight at once */
  if (end - p >= 8)
    {
      if (!read_8_digits (p, &m))
        return FALSE;
      p += 8;
    }
  for (; p < end; p++)
    {
      if (!is_digit (*p))
        return FALSE;
      m = m * 10 + (guint64) (*p - '0');
    }
  m *= pow10_table[scale];
  *out = neg ? -(gint64) m : (gint64) m;
  return TRUE;
}

static gboolean
decimal_to_int64 (const char *p,
                  const char *end,
                  int scale,
                  gboolean truncate,
                  gint64 *out)
{
  gboolean neg;
  guint64 mant, mag;
  int exp10;

  if (scale >= 0 && small_integer (p, end, scale, out))
    return TRUE;
  if (!decimal_split (p, end, &neg, &mant, &exp10) ||
      !decimal_scale (mant, exp10 + scale, truncate, &mag))
    return FALSE;
  if (mag > (guint64) G_MAXINT64 + (neg ? 1 : 0))
    return FALSE;
  *out = neg ? (gint64) (0 - mag) : (gint64) mag;
  return TRUE;
}

/**
 * chrome_decimal_to_scaled:
 * @scale: a power of ten to multiply by (3 turns µs into ns)
 *
 * Converts the number text [p, end) exactly, rounding the digits beyond
 * the scale half away from zero (what llround() does, without the error
 * of going through a double).
 */
gboolean
chrome_decimal_to_scaled (const char *p,
                          const char *end,
                          int scale,
                          gint64 *out)
{
  return decimal_to_int64 (p, end, scale, FALSE, out);
}

/**
 * chrome_decimal_to_int64:
 *
 * Converts the number text, truncating a fraction (as a C cast does).
 */
gboolean
chrome_decimal_to_int64 (const char *p,
                         const char *end,
                         gint64 *out)
{
  return decimal_to_int64 (p, end, 0, TRUE, out);
}

/**
 * chrome_decimal_to_uint64:
 *
 * Converts an integer that may exceed %G_MAXINT64; negative integers wrap
 * (as perfetto's asUInt64 of an id does).
 */
gboolean
chrome_decimal_to_uint64 (const char *p,
                          const char *end,
                          guint64 *out)
{
  gboolean neg;
  guint64 mant, mag;
  int exp10;

  if (!decimal_split (p, end, &neg, &mant, &exp10) ||
      !decimal_scale (mant, exp10, TRUE, &mag))
    return FALSE;
  *out = neg ? 0 - mag : mag;
  return TRUE;
}

#if defined(__FLT_EVAL_METHOD__) && __FLT_EVAL_METHOD__ == 0
#define FAST_DOUBLE 1
#else
#define FAST_DOUBLE 0 /* x87 double rounding: leave it all to strtod */
#endif

static const double exact_pow10[23] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/* Reads digits into *mant; returns the position after them. */
static inline const char *
read_digits (const char *p,
             const char *end,
             guint64 *mant,
             int *n)
{
  for (; p < end && (guchar) (*p - '0') < 10; p++, (*n)++)
    *mant = *mant * 10 + (guint64) (*p - '0');
  return p;
}

/* Clinger's fast path: when the digits make an integer of at most 2^53
 * and the power of ten is at most 22, both are exact doubles and one
 * IEEE multiplication or division rounds correctly, to the very double
 * strtod gives.  Only the strict JSON grammar is taken; FALSE for
 * anything else (then strtod decides). */
static gboolean
fast_decimal_to_double (const char *p,
                        const char *end,
                        double *out)
{
  gboolean neg = FALSE;
  guint64 mant = 0;
  int n_digits = 0, n_int, exp10 = 0;
  double d;

  if (p < end && *p == '-')
    {
      neg = TRUE;
      p++;
    }
  p = read_digits (p, end, &mant, &n_digits);
  if (n_digits == 0)
    return FALSE;
  n_int = n_digits;
  if (p < end && *p == '.')
    {
      p = read_digits (p + 1, end, &mant, &n_digits);
      if (n_digits == n_int)
        return FALSE;
      exp10 = n_int - n_digits;
    }
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean eneg = FALSE;
      int e = 0;

      p++;
      if (p < end && (*p == '+' || *p == '-'))
        eneg = *p++ == '-';
      if (p == end || (guchar) (*p - '0') >= 10)
        return FALSE;
      for (; p < end && (guchar) (*p - '0') < 10; p++)
        e = MIN (e * 10 + (*p - '0'), 100000);
      exp10 += eneg ? -e : e;
    }
  /* (more than 19 digits may have wrapped mant: refused before use) */
  if (p != end || n_digits > 19 || mant > G_GUINT64_CONSTANT (1) << 53 ||
      exp10 < -22 || exp10 > 22)
    return FALSE;
  d = (double) mant;
  d = exp10 < 0 ? d / exact_pow10[-exp10] : d * exact_pow10[exp10];
  *out = neg ? -d : d;
  return TRUE;
}

/**
 * chrome_decimal_to_double:
 *
 * Converts the number text: the common short forms exactly without
 * strtod, the rest with g_ascii_strtod() (correctly rounded, locale
 * independent); the results are the same (tests/unit/json).
 */
gboolean
chrome_decimal_to_double (const char *p,
                          const char *end,
                          double *out)
{
  char stack_buf[64];
  g_autofree char *heap_buf = NULL;
  gsize len = end - p;
  char *text, *stop;

  if (len == 0)
    return FALSE;
  if (FAST_DOUBLE && fast_decimal_to_double (p, end, out))
    return TRUE;
  if (len < sizeof stack_buf)
    {
      memcpy (stack_buf, p, len);
      stack_buf[len] = '\0';
      text = stack_buf;
    }
  else
    text = heap_buf = g_strndup (p, len);
  /* strtod accepts more than JSON ("inf", hex, leading space): refuse
   * anything that does not start like a JSON number. */
  if (!(g_ascii_isdigit (text[0]) || (text[0] == '-' && g_ascii_isdigit (text[1]))))
    return FALSE;
  *out = g_ascii_strtod (text, &stop);
  return *stop == '\0';
}

/**
 * chrome_decimal_is_integer:
 *
 * Returns: whether the number text has neither fraction nor exponent
 */
gboolean
chrome_decimal_is_integer (const char *p,
                           const char *end)
{
  for (; p < end; p++)
    if (*p == '.' || *p == 'e' || *p == 'E')
      return FALSE;
  return TRUE;
}

/**
 * chrome_hex_to_uint64:
 *
 * Parses 1 to 16 hex digits, with an optional "0x" prefix.
 */
gboolean
chrome_hex_to_uint64 (const char *p,
                      const char *end,
                      guint64 *out)
{
  guint64 v = 0;

  if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    p += 2;
  if (p == end || end - p > 16)
    return FALSE;
  for (; p < end; p++)
    {
      int d = hex_digit (*p);

      if (d < 0)
        return FALSE;
      v = (v << 4) | d;
    }
  *out = v;
  return TRUE;
}

static inline guint64
load64 (const char *p)
{
  guint64 w;

  memcpy (&w, p, 8);
  return w;
}

static inline guint64
load32 (const char *p)
{
  guint32 w;

  memcpy (&w, p, 4);
  return w;
}

/**
 * chrome_cache_hash:
 *
 * A hash for the reader's intern cache, read a word at a time (a byte at
 * a time cost a tenth of the reader's time).  Only where a string is
 * cached depends on it, never what it becomes.
 */
guint32
chrome_cache_hash (const char *p,
                   gsize len)
{
  const guint64 k = G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  guint64 h = len * k;

  if (len >= 8)
    {
      const char *last = p + len - 8;

      for (; p < last; p += 8)
        h = ((h ^ load64 (p)) * k) ^ (h >> 29);
      h = (h ^ load64 (last)) * k; /* overlaps the loop's last word */
    }
  else if (len >= 4)
    h = (h ^ (load32 (p) << 32 | load32 (p + len - 4))) * k;
  else if (len > 0)
    h = (h ^ ((guint64) (guchar) p[0] << 16 | (guint64) (guchar) p[len / 2] << 8 |
              (guchar) p[len - 1])) *
        k;
  h ^= h >> 32;
  h *= k;
  return (guint32) (h >> 32);
}

/**
 * chrome_hash64:
 *
 * FNV-1a: how ids that are neither numbers nor hex strings become numbers.
 */
guint64
chrome_hash64 (const char *p,
               gsize len)
{
  guint64 h = 14695981039346656037ull;

  for (gsize i = 0; i < len; i++)
    h = (h ^ (guchar) p[i]) * 1099511628211ull;
  return h;
}
