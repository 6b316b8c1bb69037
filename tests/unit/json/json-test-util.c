/* tracepipe - json plugin tests: shared helpers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "json-test-util.h"

char *
test_data_path (const char *name)
{
  return g_build_filename (TEST_DATA_DIR, "json", name, NULL);
}

/* Reads everything into one batch (the test inputs are small). */
static TraceBatch *
read_all (ChromeReader *reader,
          TraceStringPool *pool,
          GError **error)
{
  TraceBatch *all = trace_batch_new (pool, 0);
  TraceBatch *batch;

  while (chrome_reader_read_batch (reader, &batch, error) && batch != NULL)
    {
      for (guint i = 0; i < batch->n_events; i++)
        trace_batch_append_event (all, &batch->events[i], batch);
      trace_batch_unref (batch);
    }
  return all;
}

static TraceBatch *
read_stream (GInputStream *in,
             const char *location,
             TraceStringPool *pool,
             ChromeReader **reader,
             GError **error)
{
  ChromeReader *r = chrome_reader_new (in, location, pool);
  TraceBatch *all = read_all (r, pool, error);

  if (reader)
    *reader = r;
  else
    chrome_reader_free (r);
  return all;
}

/**
 * test_read_data:
 * @len: -1 for a NUL-terminated string
 * @reader: (out) (optional): the reader, for its statistics
 *
 * Returns: all events, also when @error is set (those read before)
 */
TraceBatch *
test_read_data (const char *data,
                gssize len,
                const char *location,
                TraceStringPool *pool,
                ChromeReader **reader,
                GError **error)
{
  g_autoptr (GInputStream) in = NULL;

  if (len < 0)
    len = strlen (data);
  in = g_memory_input_stream_new_from_data (g_memdup2 (data, len), len, g_free);
  return read_stream (in, location, pool, reader, error);
}

/**
 * test_read_gzip_data:
 *
 * test_read_data() of gzip data: the reader is given the decompressed
 * stream, as json-src gives it (#TraceFileSrc undoes gzip, not the
 * reader).
 */
TraceBatch *
test_read_gzip_data (const char *data,
                     gsize len,
                     const char *location,
                     TraceStringPool *pool,
                     ChromeReader **reader,
                     GError **error)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_data (g_memdup2 (data, len), len, g_free);
  g_autoptr (GZlibDecompressor) gunzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr (GInputStream) plain = g_converter_input_stream_new (in, G_CONVERTER (gunzip));

  return read_stream (plain, location, pool, reader, error);
}

TraceBatch *
test_read_file (const char *name,
                TraceStringPool *pool,
                ChromeReader **reader,
                GError **error)
{
  g_autofree char *path = test_data_path (name);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GInputStream) in = G_INPUT_STREAM (g_file_read (file, NULL, error));

  if (in == NULL)
    return NULL;
  return read_stream (in, name, pool, reader, error);
}

guint
test_count_kind (TraceBatch *batch,
                 TraceEventKind kind)
{
  guint n = 0;

  for (guint i = 0; i < batch->n_events; i++)
    n += batch->events[i].kind == kind;
  return n;
}

const char *
test_str (TraceBatch *batch,
          guint32 id)
{
  return trace_string_pool_get (batch->pool, id);
}

/* The value of @ev's string arg @key, interned or kept in the batch
 * (where json-src keeps it is no part of the value). */
const char *
test_arg_str (TraceBatch *batch,
              const TraceEvent *ev,
              const char *key)
{
  const TraceArg *arg = test_arg (batch, ev, key);

  g_assert_nonnull (arg);
  g_assert_true (arg->type == TRACE_ARG_STRING || arg->type == TRACE_ARG_TEXT);
  return trace_batch_get_arg_string (batch, arg);
}

