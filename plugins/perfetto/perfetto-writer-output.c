/* tracepipe - Perfetto writer: packets and output
 *
 * The file is written packet by packet: every TracePacket is packed as a
 * one-packet Trace message, which is exactly one `Trace.packet` record
 * (tag, length, packet); TrackEvent and ftrace bundle packets straight to
 * wire format (perfetto-writer-wire.c), the others by protobuf-c. Records
 * are appended to an output buffer that goes to the stream in large
 * writes, so a file cut at any record boundary is a valid trace.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-writer-private.h"

#include <zlib.h>

/* Write to the stream once this much output is buffered. */
#define PERFETTO_FLUSH_THRESHOLD (1024 * 1024)
/* With compress=true, deflate runs of this much: Perfetto wants each
 * compressed_packets packet under 512 KiB, and deflate never grows a run
 * by more than a few bytes per 16 KiB. */
#define PERFETTO_COMPRESS_THRESHOLD (256 * 1024)

static void
perfetto_packet_reset (PerfettoWriter *w)
{
  perfetto__protos__trace_packet__init (&w->pkt);
  w->ann_wire.len = 0;
  w->packet_has_interned = FALSE;
  w->new_names.len = w->new_categories.len = w->new_ann_names.len = 0;
  w->new_str_values.len = w->new_ksyms.len = w->new_functions.len = 0;
  w->new_map_paths.len = w->new_mappings.len = 0;
  w->new_frames.len = w->new_callstacks.len = 0;
  /* Empty but in sample packets: skip the calls (once per packet). */
  if (w->callstack_frames->len)
    g_array_set_size (w->callstack_frames, 0);
  if (w->mapping_paths->len)
    g_array_set_size (w->mapping_paths, 0);
}

/**
 * perfetto_output_init:
 * @w: a #PerfettoWriter
 *
 * Sets up the output buffer and the first packet. After
 * perfetto_intern_init().
 */
void
perfetto_output_init (PerfettoWriter *w)
{
  w->obuf.cap = 2 * PERFETTO_FLUSH_THRESHOLD;
  w->obuf.data = g_malloc (w->obuf.cap);
  w->flush_at = w->opts.compress ? PERFETTO_COMPRESS_THRESHOLD : PERFETTO_FLUSH_THRESHOLD;
  w->zbuf = g_byte_array_new ();
  w->zpacket = g_byte_array_new ();
  perfetto_packet_reset (w);
}

void
perfetto_output_free (PerfettoWriter *w)
{
  g_free (w->obuf.data);
  g_byte_array_unref (w->zbuf);
  g_byte_array_unref (w->zpacket);
}

static void
perfetto_attach_interned (PerfettoWriter *w)
{
  PerfettoInternedData *d = &w->idata;
  Perfetto__Protos__Callstack *cs;
  Perfetto__Protos__Mapping *m;
  gsize at = 0;

  perfetto__protos__interned_data__init (d);
#define PERFETTO_ATTACH(field, vec) \
  d->n_##field = w->vec.len;        \
  d->field = (gpointer) perfetto_vec_ptrs (&w->vec)
  PERFETTO_ATTACH (event_names, new_names);
  PERFETTO_ATTACH (event_categories, new_categories);
  PERFETTO_ATTACH (debug_annotation_names, new_ann_names);
  PERFETTO_ATTACH (debug_annotation_string_values, new_str_values);
  PERFETTO_ATTACH (kernel_symbols, new_ksyms);
  PERFETTO_ATTACH (function_names, new_functions);
  PERFETTO_ATTACH (mapping_paths, new_map_paths);
  PERFETTO_ATTACH (mappings, new_mappings);
  PERFETTO_ATTACH (frames, new_frames);
  PERFETTO_ATTACH (callstacks, new_callstacks);
#undef PERFETTO_ATTACH
  /* Repeated scalars point into shared arrays: fix them up now that the
   * arrays no longer grow. The structs hold their offsets meanwhile. */
  for (guint i = 0; i < w->new_callstacks.len; i++)
    {
      cs = perfetto_vec_at (&w->new_callstacks, Perfetto__Protos__Callstack, i);
      cs->frame_ids = &g_array_index (w->callstack_frames, guint64, at);
      at += cs->n_frame_ids;
    }
  at = 0;
  for (guint i = 0; i < w->new_mappings.len; i++)
    {
      m = perfetto_vec_at (&w->new_mappings, Perfetto__Protos__Mapping, i);
      m->path_string_ids = &g_array_index (w->mapping_paths, guint64, at);
      at += m->n_path_string_ids;
    }
  w->pkt.interned_data = d;
}

/**
 * perfetto_packet_emit:
 * @w: a #PerfettoWriter
 * @ts: the packet's timestamp
 * @has_ts: whether to write @ts
 * @needs_state: whether the packet refers to interned data
 *
 * Completes the packet in `w->pkt` (whose payload the caller set) with
 * the sequence fields and the interned data gathered since
 * perfetto_packet_begin(), appends it to the output and resets it.
 */
