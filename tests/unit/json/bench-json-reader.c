/* tracepipe - json plugin: how fast each way of parsing event objects is
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Not a test: a measurement behind a design choice (docs/json.md).  It
 * reads a Chrome JSON array file twice:
 *   direct    - ChromeReader (in-place scanner, events to a TraceBatch)
 *   json-glib - the same top-level framing, but every event object handed
 *               to a JsonParser and its fields and args taken from the tree
 * and prints MB/s and events/s of both.
 *
 *   python3 gen_synth.py json /tmp/x.json --mb 50
 *   bench-json-reader /tmp/x.json
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <trace/trace.h>

#include "json-reader.h"

static void
flatten (TraceBatch *batch,
         TraceEvent *ev,
         GString *key,
         JsonNode *node)
{
  gsize prefix = key->len;

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *k;
      JsonNode *child;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &k, &child))
        {
          if (prefix)
            g_string_append_c (key, '.');
          g_string_append (key, k);
          flatten (batch, ev, key, child);
          g_string_truncate (key, prefix);
        }
      return;
    }
  if (!JSON_NODE_HOLDS_VALUE (node))
    return;
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      trace_batch_add_arg_int (batch, ev, key->str, json_node_get_int (node));
      break;
    case G_TYPE_DOUBLE:
      trace_batch_add_arg_double (batch, ev, key->str, json_node_get_double (node));
      break;
    case G_TYPE_STRING:
      trace_batch_add_arg_string (batch, ev, key->str, json_node_get_string (node));
      break;
    default:
      break;
    }
}

static gint64
us_to_ns (JsonNode *node)
{
  return node ? llround (json_node_get_double (node) * 1000.0) : 0;
}

static void
convert_with_json_glib (JsonParser *parser,
                        TraceBatch *batch,
                        GString *key,
                        const char *p,
                        gsize len)
{
  JsonObject *o;
  JsonNode *node;
  TraceEvent *ev;
  const char *ph;

  if (!json_parser_load_from_data (parser, p, len, NULL))
    return;
  o = json_node_get_object (json_parser_get_root (parser));
  ph = json_object_get_string_member_with_default (o, "ph", "");
  ev = trace_batch_append (batch, *ph == 'B' ? TRACE_EVENT_SLICE_BEGIN : TRACE_EVENT_SLICE_END,
                           us_to_ns (json_object_get_member (o, "ts")));
  ev->pid = json_object_get_int_member_with_default (o, "pid", -1);
  ev->tid = json_object_get_int_member_with_default (o, "tid", ev->pid);
  ev->name = trace_string_pool_intern (batch->pool,
                                       json_object_get_string_member_with_default (o, "name", ""));
  ev->category = trace_string_pool_intern (batch->pool,
                                           json_object_get_string_member_with_default (o, "cat", ""));
  if ((node = json_object_get_member (o, "dur")) != NULL)
    ev->u.slice.dur = us_to_ns (node);
  if ((node = json_object_get_member (o, "args")) != NULL)
    {
      g_string_truncate (key, 0);
      flatten (batch, ev, key, node);
    }
}

/* Array form only: finds each element with the scanner, parses it with
 * json-glib. */
static guint64
run_json_glib (const char *path,
               TraceStringPool *pool)
{
  g_autoptr (GMappedFile) map = g_mapped_file_new (path, FALSE, NULL);
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GString) key = g_string_new (NULL);
  TraceBatch *batch = trace_batch_new (pool, 0);
  ChromeScanner s;
  ChromeValue v;
  gboolean first = TRUE;
  guint64 n = 0;

  chrome_scanner_init (&s, g_mapped_file_get_contents (map),
                       g_mapped_file_get_contents (map) + g_mapped_file_get_length (map));
  chrome_scan_enter (&s, '[');
  while (chrome_scan_element (&s, &first) == CHROME_SCAN_OK &&
         chrome_scan_value (&s, &v, 1) == CHROME_SCAN_OK)
    {
      convert_with_json_glib (parser, batch, key, v.start, v.end - v.start);
      if (batch->n_events >= TRACE_BATCH_DEFAULT_SIZE)
        {
          n += batch->n_events;
          trace_batch_clear (batch);
        }
    }
  n += batch->n_events;
  trace_batch_unref (batch);
  return n;
}

static guint64
run_direct (const char *path,
            TraceStringPool *pool)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GInputStream) in = G_INPUT_STREAM (g_file_read (file, NULL, NULL));
  g_autoptr (ChromeReader) reader = chrome_reader_new (in, path, pool);
  g_autoptr (GError) error = NULL;
  TraceBatch *batch;
  guint64 n = 0;

  while (chrome_reader_read_batch (reader, &batch, &error) && batch != NULL)
    {
      n += batch->n_events;
      trace_batch_unref (batch);
    }
  if (error)
    g_printerr ("%s\n", error->message);
  return n;
}

static void
report (const char *what,
        guint64 bytes,
        guint64 events,
        gint64 usec)
{
  printf ("%-10s %8.1f MB/s %10.0f events/s (%" G_GUINT64_FORMAT " events, %.2f s)\n", what,
          bytes / 1e6 / (usec / 1e6), events / (usec / 1e6), events, usec / 1e6);
}

int
main (int argc,
      char **argv)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  GStatBuf st;
  gint64 t0;
  guint64 n;

  if (argc < 2 || g_stat (argv[1], &st) != 0)
    {
      g_printerr ("usage: %s FILE.json (array form)\n", argv[0]);
      return 2;
    }
  t0 = g_get_monotonic_time ();
  n = run_direct (argv[1], pool);
  report ("direct", st.st_size, n, g_get_monotonic_time () - t0);
  t0 = g_get_monotonic_time ();
  n = run_json_glib (argv[1], pool);
  report ("json-glib", st.st_size, n, g_get_monotonic_time () - t0);
  return 0;
}
