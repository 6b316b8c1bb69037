/* tracepipe fuzzing - json-src's reader (and its systemTraceEvents)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>

#include "ftrace-text.h"
#include "fuzz-targets.h"
#include "json-reader.h"

/* The kernel text of systemTraceEvents, read as json-src reads it. */
static void
read_system_trace (ChromeReader *r,
                   TraceStringPool *pool)
{
  g_autoptr (GInputStream) text = NULL;
  g_autoptr (FtraceReader) fr = NULL;
  g_autoptr (GError) error = NULL;
  TraceBatch *b;

  if (!chrome_reader_has_system_trace (r))
    return;
  text = chrome_reader_open_system_trace (r, &error);
  if (text == NULL)
    return;
  fr = ftrace_reader_new (text, "fuzz.json (systemTraceEvents)", pool, NULL);
  while (ftrace_reader_read_batch (fr, &b, &error) && b != NULL)
    trace_batch_unref (b);
  g_free (ftrace_reader_get_summary (fr));
}

/* The tokenizer, the event mapping (phases, ids, args, counters,
 * samples and stack frames), metadata, the summary. gzip is not the
 * reader's: TraceFileSrc undoes it before. */
void
fuzz_json_reader (const guint8 *data,
                  gsize size)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_data (data, size, NULL);
  g_autoptr (TraceStringPool) pool = fuzz_get_pool ();
  g_autoptr (ChromeReader) r = chrome_reader_new (in, "fuzz.json", pool);
  g_autoptr (GError) error = NULL;
  TraceBatch *b;
  gboolean ok;

  while ((ok = chrome_reader_read_batch (r, &b, &error)) && b != NULL)
    trace_batch_unref (b);
  if (ok)
    read_system_trace (r, pool);
  (void) chrome_reader_get_clock_domain (r);
  (void) chrome_reader_get_metadata (r);
  (void) chrome_reader_has_damage (r);
  g_free (chrome_reader_get_summary (r, TRUE));
}

/* What one read gave, as a digest: the batches (events and args as
 * bytes, and the texts of its text args: both reads intern into one
 * pool, so equal strings have equal
 * ids), the counters, the summary, the error. */
static char *
read_digest (const guint8 *data,
             gsize size,
             guint threads,
             TraceStringPool *pool)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_data (data, size, NULL);
  g_autoptr (ChromeReader) r = chrome_reader_new (in, "fuzz.json", pool);
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autoptr (GError) error = NULL;
  g_autofree char *summary = NULL;
  TraceBatch *b;
  gboolean ok;

  chrome_reader_set_threads (r, threads);
  /* the workers' events are taken wherever the guess was right, whatever
   * the load: the runs cover the same paths */
  chrome_reader_set_patient (r, TRUE);
  while ((ok = chrome_reader_read_batch (r, &b, &error)) && b != NULL)
    {
      g_checksum_update (sum, (const guchar *) &b->n_events, sizeof b->n_events);
      g_checksum_update (sum, (const guchar *) b->events, b->n_events * sizeof *b->events);
      g_checksum_update (sum, (const guchar *) b->args, b->n_args * sizeof *b->args);
      /* the values kept as text, and so which ones were interned */
      g_checksum_update (sum, (const guchar *) b->text, b->text_len);
      trace_batch_unref (b);
    }
  summary = chrome_reader_get_summary (r, TRUE);
  g_checksum_update (sum, (const guchar *) chrome_reader_get_stats (r), sizeof (ChromeReaderStats));
  g_checksum_update (sum, (const guchar *) (summary ? summary : "-"), -1);
  g_checksum_update (sum, (const guchar *) (error ? error->message : "-"), -1);
  return g_strdup (g_checksum_get_string (sum));
}

/* Differential: the reader with worker threads, in chunks of 16 to 215
 * bytes (from the input's size), gives what it gives on one thread. */
void
fuzz_json_threads (const guint8 *data,
                   gsize size)
{
  g_autoptr (TraceStringPool) pool = fuzz_get_pool ();
  g_autofree char *chunk = g_strdup_printf ("%" G_GSIZE_FORMAT, 16 + size % 200);
  g_autofree char *one = NULL;
  g_autofree char *many = NULL;

  g_setenv ("TRACEPIPE_JSON_CHUNK_SIZE", chunk, TRUE);
  one = read_digest (data, size, 1, pool);
  many = read_digest (data, size, 3, pool);
  g_unsetenv ("TRACEPIPE_JSON_CHUNK_SIZE");
  if (strcmp (one, many) != 0)
    {
      g_printerr ("json-src with threads=3 read this input (chunks of %s bytes) differently from threads=1\n", chunk);
      abort ();
    }
}
