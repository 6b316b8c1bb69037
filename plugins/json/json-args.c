/* tracepipe - json plugin: an event's args object as flat TraceArgs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Nested objects and arrays become dotted keys ("a.b", "a[0]"), as the
 * event model and perfetto's args table do.  null values and empty
 * containers are kept as value-less args (TRACE_ARG_NULL, _EMPTY_ARRAY,
 * _EMPTY_OBJECT) so that json-sink writes the args object back as it
 * was: array indices after them do not shift.  At most
 * CHROME_MAX_ARGS args are kept per event.
 */
#include "config.h"

#include "json-reader-private.h"
#include "json-scan-inline.h"

/* ------------------------------------------------------------------ */
/* Args: nested objects and arrays flattened to dotted keys            */

static ChromeScanResult parse_arg_value (ChromeReader *r, TraceEvent *ev, ChromeScanner *s, int depth);

static gboolean
add_number_arg (ChromeReader *r,
                TraceEvent *ev,
                guint32 key,
                const ChromeValue *v)
{
  gint64 i;
  guint64 u;
  double d;

  if (chrome_decimal_is_integer (v->start, v->end))
    {
      if (chrome_decimal_to_int64 (v->start, v->end, &i))
        {
          trace_batch_add_arg (r->batch, ev, key, TRACE_ARG_INT)->v.i = i;
          return TRUE;
        }
      if (*v->start != '-' && chrome_decimal_to_uint64 (v->start, v->end, &u))
        {
          trace_batch_add_arg (r->batch, ev, key, TRACE_ARG_UINT)->v.u = u;
          return TRUE;
        }
    }
  if (!chrome_decimal_to_double (v->start, v->end, &d))
    return FALSE;
  trace_batch_add_arg (r->batch, ev, key, TRACE_ARG_DOUBLE)->v.d = d;
  return TRUE;
}

/* Whether @ev may take one more arg; past the limit, the arg is dropped
 * and counted. */
static gboolean
arg_fits (ChromeReader *r,
          TraceEvent *ev)
{
  if (ev->n_args < CHROME_MAX_ARGS)
    return TRUE;
  r->args_dropped = TRUE;
  return FALSE;
}

static guint32
current_key (ChromeReader *r)
{
  return chrome_reader_intern (r, r->key_buf->str, r->key_buf->len);
}

/* A value-less arg at the current key; FALSE past the limit. */
static gboolean
add_shape_arg (ChromeReader *r,
               TraceEvent *ev,
               TraceArgType type)
{
  if (!arg_fits (r, ev))
    return FALSE;
  trace_batch_add_arg (r->batch, ev, current_key (r), type);
  return TRUE;
}

static gboolean
add_scalar_arg (ChromeReader *r,
                TraceEvent *ev,
                const ChromeValue *v)
{
  guint32 key;

  if (v->type == CHROME_VALUE_NULL)
    {
      add_shape_arg (r, ev, TRACE_ARG_NULL);
      return TRUE;
    }
  if (!arg_fits (r, ev))
    return TRUE;
  key = current_key (r);
  switch (v->type)
    {
    case CHROME_VALUE_STRING:
      {
        gsize len;
        const char *p = chrome_string_decode (v, r->scratch, &len);

        chrome_reader_add_string_arg (r, ev, key, p, len);
        return TRUE;
      }
    case CHROME_VALUE_NUMBER:
      return add_number_arg (r, ev, key, v);
    case CHROME_VALUE_TRUE:
    case CHROME_VALUE_FALSE:
      trace_batch_add_arg (r->batch, ev, key, TRACE_ARG_BOOL)->v.b = v->type == CHROME_VALUE_TRUE;
      return TRUE;
    default:
      return FALSE;
    }
}

/* Appends `.key` (or `key` at the top), in place when it fits: a
 * g_string_append_len() call per key showed in the profile. */
static inline void
append_key (GString *buf,
            gboolean dot,
            const char *k,
            gsize len)
{
  if (G_LIKELY (buf->len + len + 1 < buf->allocated_len))
    {
      char *end = buf->str + buf->len;

      if (dot)
        *end++ = '.';
      memcpy (end, k, len);
      end[len] = '\0';
      buf->len += len + (dot ? 1 : 0);
      return;
    }
  if (dot)
    g_string_append_c (buf, '.');
  g_string_append_len (buf, k, len);
}

/* g_string_truncate() in place: a call per arg showed in the profile. */
static inline void
truncate_key (GString *buf,
              gsize len)
{
  buf->len = len;
  buf->str[len] = '\0';
}

