/* tracepipe fuzzing - arkts-src's reader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "arkts-engine.h"
#include "fuzz-targets.h"

/* Sniffing, the DevTools message scanner and the reassembly of
 * addHeapSnapshotChunk messages, the streamed heap snapshot/timeline
 * scanner, CPU and sampling heap profiles (gzip is undone before, by
 * TraceFileSrc). A small read size makes every input cross read blocks
 * in many places. */
void
fuzz_arkts_reader (const guint8 *data,
                   gsize size)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_data (data, size, NULL);
  g_autoptr (TraceStringPool) pool = fuzz_get_pool ();
  g_autoptr (ArktsReader) r = NULL;
  g_autoptr (GError) error = NULL;
  ArktsReaderOptions opts;
  TraceBatch *b;

  arkts_reader_options_init (&opts);
  opts.read_size = 1 + size % 4096;
  r = arkts_reader_new (in, "fuzz.jsonl", pool, &opts);
  while (arkts_reader_read_batch (r, &b, &error) && b != NULL)
    trace_batch_unref (b);
  (void) arkts_reader_get_clock_domain (r);
  (void) arkts_reader_get_stats (r);
  g_free (arkts_reader_get_warning_summary (r));
}
