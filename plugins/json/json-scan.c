/* tracepipe - json plugin: an in-place pull scanner over a JSON buffer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

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

/* Finds the closing quote of a string whose text starts at @p.  Returns
 * NULL when the buffer ends first.  Sets *escaped if a backslash occurs. */
static const char *
find_string_end (const char *p,
                 const char *end,
                 gboolean *escaped)
{
  const char *start = p;

  for (;;)
    {
      const char *q = memchr (p, '"', end - p);
      const char *b;

      if (q == NULL)
        return NULL;
      b = q;
      while (b > start && b[-1] == '\\')
        b--;
      if (b != q)
        *escaped = TRUE;
      /* An even number of backslashes escape each other, not the quote. */
      if (((q - b) & 1) == 0)
        {
          if (!*escaped && memchr (start, '\\', q - start) != NULL)
            *escaped = TRUE;
          return q;
        }
      p = q + 1;
    }
}

ChromeScanResult
chrome_scan_string (ChromeScanner *s,
                    ChromeValue *v)
{
  const char *p = chrome_skip_ws (s->p, s->end);
  const char *q;
  gboolean escaped = FALSE;

  if (p == s->end)
    return CHROME_SCAN_INCOMPLETE;
  if (*p != '"')
    return scan_fail (s, p, "expected a string");
  q = find_string_end (p + 1, s->end, &escaped);
  if (q == NULL)
    return CHROME_SCAN_INCOMPLETE;
  v->type = CHROME_VALUE_STRING;
  v->start = p + 1;
  v->end = q;
  v->escaped = escaped;
  s->p = q + 1;
  return CHROME_SCAN_OK;
}

/* Skips an object or array starting at @p without validating its inside
 * beyond bracket depth: the values we skip are never interpreted. */
static ChromeScanResult
skip_container (ChromeScanner *s,
                const char *p,
                int depth)
{
  const char *end = s->end;
  int d = 0;

  while (p < end)
    {
      char c = *p;

      if (c == '"')
        {
          gboolean escaped = FALSE;
          const char *q = find_string_end (p + 1, end, &escaped);

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
  s->p = p + len;
  return CHROME_SCAN_OK;
}

static ChromeScanResult
scan_number (ChromeScanner *s,
             const char *p,
             ChromeValue *v)
{
  const char *q = p;

  while (q < s->end && (g_ascii_isdigit (*q) || *q == '-' || *q == '+' ||
                        *q == '.' || *q == 'e' || *q == 'E'))
    q++;
  /* A number is only known to be complete when something follows it. */
  if (q == s->end)
    return CHROME_SCAN_INCOMPLETE;
  v->type = CHROME_VALUE_NUMBER;
  v->start = p;
  v->end = q;
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
      return chrome_scan_string (s, v);
    case '{':
    case '[':
      res = skip_container (s, p, depth);
      if (res == CHROME_SCAN_OK)
        {
          v->type = *p == '{' ? CHROME_VALUE_OBJECT : CHROME_VALUE_ARRAY;
          v->start = p;
          v->end = s->p;
          v->escaped = FALSE;
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
static ChromeScanResult
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
  res = chrome_scan_string (s, key);
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

/* Parses a JSON number into mantissa and decimal exponent. */
static gboolean
decimal_split (const char *p,
               const char *end,
               gboolean *neg,
               guint64 *mant,
               int *exp10)
{
  gboolean any = FALSE;

  *neg = FALSE;
  *mant = 0;
  *exp10 = 0;
  if (p < end && *p == '-')
    {
      *neg = TRUE;
      p++;
    }
  for (; p < end && g_ascii_isdigit (*p); p++, any = TRUE)
    {
      if (fits_digit (*mant, *p))
        *mant = *mant * 10 + (*p - '0');
      else
        (*exp10)++;
    }
  if (!any)
    return FALSE;
  if (p < end && *p == '.')
    {
      if (++p == end || !g_ascii_isdigit (*p))
        return FALSE;
      for (; p < end && g_ascii_isdigit (*p); p++)
        {
          if (fits_digit (*mant, *p))
            {
              *mant = *mant * 10 + (*p - '0');
              (*exp10)--;
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
      if (p == end || !g_ascii_isdigit (*p))
        return FALSE;
      for (; p < end && g_ascii_isdigit (*p); p++)
        e = MIN (e * 10 + (*p - '0'), 100000);
      *exp10 += eneg ? -e : e;
    }
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

/**
 * chrome_decimal_to_double:
 *
 * Converts the number text with g_ascii_strtod() (correctly rounded,
 * locale independent).
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
