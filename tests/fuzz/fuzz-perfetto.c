/* tracepipe fuzzing - perfetto-src's reader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "fuzz-targets.h"
#include "perfetto-reader.h"

/* Record framing, packet decoding (protobuf-c), interning and
 * incremental state, track resolution, compressed packets, ftrace
 * bundles and compact sched. */
void
fuzz_perfetto_reader (const guint8 *data,
                      gsize size)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_data (data, size, NULL);
  g_autoptr (TraceStringPool) pool = fuzz_get_pool ();
  g_autoptr (PerfettoReader) r = perfetto_reader_new (in, "fuzz.pftrace", pool);
  g_autoptr (GError) error = NULL;
  PerfettoReaderStats stats;
  TraceBatch *b;

  while (perfetto_reader_read_batch (r, &b, &error) && b != NULL)
    trace_batch_unref (b);
  (void) perfetto_reader_get_clock_domain (r);
  perfetto_reader_get_stats (r, &stats);
}
