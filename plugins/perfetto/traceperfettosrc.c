/* tracepipe - perfetto-src: Perfetto protobuf traces read back
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "perfetto-reader.h"
#include "traceperfettoelements.h"

/**
 * TracePerfettoSrc:
 *
 * Reads Perfetto protobuf traces packet by packet (at least all that
 * perfetto-sink writes: track descriptors, TrackEvent with interning,
 * ftrace bundles, process trees); unknown packets are counted and
 * skipped, a cut-off last packet is a warning.
 */
struct _TracePerfettoSrc
{
  TraceFileSrc parent_instance;

  PerfettoReader *reader;
};

G_DEFINE_FINAL_TYPE (TracePerfettoSrc, trace_perfetto_src, TRACE_TYPE_FILE_SRC)

static gboolean
trace_perfetto_src_open (TraceFileSrc *src,
                         GInputStream *stream,
                         guint64 size,
                         GError **error)
{
  TracePerfettoSrc *self = TRACE_PERFETTO_SRC (src);

  g_clear_pointer (&self->reader, perfetto_reader_free);
  self->reader = perfetto_reader_new (stream, trace_file_src_get_display_name (src),
                                      trace_element_get_string_pool (TRACE_ELEMENT (src)));
  return TRUE;
}

/* Metadata travels with the stream; it is written last (sent again,
 * then, replacing the stream-start). */
static void
announce_metadata (TraceBaseSrc *src,
                   PerfettoReader *reader)
{
  g_autofree char *metadata = perfetto_reader_get_metadata (reader);

  if (metadata)
    trace_base_src_set_stream_metadata (src, metadata);
}

static TraceFlowReturn
trace_perfetto_src_create (TraceBaseSrc *src,
                           TraceBatch **out,
                           GError **error)
{
  TracePerfettoSrc *self = TRACE_PERFETTO_SRC (src);
  gboolean first = trace_base_src_get_events_produced (src) == 0;

  if (!perfetto_reader_read_batch (self->reader, out, error))
    return TRACE_FLOW_ERROR;
  if (first)
    trace_base_src_set_stream_info (src, "perfetto", trace_file_src_get_location (TRACE_FILE_SRC (src)),
                                    perfetto_reader_get_clock_domain (self->reader), "timestamp_clock_id");
  announce_metadata (src, self->reader);
  trace_file_src_update_progress (TRACE_FILE_SRC (src));
  return *out ? TRACE_FLOW_OK : TRACE_FLOW_EOS;
}

static void
trace_perfetto_src_finish (TraceBaseSrc *src)
{
  TracePerfettoSrc *self = TRACE_PERFETTO_SRC (src);
  PerfettoReaderStats s;

  if (self->reader == NULL)
    return;
  perfetto_reader_get_stats (self->reader, &s);
  if (s.truncated_bytes)
    trace_element_post_warning (TRACE_ELEMENT (src), NULL,
                                "%s: the last packet is cut off at byte %" G_GUINT64_FORMAT
                                " (%" G_GUINT64_FORMAT " bytes skipped)",
                                trace_file_src_get_display_name (TRACE_FILE_SRC (src)), s.truncated_offset,
                                s.truncated_bytes);
  if (s.unknown_packets || s.unknown_track || s.unknown_iid || s.unsupported_events)
    trace_element_post_warning (TRACE_ELEMENT (src), NULL,
                                "%s: skipped %" G_GUINT64_FORMAT " unknown packets, %" G_GUINT64_FORMAT
                                " events on unknown tracks, %" G_GUINT64_FORMAT " with unknown interned ids, %" G_GUINT64_FORMAT " of unsupported kinds",
                                trace_file_src_get_display_name (TRACE_FILE_SRC (src)), s.unknown_packets,
                                s.unknown_track, s.unknown_iid, s.unsupported_events);
}

static gboolean
trace_perfetto_src_stop (TraceBaseSrc *src,
                         GError **error)
{
  g_clear_pointer (&TRACE_PERFETTO_SRC (src)->reader, perfetto_reader_free);
  return TRACE_BASE_SRC_CLASS (trace_perfetto_src_parent_class)->stop (src, error);
}

static void
trace_perfetto_src_collect_stats (TraceElement *element,
                                  GVariantDict *dict)
{
  TracePerfettoSrc *self = TRACE_PERFETTO_SRC (element);
  PerfettoReaderStats s;

  TRACE_ELEMENT_CLASS (trace_perfetto_src_parent_class)->collect_stats (element, dict);
  if (self->reader == NULL)
    return;
  perfetto_reader_get_stats (self->reader, &s);
  g_variant_dict_insert (dict, "bytes-read", "t", s.bytes);
  g_variant_dict_insert (dict, "packets", "t", s.packets);
  g_variant_dict_insert (dict, "skipped-unknown-packets", "t", s.unknown_packets);
  g_variant_dict_insert (dict, "skipped-unsupported-events", "t", s.unsupported_events);
  g_variant_dict_insert (dict, "truncated-bytes", "t", s.truncated_bytes);
}

static void
trace_perfetto_src_finalize (GObject *object)
{
  g_clear_pointer (&TRACE_PERFETTO_SRC (object)->reader, perfetto_reader_free);
  G_OBJECT_CLASS (trace_perfetto_src_parent_class)->finalize (object);
}

static void
trace_perfetto_src_class_init (TracePerfettoSrcClass *klass)
{
  TraceBaseSrcClass *src_class = TRACE_BASE_SRC_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = trace_perfetto_src_finalize;
  TRACE_FILE_SRC_CLASS (klass)->open = trace_perfetto_src_open;
  src_class->create = trace_perfetto_src_create;
  src_class->finish = trace_perfetto_src_finish;
  src_class->stop = trace_perfetto_src_stop;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = trace_perfetto_src_collect_stats;
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Perfetto source", "Source/Trace",
                                    "Reads Perfetto protobuf traces", "tracepipe");
}

static void
trace_perfetto_src_init (TracePerfettoSrc *self)
{
}

TRACE_ELEMENT_REGISTER_DEFINE (perfetto_src, "perfetto-src", TRACE_RANK_PRIMARY, TRACE_TYPE_PERFETTO_SRC)