static ChromeScanResult
parse_arg_object (ChromeReader *r,
                  TraceEvent *ev,
                  ChromeScanner *s,
                  int depth)
{
  gsize prefix = r->key_buf->len;
  gboolean first = TRUE;
  ChromeValue key;
  ChromeScanResult res;

  if (depth > CHROME_SCAN_MAX_DEPTH)
    return CHROME_SCAN_TOO_DEEP;
  res = chrome_scan_enter (s, '{');
  if (res != CHROME_SCAN_OK)
    return res;
  while ((res = scan_member (s, &first, &key)) == CHROME_SCAN_OK)
    {
      gsize len;
      const char *k = chrome_string_decode (&key, r->scratch, &len);

      append_key (r->key_buf, prefix > 0, k, len);
      res = parse_arg_value (r, ev, s, depth);
      truncate_key (r->key_buf, prefix);
      if (res != CHROME_SCAN_OK)
        return res;
    }
  /* (the args object itself, when empty, is no arg) */
  if (res == CHROME_SCAN_END && first && prefix > 0)
    add_shape_arg (r, ev, TRACE_ARG_EMPTY_OBJECT);
  return res == CHROME_SCAN_END ? CHROME_SCAN_OK : res;
}

/* "[index]", without printf: arrays of numbers are common in args. */
static void
append_index (GString *key,
              guint index)
{
  char digits[16];
  int n = 0;

  do
    digits[n++] = '0' + index % 10;
  while ((index /= 10) != 0);
  g_string_append_c (key, '[');
  while (n > 0)
    g_string_append_c (key, digits[--n]);
  g_string_append_c (key, ']');
}

static ChromeScanResult
parse_arg_array (ChromeReader *r,
                 TraceEvent *ev,
                 ChromeScanner *s,
                 int depth)
{
  gsize prefix = r->key_buf->len;
  gboolean first = TRUE;
  guint index = 0;
  ChromeScanResult res;

  if (depth > CHROME_SCAN_MAX_DEPTH)
    return CHROME_SCAN_TOO_DEEP;
  res = chrome_scan_enter (s, '[');
  if (res != CHROME_SCAN_OK)
    return res;
  while ((res = chrome_scan_element (s, &first)) == CHROME_SCAN_OK)
    {
      append_index (r->key_buf, index++);
      res = parse_arg_value (r, ev, s, depth);
      truncate_key (r->key_buf, prefix);
      if (res != CHROME_SCAN_OK)
        return res;
    }
  if (res == CHROME_SCAN_END && index == 0)
    add_shape_arg (r, ev, TRACE_ARG_EMPTY_ARRAY);
  return res == CHROME_SCAN_END ? CHROME_SCAN_OK : res;
}

/* A value held by a container at @depth. */
static ChromeScanResult
parse_arg_value (ChromeReader *r,
                 TraceEvent *ev,
                 ChromeScanner *s,
                 int depth)
{
  const char *p = chrome_skip_ws (s->p, s->end);
  ChromeValue v;
  ChromeScanResult res;
  gint64 i;

  s->p = p;
  if (p < s->end && *p == '{')
    return parse_arg_object (r, ev, s, depth + 1);
  if (p < s->end && *p == '[')
    return parse_arg_array (r, ev, s, depth + 1);
  /* A plain integer (`"seq":5004`, most numbers of a trace's args) is
   * converted as it is scanned, as an event's own ts and pid are: the
   * value add_number_arg() gives its text, in one pass instead of three
   * (scan, integer test, conversion). */
  if (p < s->end && chrome_is_digit (*p) && scan_plain_number (s, 0, &v, &i))
    {
      if (arg_fits (r, ev))
        trace_batch_add_arg (r->batch, ev, current_key (r), TRACE_ARG_INT)->v.i = i;
      return CHROME_SCAN_OK;
    }
  res = scan_value (s, &v, depth);
  if (res != CHROME_SCAN_OK)
    return res;
  return add_scalar_arg (r, ev, &v) ? CHROME_SCAN_OK : CHROME_SCAN_ERROR;
}

/* Adds the event's args.  A non-object "args" is ignored. */
int
chrome_reader_add_args (ChromeReader *r,
                        TraceEvent *ev,
                        const ChromeEventFields *f,
                        int depth,
                        guint64 offset)
{
  ChromeScanner s;

  if (f->args.type != CHROME_VALUE_OBJECT)
    return CONV_OK;
  chrome_scanner_init (&s, f->args.start, f->args.end);
  g_string_truncate (r->key_buf, 0);
  r->args_dropped = FALSE;
  if (parse_arg_object (r, ev, &s, depth + 1) != CHROME_SCAN_OK)
    return CHROME_SKIP_MALFORMED;
  if (r->args_dropped)
    chrome_reader_skip (r, CHROME_SKIP_ARGS_DROPPED, offset);
  return CONV_OK;
}
