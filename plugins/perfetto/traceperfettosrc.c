/* tracepipe - perfetto-src: Perfetto protobuf traces read back
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "perfetto-private.h"

/**
 * TracePerfettoSrc:
 *
 * Reads Perfetto protobuf traces packet by packet (at least all that
 * perfetto-sink writes: track descriptors, TrackEvent with interning,
 * ftrace bundles, process trees); unknown packets are counted and
 * skipped, a cut-off last packet is a warning.
 *
 * ```
 * trace-launch perfetto-src location=trace.pftrace ! json-sink location=trace.json
 * ```
 */
struct _TracePerfettoSrc
{
  TraceFileSrc parent_instance;

  PerfettoReader *reader;
  PerfettoReaderStats stats; /* the reader's, as of the last get_stats */
};

G_DEFINE_FINAL_TYPE (TracePerfettoSrc, trace_perfetto_src, TRACE_TYPE_FILE_SRC)

static const TraceFileSrcStat perfetto_src_stats[] = {
  { "bytes-read", G_STRUCT_OFFSET (PerfettoReaderStats, bytes), TRUE },
  { "packets", G_STRUCT_OFFSET (PerfettoReaderStats, packets), TRUE },
  { "skipped-unknown-packets", G_STRUCT_OFFSET (PerfettoReaderStats, unknown_packets), TRUE },
  { "skipped-unsupported-events", G_STRUCT_OFFSET (PerfettoReaderStats, unsupported_events), TRUE },
  { "opaque-ftrace-events", G_STRUCT_OFFSET (PerfettoReaderStats, opaque_ftrace), FALSE },
  { "opaque-packets", G_STRUCT_OFFSET (PerfettoReaderStats, opaque_packets), FALSE },
  { "late-system-info", G_STRUCT_OFFSET (PerfettoReaderStats, late_system_info), FALSE },
  { "unread-fields", G_STRUCT_OFFSET (PerfettoReaderStats, unread_fields), FALSE },
  { "truncated-bytes", G_STRUCT_OFFSET (PerfettoReaderStats, truncated_bytes), TRUE },
  { "atrace-markers", G_STRUCT_OFFSET (PerfettoReaderStats, atrace_markers), TRUE },
  { "skipped-events-without-cpu", G_STRUCT_OFFSET (PerfettoReaderStats, no_cpu_events), FALSE },
  { "skipped-packets-without-state", G_STRUCT_OFFSET (PerfettoReaderStats, no_incremental_state), FALSE },
  { "skipped-sequence-states", G_STRUCT_OFFSET (PerfettoReaderStats, dropped_sequences), FALSE },
  { "skipped-flow-ids", G_STRUCT_OFFSET (PerfettoReaderStats, extra_flows), FALSE },
};

static gboolean
trace_perfetto_src_open (TraceFileSrc *src,
                         GInputStream *stream,
                         guint64 size,
                         GError **error)
{
  TracePerfettoSrc *self = TRACE_PERFETTO_SRC (src);

  self->reader = perfetto_reader_new (stream, trace_file_src_get_display_name (src),
                                      trace_element_get_string_pool (TRACE_ELEMENT (src)));
  return TRUE;
}

/* Metadata travels with the stream; it is written last (sent again,
 * then, replacing the stream-start). */
static gboolean
trace_perfetto_src_read_batch (TraceFileSrc *src,
                               TraceBatch **out,
                               GError **error)
{
  TracePerfettoSrc *self = TRACE_PERFETTO_SRC (src);
  g_autofree char *metadata = NULL;

  if (!perfetto_reader_read_batch (self->reader, out, error))
    return FALSE;
  if ((metadata = perfetto_reader_get_metadata (self->reader)) != NULL)
    trace_base_src_set_stream_metadata (TRACE_BASE_SRC (src), metadata);
  return TRUE;
}

static void
trace_perfetto_src_get_stream_info (TraceFileSrc *src,
                                    TraceStreamInfo *info)
{
  info->format = "perfetto";
  info->clock_domain = perfetto_reader_get_clock_domain (TRACE_PERFETTO_SRC (src)->reader);
  info->clock_source = "timestamp_clock_id";
  /* Chrome's traces name their main threads in thread descriptors; the
   * reader decodes ftrace events typed, thread time from its counter
   * tracks, and hands the packets on in the file's order */
  info->flags = TRACE_STREAM_FLAG_MAIN_THREADS_NAMED | TRACE_STREAM_FLAG_SEQUENCE_ORDER |
                TRACE_STREAM_FLAG_TYPED_KERNEL_EVENTS | TRACE_STREAM_FLAG_NATIVE_THREAD_TIME;
}

static gconstpointer
trace_perfetto_src_get_stats (TraceFileSrc *src)
{
  TracePerfettoSrc *self = TRACE_PERFETTO_SRC (src);

  if (self->reader == NULL)
    return NULL;
  perfetto_reader_get_stats (self->reader, &self->stats);
  return &self->stats;
}

static char *
trace_perfetto_src_get_summary (TraceFileSrc *src)
{
  const PerfettoReaderStats *s = trace_perfetto_src_get_stats (src);

  if (s == NULL || s->truncated_bytes == 0)
    return NULL;
  return g_strdup_printf ("%s: the last packet is cut off at byte %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT
                          " bytes skipped)",
                          trace_file_src_get_display_name (src), s->truncated_offset, s->truncated_bytes);
}

