/* tracepipe - json plugin: exact number formatting and string escaping
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Numbers are written by integer arithmetic wherever the value is an
 * integer (timestamps, ids, pids): printf's %f would round, and locale
 * dependent decimal separators would break the JSON.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "json-common.h"

static void
append_escape (GString *out,
               guchar c)
{
  static const char hex[] = "0123456789abcdef";
  char u[6] = { '\\', 'u', '0', '0', 0, 0 };

  switch (c)
    {
    case '"':
      g_string_append_len (out, "\\\"", 2);
      return;
    case '\\':
      g_string_append_len (out, "\\\\", 2);
      return;
    case '\n':
      g_string_append_len (out, "\\n", 2);
      return;
    case '\r':
      g_string_append_len (out, "\\r", 2);
      return;
    case '\t':
      g_string_append_len (out, "\\t", 2);
      return;
    case '\b':
      g_string_append_len (out, "\\b", 2);
      return;
    case '\f':
      g_string_append_len (out, "\\f", 2);
      return;
    default:
      u[4] = hex[c >> 4];
      u[5] = hex[c & 15];
      g_string_append_len (out, u, 6);
    }
}

/**
 * chrome_fmt_string_body:
 *
 * Appends @s escaped for the inside of a JSON string, without quotes.
 * Control characters, quotes and backslashes are escaped; bytes that are
 * not valid UTF-8 become U+FFFD, so the output is always valid JSON text.
 */
void
chrome_fmt_string_body (GString *out,
                        const char *s,
                        gsize len)
{
  const char *p = s, *end = s + len, *run = s;

  while (p < end)
    {
      guchar c = *p;
      gunichar ch;

      if (G_LIKELY (c >= 0x20 && c < 0x80 && c != '"' && c != '\\'))
        {
          p++;
          continue;
        }
      g_string_append_len (out, run, p - run);
      if (c < 0x80)
        {
          append_escape (out, c);
          p++;
        }
      else if ((ch = g_utf8_get_char_validated (p, end - p)) == (gunichar) -1 ||
               ch == (gunichar) -2)
        {
          g_string_append_len (out, "\xEF\xBF\xBD", 3);
          p++;
        }
      else
        {
          int n = g_utf8_skip[c];

          g_string_append_len (out, p, n);
          p += n;
        }
      run = p;
    }
  g_string_append_len (out, run, p - run);
}

void
chrome_fmt_string (GString *out,
                   const char *s,
                   gsize len)
{
  g_string_append_c (out, '"');
  chrome_fmt_string_body (out, s, len);
  g_string_append_c (out, '"');
}

void
chrome_fmt_uint (GString *out,
                 guint64 v)
{
  char buf[24];
  char *p = buf + sizeof buf;

  do
    {
      *--p = '0' + v % 10;
      v /= 10;
    }
  while (v != 0);
  g_string_append_len (out, p, buf + sizeof buf - p);
}

void
chrome_fmt_int (GString *out,
                gint64 v)
{
  if (v < 0)
    {
      g_string_append_c (out, '-');
      chrome_fmt_uint (out, 0 - (guint64) v);
    }
  else
    chrome_fmt_uint (out, v);
}

/**
 * chrome_fmt_us:
 *
 * Writes nanoseconds as microseconds with the nanoseconds as a decimal
 * fraction (1234567 → 1234.567, 1000 → 1): exact, and read back exactly
 * by any parser that rounds to the nearest nanosecond.
 */
void
chrome_fmt_us (GString *out,
               gint64 ns)
{
  guint64 mag = ns < 0 ? 0 - (guint64) ns : (guint64) ns;
  guint frac = mag % 1000;
  char digits[4];
  int n = 3;

  if (ns < 0)
    g_string_append_c (out, '-');
  chrome_fmt_uint (out, mag / 1000);
  if (frac == 0)
    return;
  digits[0] = '0' + frac / 100;
  digits[1] = '0' + frac / 10 % 10;
  digits[2] = '0' + frac % 10;
  while (digits[n - 1] == '0')
    n--;
  g_string_append_c (out, '.');
  g_string_append_len (out, digits, n);
}

/**
 * chrome_fmt_double:
 *
 * Writes the shortest of %.15g, %.16g and %.17g that reads back to the
 * same double; integral values keep a ".0" so they read back as doubles.
 * JSON has no NaN or infinity: those are written as null.
 */
void
chrome_fmt_double (GString *out,
                   double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  static const char *const formats[] = { "%.15g", "%.16g", "%.17g" };

  if (!isfinite (v))
    {
      g_string_append_len (out, "null", 4);
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_ascii_formatd (buf, sizeof buf, formats[i], v);
      if (g_ascii_strtod (buf, NULL) == v)
        break;
    }
  g_string_append (out, buf);
  if (strpbrk (buf, ".eE") == NULL)
    g_string_append_len (out, ".0", 2);
}

/**
 * chrome_fmt_hex_id:
 *
 * Ids are written as "0x…" strings: exact for all 64 bits (a JSON number
 * above 2^53 is not, in JavaScript viewers) and what Chrome writes.
 */
void
chrome_fmt_hex_id (GString *out,
                   guint64 id)
{
  static const char hex[] = "0123456789abcdef";
  char buf[20];
  char *p = buf + sizeof buf;

  *--p = '"';
  do
    {
      *--p = hex[id & 15];
      id >>= 4;
    }
  while (id != 0);
  *--p = 'x';
  *--p = '0';
  *--p = '"';
  g_string_append_len (out, p, buf + sizeof buf - p);
}
