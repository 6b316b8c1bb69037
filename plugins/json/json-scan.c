/* tracepipe - json plugin: an in-place pull scanner over a JSON buffer
 *
 * Values are returned as slices of the buffer, decoded only when a
 * caller wants them (strings: chrome_string_decode(); numbers:
 * json-number.c). An event's own members are found by
 * json-event-fields.c, with the member and value scanners of
 * json-scan-inline.h inlined into its loop (as into the args parser's).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "json-common.h"
#include "json-scan-inline.h"

ChromeScanResult
chrome_scan_string (ChromeScanner *s,
                    ChromeValue *v)
{
  return scan_string_at (s, chrome_skip_ws (s->p, s->end), v);
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
  return scan_value (s, v, depth);
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
  return scan_member (s, first, key);
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
 * chrome_string_decode_copy:
 *
 * chrome_string_decode() of a string that is not known to be clean:
 * validated, and decoded into @scratch when it has escapes or bytes that
 * are not UTF-8.
 */
const char *
chrome_string_decode_copy (const ChromeValue *v,
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
