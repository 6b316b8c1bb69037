/* tracepipe fuzzing - htrace-src's reader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gio/gio.h>

#include "fuzz-targets.h"
#include "htrace-private.h"

/* The header, the record framing, every plugin's decoding (protobuf-c
 * into the arena), the clock conversions, the FFRT lines through the
 * ftrace engine, the native-hook table. */
void
fuzz_htrace_reader (const guint8 *data,
                    gsize size)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_data (data, size, NULL);
  g_autoptr (TraceStringPool) pool = fuzz_get_pool ();
  g_autoptr (HtraceReader) r = htrace_reader_new (in, "fuzz.htrace", size, pool);
  g_autoptr (GError) error = NULL;
  g_autofree char *summary = NULL;
  HtraceReaderStats stats;
  TraceBatch *b;

  while (htrace_reader_read_batch (r, &b, &error) && b != NULL)
    trace_batch_unref (b);
  (void) htrace_reader_get_clock_domain (r);
  htrace_reader_copy_stats (r, &stats);
  summary = htrace_reader_get_summary (r);
}

/* The input is the records: a header with boottime and realtime readings
 * is put before it here, so that the fuzzer spends its mutations on the
 * records and reaches the conversions between clocks. */
void
fuzz_htrace_records (const guint8 *data,
                     gsize size)
{
  g_autofree guint8 *file = g_malloc0 (HTRACE_HEADER_SIZE + size);
  guint64 boottime = GUINT64_TO_LE (981192459193), realtime = GUINT64_TO_LE (1502028131300006447);

  memcpy (file, HTRACE_MAGIC, 8);
  memcpy (file + 60, &boottime, 8);
  memcpy (file + 68, &realtime, 8);
  if (size > 0)
    memcpy (file + HTRACE_HEADER_SIZE, data, size);
  fuzz_htrace_reader (file, HTRACE_HEADER_SIZE + size);
}
