/* tracepipe fuzzing - json-src's reader (and its systemTraceEvents)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "ftrace-text.h"
#include "fuzz-targets.h"
#include "json-private.h"

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
