/* tracepipe - json plugin: writing an event's args object
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The event model flattens nested args to dotted keys ("data.frame",
 * "nodes[0].id").  By default they are nested again, so viewers that look
 * for args.data.frame (DevTools, Lighthouse) find it: consecutive keys
 * that share a prefix share the object or array.  A key that does not
 * split cleanly is written as it is.
 */
#include "config.h"

#include <string.h>

#include "json-writer-private.h"

#define MAX_PATH 32

typedef struct
{
  const char *s;
  gsize len;
  gboolean is_index;
} PathPart;

typedef struct
{
  PathPart part; /* the key (or index) that opened it */
  gboolean array;
  guint count; /* members written so far */
} OpenContainer;

void
chrome_writer_put_arg_value (ChromeWriter *w,
                             const TraceArg *arg)
{
  switch (arg->type)
    {
    case TRACE_ARG_INT:
      chrome_fmt_int (w->buf, arg->v.i);
      break;
    case TRACE_ARG_UINT:
      chrome_fmt_uint (w->buf, arg->v.u);
      break;
    case TRACE_ARG_DOUBLE:
      chrome_fmt_double (w->buf, arg->v.d);
      break;
    case TRACE_ARG_STRING:
      chrome_writer_put_string (w, arg->v.s);
      break;
    case TRACE_ARG_TEXT:
      chrome_fmt_string (w->buf, w->batch_text + arg->v.text.offset, arg->v.text.len);
      break;
    case TRACE_ARG_BOOL:
      g_string_append (w->buf, arg->v.b ? "true" : "false");
      break;
    case TRACE_ARG_POINTER:
      chrome_fmt_hex_id (w->buf, arg->v.u);
      break;
    case TRACE_ARG_EMPTY_ARRAY:
      g_string_append (w->buf, "[]");
      break;
    case TRACE_ARG_EMPTY_OBJECT:
      g_string_append (w->buf, "{}");
      break;
    default:
      g_string_append (w->buf, "null");
    }
}

/* "a.b[2].c" → a, b, [2], c.  Returns 0 when the key does not split
 * cleanly (empty parts, an index first, text after ']'). */
static guint
split_key (const char *key,
           gsize len,
           PathPart *parts)
{
  const char *p = key, *end = key + len;
  guint n = 0;

  while (p < end && n < MAX_PATH)
    {
      PathPart *part = &parts[n];

      if (*p == '[')
        {
          const char *q = ++p;

          while (q < end && g_ascii_isdigit (*q))
            q++;
          if (q == p || q == end || *q != ']' || n == 0)
            return 0;
          *part = (PathPart){ p, q - p, TRUE };
          p = q + 1;
        }
      else
        {
          const char *q = p;

          while (q < end && *q != '.' && *q != '[')
            q++;
          if (q == p)
            return 0;
          *part = (PathPart){ p, q - p, FALSE };
          p = q;
        }
      n++;
      if (p < end && *p == '.')
        {
          if (++p == end)
            return 0;
        }
      else if (p < end && *p != '[')
        return 0;
    }
  return p == end ? n : 0;
}

static gboolean
part_equal (const PathPart *a,
            const PathPart *b)
{
  return a->is_index == b->is_index && a->len == b->len && memcmp (a->s, b->s, a->len) == 0;
}

static void
put_separator (ChromeWriter *w,
               OpenContainer *c)
{
  if (c->count++ > 0)
    g_string_append_c (w->buf, ',');
}

static void
put_key (ChromeWriter *w,
         const char *s,
         gsize len)
{
  chrome_fmt_string (w->buf, s, len);
  g_string_append_c (w->buf, ':');
}

/* Writes one arg at its place in the nesting, opening and closing objects
 * and arrays as needed.  @open[0] is the args object itself. */
static void
put_nested_arg (ChromeWriter *w,
                const TraceArg *arg,
                OpenContainer *open,
                guint *depth)
{
  PathPart parts[MAX_PATH];
  gsize len;
  const char *key = chrome_writer_str (w, arg->key, &len);
  guint n = split_key (key, len, parts);
  guint common = 0;

  if (n == 0)
    {
      /* written flat, in the args object itself */
      for (; *depth > 1; (*depth)--)
        g_string_append_c (w->buf, open[*depth - 1].array ? ']' : '}');
      put_separator (w, &open[0]);
      put_key (w, key, len);
      chrome_writer_put_arg_value (w, arg);
      return;
    }
  while (common + 1 < *depth && common + 1 < n &&
         part_equal (&open[common + 1].part, &parts[common]) &&
         open[common + 1].array == parts[common + 1].is_index)
    common++;
  for (; *depth > common + 1; (*depth)--)
    g_string_append_c (w->buf, open[*depth - 1].array ? ']' : '}');
  for (guint i = common; i + 1 < n; i++)
    {
      OpenContainer *parent = &open[*depth - 1];
      OpenContainer *child = &open[(*depth)++];

      put_separator (w, parent);
      if (!parent->array)
        put_key (w, parts[i].s, parts[i].len);
      child->part = parts[i];
      child->array = parts[i + 1].is_index;
      child->count = 0;
      g_string_append_c (w->buf, child->array ? '[' : '{');
    }
  put_separator (w, &open[*depth - 1]);
  if (!open[*depth - 1].array)
    put_key (w, parts[n - 1].s, parts[n - 1].len);
  chrome_writer_put_arg_value (w, arg);
}

/**
 * chrome_writer_put_args:
 *
 * Writes `,"args":{…}` (nothing when there are no args).
 */
void
chrome_writer_put_args (ChromeWriter *w,
                        const TraceArg *args,
                        guint n_args)
{
  OpenContainer open[MAX_PATH + 1] = { 0 };
  guint depth = 1;

  if (n_args == 0)
    return;
  g_string_append (w->buf, ",\"args\":{");
  for (guint i = 0; i < n_args; i++)
    {
      if (w->opts.flat_args)
        {
          gsize len;
          const char *key = chrome_writer_str (w, args[i].key, &len);

          put_separator (w, &open[0]);
          put_key (w, key, len);
          chrome_writer_put_arg_value (w, &args[i]);
        }
      else
        put_nested_arg (w, &args[i], open, &depth);
    }
  for (; depth > 1; depth--)
    g_string_append_c (w->buf, open[depth - 1].array ? ']' : '}');
  g_string_append_c (w->buf, '}');
}