void
perfetto_packet_emit (PerfettoWriter *w,
                      gint64 ts,
                      gboolean has_ts,
                      gboolean needs_state)
{
  Perfetto__Protos__TracePacketDefaults defaults; /* set where the state is cleared */
  PerfettoPacket *pkt = &w->pkt;
  guint32 flags = needs_state ? PERFETTO_SEQ_NEEDS : 0;
  gsize len;

  /* A packet of a sample sequence comes with its id and flags set. */
  if (pkt->has_trusted_packet_sequence_id)
    flags |= pkt->sequence_flags;
  pkt->has_trusted_packet_sequence_id = TRUE;
  if (pkt->trusted_packet_sequence_id == 0)
    pkt->trusted_packet_sequence_id = w->opts.sequence_id;
  if (w->need_clear && pkt->trusted_packet_sequence_id == w->opts.sequence_id)
    {
      /* Defaults are incremental state too: restate the clock with them,
       * and on this packet itself, whose timestamp a reader may convert
       * before it applies the defaults. */
      flags |= PERFETTO_SEQ_CLEARED;
      perfetto__protos__trace_packet_defaults__init (&defaults);
      defaults.has_timestamp_clock_id = TRUE;
      defaults.timestamp_clock_id = w->builtin_clock;
      pkt->trace_packet_defaults = &defaults;
      pkt->has_timestamp_clock_id = TRUE;
      pkt->timestamp_clock_id = w->builtin_clock;
      pkt->has_first_packet_on_sequence = w->stats.packets == 0;
      pkt->first_packet_on_sequence = w->stats.packets == 0;
      w->need_clear = FALSE;
    }
  if (flags)
    {
      pkt->has_sequence_flags = TRUE;
      pkt->sequence_flags = flags;
    }
  if (has_ts)
    {
      pkt->has_timestamp = TRUE;
      pkt->timestamp = perfetto_timestamp (w, ts);
      w->last_ts = ts;
    }
  if (w->packet_has_interned)
    perfetto_attach_interned (w);

  /* The hot packets are streamed, the rest packed by protobuf-c: the
   * same bytes as a one-packet Trace (perfetto-writer-wire.c). */
  len = w->obuf.len;
  perfetto_wire_append_record (&w->obuf, pkt, &w->ann_wire);
  w->stats.packets++;
  w->stats.bytes += w->obuf.len - len;
  perfetto_packet_reset (w);
}

/* compress=true: the records buffered, a run of Trace.packet records,
 * become one TracePacket whose compressed_packets is their deflated
 * (zlib) form; the reader inflates it back to the same records. */
static gboolean
perfetto_compress_output (PerfettoWriter *w)
{
  Perfetto__Protos__Trace trace = PERFETTO__PROTOS__TRACE__INIT;
  PerfettoPacket outer = PERFETTO__PROTOS__TRACE_PACKET__INIT;
  PerfettoPacket *outer_ptr = &outer;
  uLongf zlen = compressBound (w->obuf.len);

  g_byte_array_set_size (w->zbuf, zlen);
  if (compress2 (w->zbuf->data, &zlen, w->obuf.data, w->obuf.len, Z_DEFAULT_COMPRESSION) != Z_OK)
    return FALSE;
  outer.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_COMPRESSED_PACKETS;
  outer.compressed_packets.data = w->zbuf->data;
  outer.compressed_packets.len = zlen;
  trace.n_packet = 1;
  trace.packet = &outer_ptr;
  g_byte_array_set_size (w->zpacket, perfetto__protos__trace__get_packed_size (&trace));
  perfetto__protos__trace__pack (&trace, w->zpacket->data);
  /* bytes-written is what reaches the file */
  w->stats.bytes = w->stats.bytes - w->obuf.len + w->zpacket->len;
  return TRUE;
}

/**
 * perfetto_writer_flush_output:
 * @w: a #PerfettoWriter
 * @error: return location for a #GError
 *
 * Writes the records buffered to the stream (with compress=true, as one
 * compressed_packets run). The buffer holds whole records only, so the
 * stream then ends at a packet boundary; what the writer holds back
 * (ends of complete slices not yet due, JSON events waiting for their
 * order) stays held. The stream itself is not flushed.
 *
 * Returns: %FALSE if writing failed
 */
gboolean
perfetto_writer_flush_output (PerfettoWriter *w,
                              GError **error)
{
  g_autoptr (GError) local = NULL;
  const guint8 *data = w->obuf.data;
  gsize len = w->obuf.len;

  if (w->obuf.len == 0)
    return TRUE;
  if (w->opts.compress)
    {
      if (!perfetto_compress_output (w))
        {
          w->failed = TRUE;
          g_set_error_literal (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_FAILED,
                               "Could not write the Perfetto trace: deflate failed");
          return FALSE;
        }
      data = w->zpacket->data, len = w->zpacket->len;
    }
  if (!g_output_stream_write_all (w->out, data, len, NULL, NULL, &local))
    {
      gboolean full = g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NO_SPACE);

      w->failed = TRUE;
      g_set_error (error, TRACE_RESOURCE_ERROR,
                   full ? TRACE_RESOURCE_ERROR_NO_SPACE_LEFT : TRACE_RESOURCE_ERROR_WRITE,
                   "Could not write the Perfetto trace: %s", local->message);
      return FALSE;
    }
  w->obuf.len = 0;
  return TRUE;
}
