/* tracepipe - json plugin: JSON numbers to integers and doubles, exactly
 *
 * Timestamps in microseconds become nanoseconds without the error of a
 * double; ids and counters keep every digit. The common cases (plain
 * integers, short decimals) are read here in one pass; anything else
 * goes through the general split into mantissa and exponent, or strtod.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "json-number-inline.h"
#include "json-common.h"

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

      if (!chrome_read_8_digits (p, &eight))
        break;
      m = m * 100000000 + eight;
    }
  for (; p < end && chrome_is_digit (*p); p++)
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
      if (++p == end || !chrome_is_digit (*p))
        return FALSE;
      for (; end - p >= 8 && m < ROOM_FOR_8_DIGITS; p += 8, x -= 8)
        {
          guint64 eight;

          if (!chrome_read_8_digits (p, &eight))
            break;
          m = m * 100000000 + eight;
        }
      for (; p < end && chrome_is_digit (*p); p++)
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
      if (p == end || !chrome_is_digit (*p))
        return FALSE;
      for (; p < end && chrome_is_digit (*p); p++)
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

/* The common cases: a plain integer (pids, tids, microseconds), or a
 * decimal with at most @scale fraction digits (microseconds with their
 * nanoseconds, as exporters write them), whose integer digits and @scale
 * make at most 18 digits: exact, nothing to round, no overflow. FALSE,
 * with nothing set, for anything else (the general path decides). */
static inline gboolean
small_decimal (const char *p,
               const char *end,
               int scale,
               gint64 *out)
{
  gboolean neg = p < end && *p == '-';
  const char *digits;
  guint64 m = 0;
  int nfrac = 0;

  p += neg;
  digits = p;
  /* timestamps in µs have 10 to 16 digits: the first eight at once */
  if (end - p >= 8 && chrome_read_8_digits (p, &m))
    p += 8;
  for (; p < end && chrome_is_digit (*p); p++)
    m = m * 10 + (guint64) (*p - '0');
  if (p == digits || (p - digits) + scale > 18)
    return FALSE;
  if (p < end)
    {
      if (*p != '.')
        return FALSE;
      for (p++; p < end && chrome_is_digit (*p) && nfrac < scale; p++, nfrac++)
        m = m * 10 + (guint64) (*p - '0');
      if (p != end || nfrac == 0)
        return FALSE;
    }
  m *= pow10_table[scale - nfrac];
  *out = neg ? -(gint64) m : (gint64) m;
  return TRUE;
}

/* The general path: any JSON number, rounded or truncated to @scale. */
static G_GNUC_NO_INLINE gboolean
decimal_to_int64 (const char *p,
                  const char *end,
                  int scale,
                  gboolean truncate,
                  gint64 *out)
{
  gboolean neg;
  guint64 mant, mag;
  int exp10;

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
  if (scale >= 0 && small_decimal (p, end, scale, out))
    return TRUE;
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
  gint64 v = 0;

  /* Most are plain integers of a few digits (every event's pid and tid):
   * one loop, before small_decimal()'s checks for signs, fractions and
   * long runs of digits (~90 instructions a call were 4 % of a JSON
   * conversion). */
  if (p < end && end - p <= 9)
    {
      const char *q = p;

      while (q < end && chrome_is_digit (*q))
        v = v * 10 + (*q++ - '0');
      if (q == end)
        {
          *out = v;
          return TRUE;
        }
    }
  return small_decimal (p, end, 0, out) || decimal_to_int64 (p, end, 0, TRUE, out);
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
 * chrome_strtod_len:
 * @used: (out): how many bytes of the text g_ascii_strtod() read
 *
 * g_ascii_strtod() over the text [p, p + len), which is not
 * NUL-terminated (a copy on the stack, or the heap past 63 bytes).
 */
double
chrome_strtod_len (const char *p,
                   gsize len,
                   gsize *used)
{
  char stack_buf[64];
  g_autofree char *heap_buf = NULL;
  char *text, *stop;
  double d;

  if (len < sizeof stack_buf)
    {
      memcpy (stack_buf, p, len);
      stack_buf[len] = '\0';
      text = stack_buf;
    }
  else
    text = heap_buf = g_strndup (p, len);
  d = g_ascii_strtod (text, &stop);
  *used = stop - text;
  return d;
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
  gsize len = end - p, used;

  if (len == 0)
    return FALSE;
  if (FAST_DOUBLE && fast_decimal_to_double (p, end, out))
    return TRUE;
  /* strtod accepts more than JSON ("inf", hex, leading space): refuse
   * anything that does not start like a JSON number. */
  if (!(g_ascii_isdigit (p[0]) || (p[0] == '-' && len > 1 && g_ascii_isdigit (p[1]))))
    return FALSE;
  *out = chrome_strtod_len (p, len, &used);
  return used == len;
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
