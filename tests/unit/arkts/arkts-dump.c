/* arkts-dump: reads one ArkTS/V8 profiler file with the arkts reader and
 * prints what came out. Not a test: a driver for measuring speed and peak
 * memory on large inputs (`/usr/bin/time -v arkts-dump FILE`), and for
 * looking at events (`-v`).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <string.h>

#include "arkts-engine.h"

static void
print_event (TraceBatch *batch,
             const TraceEvent *ev)
{
  const TraceArg *args = trace_batch_get_args (batch, ev);

  printf ("%-12s ts=%" G_GINT64_FORMAT " pid=%" G_GINT64_FORMAT " tid=%" G_GINT64_FORMAT " name=\"%s\"",
          trace_event_kind_to_string (ev->kind), ev->ts, ev->pid, ev->tid, trace_batch_get_string (batch, ev->name));
  if (ev->kind == TRACE_EVENT_COUNTER)
    printf (" value=%.17g", ev->u.counter.value);
  else if (ev->kind == TRACE_EVENT_STACK_NODE)
    printf (" id=%" G_GUINT64_FORMAT " parent=%" G_GUINT64_FORMAT, ev->u.stack_node.id, ev->u.stack_node.parent_id);
  else if (ev->kind == TRACE_EVENT_SAMPLE)
    printf (" node=%" G_GUINT64_FORMAT, ev->u.sample.node_id);
  for (guint i = 0; i < ev->n_args; i++)
    {
      const TraceArg *a = &args[i];
      printf (" %s=", trace_batch_get_string (batch, a->key));
      switch (a->type)
        {
        case TRACE_ARG_STRING:
          printf ("\"%s\"", trace_batch_get_string (batch, a->v.s));
          break;
        case TRACE_ARG_DOUBLE:
          printf ("%.17g", a->v.d);
          break;
        case TRACE_ARG_BOOL:
          printf ("%s", a->v.b ? "true" : "false");
          break;
        case TRACE_ARG_UINT:
        case TRACE_ARG_POINTER:
          printf ("%" G_GUINT64_FORMAT, a->v.u);
          break;
        default:
          printf ("%" G_GINT64_FORMAT, a->v.i);
        }
    }
  printf ("\n");
}

int
main (int argc,
      char **argv)
{
  gboolean verbose = argc > 2 && strcmp (argv[1], "-v") == 0;
  const char *path = argv[argc - 1];
  g_autoptr (GFile) file = NULL;
  g_autoptr (GFileInputStream) in = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsReader) reader = NULL;
  g_autoptr (GInputStream) input = NULL;
  g_autofree char *summary = NULL;
  guint64 per_kind[TRACE_EVENT_N_KINDS] = { 0 };
  const ArktsReaderStats *stats;
  TraceBatch *batch;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s [-v] FILE\n", argv[0]);
      return 2;
    }
  file = g_file_new_for_commandline_arg (path);
  in = g_file_read (file, NULL, &error);
  if (in == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  /* the reader takes decompressed input, as TraceFileSrc hands it over */
  if (g_str_has_suffix (path, ".gz"))
    {
      g_autoptr (GZlibDecompressor) gunzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
      input = g_converter_input_stream_new (G_INPUT_STREAM (in), G_CONVERTER (gunzip));
    }
  else
    input = g_object_ref (G_INPUT_STREAM (in));
  reader = arkts_reader_new (input, path, NULL, NULL);
  while (arkts_reader_read_batch (reader, &batch, &error) && batch)
    {
      for (guint i = 0; i < batch->n_events; i++)
        {
          per_kind[batch->events[i].kind]++;
          if (verbose)
            print_event (batch, &batch->events[i]);
        }
      trace_batch_unref (batch);
    }
  if (error)
    {
      fprintf (stderr, "ERROR: %s\n", error->message);
      return 1;
    }
  stats = arkts_reader_get_stats (reader);
  printf ("input: %s, clock %s\n", arkts_input_kind_to_string (arkts_reader_get_input_kind (reader)),
          trace_clock_domain_to_string (arkts_reader_get_clock_domain (reader)));
  printf ("bytes %" G_GUINT64_FORMAT " messages %" G_GUINT64_FORMAT " chunks %" G_GUINT64_FORMAT
          " snapshots %" G_GUINT64_FORMAT " timelines %" G_GUINT64_FORMAT " cpu_profiles %" G_GUINT64_FORMAT
          " samples %" G_GUINT64_FORMAT " heap_samples %" G_GUINT64_FORMAT "\n",
          stats->bytes, stats->messages, stats->chunks, stats->snapshots, stats->timelines,
          stats->cpu_profiles, stats->samples, stats->heap_samples);
  for (guint k = 0; k < TRACE_EVENT_N_KINDS; k++)
    if (per_kind[k])
      printf ("  %s: %" G_GUINT64_FORMAT "\n", trace_event_kind_to_string (k), per_kind[k]);
  summary = arkts_reader_get_warning_summary (reader);
  if (summary)
    printf ("warnings: %s\n", summary);
  return 0;
}