/* "N what" after the ones before it, when N is not 0 */
static void
append_count (GString *line,
              guint64 n,
              const char *what)
{
  if (n == 0)
    return;
  g_string_append_printf (line, "%s%" G_GUINT64_FORMAT " %s", line->len ? ", " : "", n, what);
}

/* Besides the summary: what was read but has no place in the model, and
 * what was kept although it is not what the trace meant (the counts that
 * are not 0). */
static void
trace_perfetto_src_finish (TraceBaseSrc *src)
{
  const PerfettoReaderStats *s;
  g_autoptr (GString) skipped = g_string_new (NULL);
  g_autoptr (GString) kept = g_string_new (NULL);
  g_autofree char *unsupported = NULL;

  TRACE_BASE_SRC_CLASS (trace_perfetto_src_parent_class)->finish (src);
  s = trace_perfetto_src_get_stats (TRACE_FILE_SRC (src));
  if (s == NULL)
    return;
  append_count (skipped, s->unknown_packets, "unknown packets");
  append_count (skipped, s->unknown_iid, "events with unknown interned ids");
  append_count (skipped, s->unsupported_events, "events of unsupported kinds");
  /* which kinds: a count alone tells a user nothing to act on */
  if ((unsupported = perfetto_reader_describe_unsupported (TRACE_PERFETTO_SRC (src)->reader)) != NULL)
    g_string_append_printf (skipped, " (%s)", unsupported);
  append_count (skipped, s->no_cpu_events, "ftrace events of bundles without a cpu");
  append_count (skipped, s->dropped_sequences, "states of packet sequences (more than 65536 held state at once)");
  append_count (skipped, s->no_incremental_state, "packets needing interned data their sequence did not hold");
  append_count (kept, s->unknown_track, "events on unknown tracks (as global ones)");
  append_count (kept, s->other_clock, "packets on a clock no snapshot ties to the trace's (their times as they are)");
  if (skipped->len > 0 || kept->len > 0)
    trace_element_post_warning (TRACE_ELEMENT (src), NULL, "%s: %s%s%s%s%s", trace_file_src_get_display_name (TRACE_FILE_SRC (src)),
                                skipped->len ? "skipped " : "", skipped->str, skipped->len && kept->len ? "; " : "",
                                kept->len ? "kept " : "", kept->str);
}

static void
add_packet_kind_stat (guint32 field,
                      const PerfettoPacketKindCount *count,
                      gpointer user_data)
{
  char buf[32];
  const char *kind = field ? perfetto_packet_kind_name (field, buf, sizeof buf) : "other-kinds";
  g_autofree char *carried = g_strconcat ("opaque-packets-", kind, NULL);
  g_autofree char *skipped = g_strconcat ("skipped-packets-", kind, NULL);
  g_autofree char *unread = g_strconcat ("unread-fields-", kind, NULL);

  if (count->carried)
    g_variant_dict_insert (user_data, carried, "t", count->carried);
  if (count->skipped)
    g_variant_dict_insert (user_data, skipped, "t", count->skipped);
  if (count->unread_fields)
    g_variant_dict_insert (user_data, unread, "t", count->unread_fields);
}

/* Besides the fixed counters: the packets of kinds the subset does not
 * declare, carried or skipped, by kind. */
static void
trace_perfetto_src_collect_stats (TraceElement *element,
                                  GVariantDict *dict)
{
  PerfettoReader *reader = TRACE_PERFETTO_SRC (element)->reader;

  TRACE_ELEMENT_CLASS (trace_perfetto_src_parent_class)->collect_stats (element, dict);
  if (reader)
    perfetto_reader_foreach_packet_kind (reader, add_packet_kind_stat, dict);
}

static void
trace_perfetto_src_close (TraceFileSrc *src)
{
  g_clear_pointer (&TRACE_PERFETTO_SRC (src)->reader, perfetto_reader_free);
}

static void
trace_perfetto_src_class_init (TracePerfettoSrcClass *klass)
{
  TraceFileSrcClass *file_src_class = TRACE_FILE_SRC_CLASS (klass);

  file_src_class->open = trace_perfetto_src_open;
  file_src_class->read_batch = trace_perfetto_src_read_batch;
  file_src_class->get_stream_info = trace_perfetto_src_get_stream_info;
  file_src_class->get_summary = trace_perfetto_src_get_summary;
  file_src_class->get_stats = trace_perfetto_src_get_stats;
  file_src_class->close = trace_perfetto_src_close;
  trace_file_src_class_set_stats (file_src_class, perfetto_src_stats, G_N_ELEMENTS (perfetto_src_stats));
  TRACE_BASE_SRC_CLASS (klass)->finish = trace_perfetto_src_finish;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = trace_perfetto_src_collect_stats;
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Perfetto source", "Source/Trace",
                                    "Reads Perfetto protobuf traces", "tracepipe");
}

static void
trace_perfetto_src_init (TracePerfettoSrc *self)
{
}

TRACE_ELEMENT_REGISTER_DEFINE (perfetto_src, "perfetto-src", TRACE_RANK_PRIMARY, TRACE_TYPE_PERFETTO_SRC)