/* The @nth (from 0) event of @kind named @name (any name when NULL). */
const TraceEvent *
test_find (TraceBatch *batch,
           TraceEventKind kind,
           const char *name,
           guint nth)
{
  for (guint i = 0; i < batch->n_events; i++)
    {
      const TraceEvent *ev = &batch->events[i];

      if (ev->kind == kind && (name == NULL || strcmp (test_str (batch, ev->name), name) == 0) &&
          nth-- == 0)
        return ev;
    }
  return NULL;
}

const TraceArg *
test_arg (TraceBatch *batch,
          const TraceEvent *ev,
          const char *key)
{
  const TraceArg *args = trace_batch_get_args (batch, ev);

  for (guint i = 0; i < ev->n_args; i++)
    if (strcmp (test_str (batch, args[i].key), key) == 0)
      return &args[i];
  return NULL;
}

/* Writes @batch with a new writer and returns the text. */
char *
test_write (TraceBatch *batch,
            const ChromeWriterOptions *opts,
            gsize *len)
{
  return test_write_with_stats (batch, opts, len, NULL);
}

/* test_write(), and the writer's stats in @stats (if not %NULL). */
char *
test_write_with_stats (TraceBatch *batch,
                       const ChromeWriterOptions *opts,
                       gsize *len,
                       ChromeWriterStats *stats)
{
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (ChromeWriter) writer = chrome_writer_new (out, opts);
  g_autoptr (GError) error = NULL;

  g_assert_true (chrome_writer_write_batch (writer, batch, &error));
  g_assert_no_error (error);
  g_assert_true (chrome_writer_finish (writer, &error));
  g_assert_no_error (error);
  if (stats != NULL)
    *stats = *chrome_writer_get_stats (writer);
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  *len = g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out));
  /* the memory stream's data is not NUL-terminated: add one */
  return g_strndup (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)), *len);
}

/* Parses with json-glib, which must accept the whole text. */
JsonNode *
test_parse_json (const char *text,
                 gsize len)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, text, len, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

JsonArray *
test_trace_events (JsonNode *root)
{
  if (JSON_NODE_HOLDS_ARRAY (root))
    return json_node_get_array (root);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  return json_object_get_array_member (json_node_get_object (root), "traceEvents");
}

/* The @nth event object with phase @ph (and name @name unless NULL). */
JsonObject *
test_json_event (JsonArray *events,
                 const char *ph,
                 const char *name,
                 guint nth)
{
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *o = json_array_get_object_element (events, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (o, "ph", ""), ph) == 0 &&
          (name == NULL ||
           g_strcmp0 (json_object_get_string_member_with_default (o, "name", ""), name) == 0) &&
          nth-- == 0)
        return o;
    }
  return NULL;
}

guint
test_count_ph (JsonArray *events,
               const char *ph)
{
  guint n = 0;

  for (guint i = 0; i < json_array_get_length (events); i++)
    n += g_strcmp0 (json_object_get_string_member_with_default (
                        json_array_get_object_element (events, i), "ph", ""),
                    ph) == 0;
  return n;
}

TraceEvent *
test_add (TraceBatch *batch,
          TraceEventKind kind,
          gint64 ts,
          gint64 pid,
          gint64 tid,
          const char *name)
{
  TraceEvent *ev = trace_batch_append (batch, kind, ts);

  ev->pid = pid;
  ev->tid = tid;
  ev->name = name ? trace_string_pool_intern (batch->pool, name) : 0;
  return ev;
}

void
test_out_init (TestOut *o)
{
  memset (o, 0, sizeof *o);
  o->pool = trace_string_pool_new ();
  o->batch = trace_batch_new (o->pool, 0);
}

/* Writes the batch; the output, parsed, and the writer's stats in @o. */
void
test_out_write (TestOut *o,
                const ChromeWriterOptions *opts)
{
  o->text = test_write_with_stats (o->batch, opts, &o->len, &o->stats);
  o->root = test_parse_json (o->text, o->len);
  o->events = test_trace_events (o->root);
}

void
test_out_clear (TestOut *o)
{
  g_free (o->text);
  if (o->root)
    json_node_unref (o->root);
  trace_batch_unref (o->batch);
  trace_string_pool_unref (o->pool);
}
