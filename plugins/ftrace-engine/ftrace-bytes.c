/* tracepipe - ftrace parser: helpers on byte ranges (not nul-terminated)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "ftrace-fields-inline.h"

/* A whole decimal integer, optionally signed. */
gboolean
ftrace_parse_int (const char *s,
                  gsize len,
                  gint64 *out)
{
  gboolean neg = FALSE;
  guint64 v = 0;
  gsize i = 0;

  if (len > 0 && (s[0] == '-' || s[0] == '+'))
    {
      neg = s[0] == '-';
      i++;
    }
  if (i == len || len - i > 19)
    return FALSE;
  for (; i < len; i++)
    {
      if (!ftrace_is_digit (s[i]))
        return FALSE;
      v = v * 10 + (guint64) (s[i] - '0');
    }
  if (v > (guint64) G_MAXINT64)
    return FALSE;
  *out = neg ? -(gint64) v : (gint64) v;
  return TRUE;
}

/* The integer at the start of @s, ignoring what follows it; for the typed
 * fields of kernel events, where a stray character (`target_cpu=001)` in a
 * real OpenHarmony dump) should not lose the record. */
gboolean
ftrace_parse_int_prefix (const char *s,
                         gsize len,
                         gint64 *out)
{
  const char *end = s + len, *p = s;
  gboolean neg = FALSE;
  gint64 v = 0;

  if (p < end && (*p == '-' || *p == '+'))
    neg = *p++ == '-';
  if (p == end || !ftrace_is_digit (*p))
    return FALSE;
  for (; p < end && ftrace_is_digit (*p); p++)
    {
      if (v > (G_MAXINT64 - 9) / 10)
        return FALSE;
      v = v * 10 + (*p - '0');
    }
  *out = neg ? -v : v;
  return TRUE;
}

/* Hex digits, with or without 0x. */
gboolean
ftrace_parse_hex (const char *s,
                  gsize len,
                  guint64 *out)
{
  guint64 v = 0;
  gsize i = 0;

  if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    i = 2;
  if (i == len || len - i > 16)
    return FALSE;
  for (; i < len; i++)
    {
      int d = g_ascii_xdigit_value (s[i]);

      if (d < 0)
        return FALSE;
      v = (v << 4) | (guint64) d;
    }
  *out = v;
  return TRUE;
}

/* `sec[.frac]` to nanoseconds; digits past the ninth decimal are dropped
 * (ftrace never prints more), fewer are scaled up. */
gboolean
ftrace_parse_seconds (const char *s,
                      gsize len,
                      gint64 *ns)
{
  static const gint64 scale[10] = { 1000000000, 100000000, 10000000, 1000000, 100000,
                                    10000, 1000, 100, 10, 1 };
  gint64 sec = 0, frac = 0;
  gsize i = 0, nfrac = 0;
  gboolean neg = FALSE;

  if (len > 0 && s[0] == '-')
    neg = TRUE, i++;
  if (i == len || !ftrace_is_digit (s[i]))
    return FALSE;
  for (; i < len && ftrace_is_digit (s[i]); i++)
    {
      if (sec > G_MAXINT64 / 10 / 1000000000)
        return FALSE;
      sec = sec * 10 + (s[i] - '0');
    }
  if (i < len && s[i] == '.')
    {
      for (i++; i < len && ftrace_is_digit (s[i]); i++, nfrac++)
        if (nfrac < 9)
          frac = frac * 10 + (s[i] - '0');
    }
  if (i != len)
    return FALSE;
  *ns = sec * 1000000000 + frac * scale[MIN (nfrac, 9)];
  if (neg)
    *ns = -*ns;
  return TRUE;
}

guint64
ftrace_hash_bytes (const char *s,
                   gsize len)
{
  guint64 h = 0x9e3779b97f4a7c15ull ^ len;

  while (len >= 8)
    {
      guint64 w;

      memcpy (&w, s, 8);
      h = (h ^ w) * 0xff51afd7ed558ccdull;
      h ^= h >> 32;
      s += 8;
      len -= 8;
    }
  if (len > 0)
    {
      guint64 w = 0;

      memcpy (&w, s, len);
      h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
      h ^= h >> 29;
    }
  return h;
}

/* Splits `positional key=value key=value ...`. Text before the first key
 * (`clock_set_rate: video_clk state=1`, `[FAILED TO PARSE] x=1`) is the
 * positional part. Returns the number of fields; extra fields past
 * @max_fields are merged into the last value. */
guint
ftrace_split_fields (const char *s,
                     gsize len,
                     FtraceField *fields,
                     guint max_fields,
                     const char **positional,
                     gsize *positional_len)
{
  const char *end = s + len, *p = s;
  guint n = 0;
  gsize klen;

  *positional = NULL;
  *positional_len = 0;
  /* find the first key: at the start or after a space */
  for (;;)
    {
      if (p < end && key_length_at (p, end) > 0)
        break;
      p = memchr (p, ' ', end - p);
      if (p == NULL)
        {
          p = end;
          break;
        }
      while (p < end && *p == ' ')
        p++;
    }
  if (p > s)
    {
      const char *pos = s;
      gsize pos_len = p - s;

      ftrace_trim (&pos, &pos_len);
      *positional = pos;
      *positional_len = pos_len;
    }
  klen = p < end ? key_length_at (p, end) : 0;
  while (klen > 0 && n < max_fields)
    {
      const char *v = p + klen + 1, *ve, *next;
      gsize next_klen = 0;

      if (n + 1 == max_fields)
        ve = next = end;
      else
        ve = ftrace_value_end (v, end, NULL, 0, &next, &next_klen);
      fields[n].key = p;
      fields[n].key_len = klen;
      fields[n].value = v;
      fields[n].value_len = ve - v;
      n++;
      p = ftrace_skip_arrow (next, end);
      if (p != next)
        klen = p < end ? key_length_at (p, end) : 0;
      else
        klen = next_klen;
    }
  return n;
}

/* `7778999 [ns]` -> `7778999`: the unit trace-cmd appends. */
void
ftrace_strip_unit (const char **value,
                   gsize *len)
{
  const char *v = *value;
  gsize n = *len;
  gsize i;

  if (n < 4 || v[n - 1] != ']')
    return;
  for (i = n - 2; i > 0 && g_ascii_isalpha (v[i]); i--)
    ;
  if (v[i] != '[' || i == n - 2 || i < 2 || v[i - 1] != ' ')
    return;
  n = i - 1;
  while (n > 0 && v[n - 1] == ' ')
    n--;
  *len = n;
}

/* trace-cmd shows the print event as `print: tracing_mark_write: B|...`
 * or `print: 0xffffffff81234567s: B|...` (the caller's address). */
void
ftrace_skip_caller (const char **s,
                    gsize *len)
{
  const char *p = *s, *colon;
  gsize n = *len, i;

  if (FTRACE_HAS_PREFIX (p, n, "tracing_mark_write:"))
    {
      p += 19, n -= 19;
      ftrace_trim (&p, &n);
      *s = p, *len = n;
      return;
    }
  /* an address: at least 8 hex digits, so `B|...` or a word is kept */
  colon = memchr (p, ':', MIN (n, 24));
  if (colon == NULL || colon - p < 8)
    return;
  for (i = 0; p + i < colon; i++)
    if (!g_ascii_isxdigit (p[i]) && !(i == 1 && p[i] == 'x') && !(p + i + 1 == colon && p[i] == 's'))
      return;
  n -= colon + 1 - p;
  p = colon + 1;
  ftrace_trim (&p, &n);
  *s = p, *len = n;
}
