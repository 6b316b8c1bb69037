/* Unit tests of the arkts reader: helpers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "arkts-test-util.h"

char *
arkts_test_path (const char *name)
{
  return g_build_filename (TEST_DATA_DIR, "arkts", name, NULL);
}

ArktsRun *
arkts_run_stream (GInputStream *in,
                  const char *location,
                  const ArktsReaderOptions *opts,
                  GError **error)
{
  ArktsRun *run = g_new0 (ArktsRun, 1);
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  TraceBatch *batch;

  run->events = trace_batch_new (pool, 0);
  run->reader = arkts_reader_new (in, location, pool, opts);
  while (arkts_reader_read_batch (run->reader, &batch, error) && batch)
    {
      g_assert_cmpuint (batch->n_events, >, 0);
      run->n_batches++;
      run->max_batch = MAX (run->max_batch, batch->n_events);
      for (guint i = 0; i < batch->n_events; i++)
        trace_batch_append_event (run->events, &batch->events[i], batch);
      trace_batch_unref (batch);
    }
  if (error && *error)
    {
      arkts_run_free (run);
      return NULL;
    }
  return run;
}

ArktsRun *
arkts_run_file (const char *name,
                const ArktsReaderOptions *opts,
                GError **error)
{
  g_autofree char *path = arkts_test_path (name);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileInputStream) in = g_file_read (file, NULL, error);

  if (in == NULL)
    return NULL;
  return arkts_run_stream (G_INPUT_STREAM (in), name, opts, error);
}

ArktsRun *
arkts_run_text (const char *text,
                gssize len,
                const char *location,
                const ArktsReaderOptions *opts,
                GError **error)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_data (g_memdup2 (text, len < 0 ? strlen (text) : (gsize) len),
                                                                     len < 0 ? (gssize) strlen (text) : len, g_free);

  return arkts_run_stream (in, location, opts, error);
}

/* The reader takes decompressed input: TraceFileSrc undoes gzip before
 * it, so a test of gzip input decompresses the same way first. */
ArktsRun *
arkts_run_gzip_text (const char *data,
                     gsize len,
                     const char *location,
                     const ArktsReaderOptions *opts,
                     GError **error)
{
  g_autoptr (GInputStream) compressed = g_memory_input_stream_new_from_data (g_memdup2 (data, len), len, g_free);
  g_autoptr (GZlibDecompressor) gunzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr (GInputStream) in = g_converter_input_stream_new (compressed, G_CONVERTER (gunzip));

  return arkts_run_stream (in, location, opts, error);
}

void
arkts_run_free (ArktsRun *run)
{
  trace_batch_unref (run->events);
  arkts_reader_free (run->reader);
  g_free (run);
}

const char *
arkts_run_name (ArktsRun *run,
                const TraceEvent *ev)
{
  return trace_batch_get_string (run->events, ev->name);
}

guint
arkts_run_count (ArktsRun *run,
                 TraceEventKind kind,
                 const char *name)
{
  guint n = 0;

  for (guint i = 0; i < run->events->n_events; i++)
    {
      const TraceEvent *ev = &run->events->events[i];
      n += ev->kind == kind && (name == NULL || g_strcmp0 (arkts_run_name (run, ev), name) == 0);
    }
  return n;
}

const TraceEvent *
arkts_run_find (ArktsRun *run,
                TraceEventKind kind,
                const char *name,
                guint nth)
{
  for (guint i = 0; i < run->events->n_events; i++)
    {
      const TraceEvent *ev = &run->events->events[i];
      if (ev->kind == kind && (name == NULL || g_strcmp0 (arkts_run_name (run, ev), name) == 0) && nth-- == 0)
        return ev;
    }
  return NULL;
}

const TraceArg *
arkts_run_arg (ArktsRun *run,
               const TraceEvent *ev,
               const char *key)
{
  const TraceArg *args = trace_batch_get_args (run->events, ev);

  for (guint i = 0; i < ev->n_args; i++)
    if (g_strcmp0 (trace_batch_get_string (run->events, args[i].key), key) == 0)
      return &args[i];
  return NULL;
}

gint64
arkts_run_arg_int (ArktsRun *run,
                   const TraceEvent *ev,
                   const char *key)
{
  const TraceArg *arg = arkts_run_arg (run, ev, key);

  if (arg == NULL)
    g_error ("no arg %s", key);
  g_assert_cmpint (arg->type, ==, TRACE_ARG_INT);
  return arg->v.i;
}

const char *
arkts_run_arg_string (ArktsRun *run,
                      const TraceEvent *ev,
                      const char *key)
{
  const TraceArg *arg = arkts_run_arg (run, ev, key);

  if (arg == NULL)
    return NULL;
  g_assert_cmpint (arg->type, ==, TRACE_ARG_STRING);
  return trace_batch_get_string (run->events, arg->v.s);
}

/* All args as "key=value ..." for comparing two runs. */
char *
arkts_run_args_text (ArktsRun *run,
                     const TraceEvent *ev)
{
  const TraceArg *args = trace_batch_get_args (run->events, ev);
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < ev->n_args; i++)
    {
      g_string_append_printf (text, "%s=", trace_batch_get_string (run->events, args[i].key));
      if (args[i].type == TRACE_ARG_STRING)
        g_string_append_printf (text, "\"%s\" ", trace_batch_get_string (run->events, args[i].v.s));
      else if (args[i].type == TRACE_ARG_DOUBLE)
        g_string_append_printf (text, "%.17g ", args[i].v.d);
      else
        g_string_append_printf (text, "%" G_GINT64_FORMAT " ", args[i].v.i);
    }
  return g_string_free (text, FALSE);
}

char *
arkts_test_read_file (const char *name,
                      gsize *len)
{
  g_autofree char *path = arkts_test_path (name);
  g_autoptr (GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, len, &error);
  g_assert_no_error (error);
  return contents;
}

JsonNode *
arkts_test_parse_text (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

JsonNode *
arkts_test_parse_file (const char *name)
{
  g_autofree char *text = arkts_test_read_file (name, NULL);

  return arkts_test_parse_text (text);
}
