/* tracepipe - json plugin: GPU counters and frame timelines as Chrome events
 *
 * perfetto-src carries the Perfetto packets it does not read as records
 * (their payload as it was, base64). Three kinds hold what a Chrome JSON
 * trace can carry, and json-sink writes them the way trace_processor
 * reads them from the original instead of as opaque records:
 * gpu_counter_event as `C` events (json-writer-gpu.c), frame_timeline_event
 * as async slices linked by flows (json-writer-frames.c), the tables of a
 * sys_stats packet as `C` events (json-writer-sysstats.c). Here: telling
 * such a record, decoding its payload, the state the graphics kinds keep.
 *
 * What has no such form is counted (json-writer.h): values of counter ids
 * no descriptor named, descriptors sent as interned data, frame events
 * trace_processor rejects, and the links of second surface frames to one
 * display frame (a v2 flow id begins once).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "json-common.h"
#include "json-writer-graphics.h"

#define SYS_STATS_FIELD 7
#define GPU_COUNTER_EVENT_FIELD 52
#define FRAME_TIMELINE_EVENT_FIELD 76

static ChromeGraphics *
graphics_get (ChromeWriter *w)
{
  if (w->graphics == NULL)
    {
      ChromeGraphics *g = g_new0 (ChromeGraphics, 1);

      g->counters = g_hash_table_new_full (NULL, NULL, NULL, chrome_graphics_gpu_counter_free);
      g->frames = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
      g->expected_surfaces = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g->linked_displays = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      w->graphics = g;
    }
  return w->graphics;
}

/* ------------------------------------------------------------------ */
/* Records                                                             */

/* The payload of a record of packet kind @field (base64, its length
 * prefix included): %NULL when @ev is not a record of that form. */
static guint8 *
record_payload (ChromeGraphics *g,
                TraceBatch *batch,
                const TraceEvent *ev,
                guint64 *field,
                gsize *len)
{
  const TraceArg *f = trace_batch_find_arg (batch, ev, g->k_field);
  const TraceArg *b = trace_batch_find_arg (batch, ev, g->k_bytes);
  const char *text = b != NULL ? trace_batch_get_arg_string (batch, b) : NULL;

  if (f == NULL || text == NULL || (f->type != TRACE_ARG_UINT && f->type != TRACE_ARG_INT))
    return NULL;
  *field = f->v.u;
  if (*field != GPU_COUNTER_EVENT_FIELD && *field != FRAME_TIMELINE_EVENT_FIELD && *field != SYS_STATS_FIELD)
    return NULL;
  return g_base64_decode (text, len);
}

/* The message after the payload's length prefix, or %NULL. */
static ProtobufCMessage *
unpack_payload (const ProtobufCMessageDescriptor *desc,
                const guint8 *data,
                gsize len)
{
  guint64 size = 0;
  guint shift = 0;
  gsize i = 0;

  for (; i < len && i < 10; i++, shift += 7)
    {
      size |= (guint64) (data[i] & 0x7f) << shift;
      if (!(data[i] & 0x80))
        break;
    }
  if (i >= len || size != len - i - 1)
    return NULL;
  return protobuf_c_message_unpack (desc, NULL, size, data + i + 1);
}

/**
 * chrome_writer_graphics_record:
 * @w: a writer
 * @batch: the batch of @ev
 * @ev: a %TRACE_EVENT_RECORD
 *
 * Writes a carried gpu_counter_event, frame_timeline_event or sys_stats
 * packet as the Chrome events trace_processor reads the same from.
 *
 * Returns: %TRUE when @ev was such a packet (written or counted), %FALSE
 *   when it is to be written as a record
 */
gboolean
chrome_writer_graphics_record (ChromeWriter *w,
                               TraceBatch *batch,
                               const TraceEvent *ev)
{
  ChromeGraphics *g = graphics_get (w);
  g_autofree guint8 *data = NULL;
  ProtobufCMessage *msg;
  guint64 field = 0;
  gsize len = 0;

  if (g->k_field == 0 || g->k_bytes == 0)
    {
      g->k_field = trace_string_pool_lookup (w->pool, "perfetto.field", strlen ("perfetto.field"));
      g->k_bytes = trace_string_pool_lookup (w->pool, "perfetto.bytes", strlen ("perfetto.bytes"));
    }
  if (g->k_field == 0 || (data = record_payload (g, batch, ev, &field, &len)) == NULL)
    return FALSE;
  msg = unpack_payload (field == GPU_COUNTER_EVENT_FIELD ? &tracepipe__json__gpu_counter_event__descriptor
                        : field == SYS_STATS_FIELD       ? &tracepipe__json__sys_stats_packet__descriptor
                                                         : &tracepipe__json__frame_timeline_event__descriptor,
                        data, len);
  if (msg == NULL)
    return FALSE;
  if (field == GPU_COUNTER_EVENT_FIELD)
    chrome_graphics_gpu_counter_event (w, (const Tracepipe__Json__GpuCounterEvent *) msg, ev->ts);
  else if (field == SYS_STATS_FIELD)
    chrome_writer_sys_stats (w, (const Tracepipe__Json__SysStatsPacket *) msg, ev->ts);
  else
    chrome_graphics_frame_timeline_event (w, (const Tracepipe__Json__FrameTimelineEvent *) msg, ev->ts);
  protobuf_c_message_free_unpacked (msg, NULL);
  return TRUE;
}

void
chrome_writer_graphics_free (ChromeWriter *w)
{
  ChromeGraphics *g = w->graphics;

  if (g == NULL)
    return;
  g_hash_table_destroy (g->counters);
  g_hash_table_destroy (g->frames);
  g_hash_table_destroy (g->expected_surfaces);
  g_hash_table_destroy (g->linked_displays);
  g_free (g);
  w->graphics = NULL;
}
