/* tracepipe fuzzing - perfetto-src's reader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include <gio/gio.h>
#include <zlib.h>

#include "fuzz-targets.h"
#include "perfetto-common.h"
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

static void
append_varint (GByteArray *a,
               guint64 v)
{
  do
    {
      guint8 b = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);

      g_byte_array_append (a, &b, 1);
      v >>= 7;
    }
  while (v);
}

/* The input is the inside of a `compressed_packets` field (Trace.packet
 * records): deflated and wrapped in one outer packet here, so that the
 * fuzzer mutates the inner packets themselves, not zlib's stream, and
 * reaches the decoding of packets that come out of inflation (their own
 * arena, the nesting refusal, the per-field packet limit). */
void
fuzz_perfetto_compressed (const guint8 *data,
                          gsize size)
{
  g_autoptr (GByteArray) file = g_byte_array_new ();
  g_autoptr (GByteArray) packet = g_byte_array_new ();
  uLongf zlen = compressBound (size);
  g_autofree guint8 *z = g_malloc (zlen);
  guint64 tag = (50 << 3) | 2; /* compressed_packets, length-delimited */

  if (compress2 (z, &zlen, data, size, 1) != Z_OK)
    abort ();
  append_varint (packet, tag);
  append_varint (packet, zlen);
  g_byte_array_append (packet, z, zlen);
  append_varint (file, 0x0a);
  append_varint (file, packet->len);
  g_byte_array_append (file, packet->data, packet->len);
  fuzz_perfetto_reader (file->data, file->len);
}
