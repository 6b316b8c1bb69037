/* tracepipe - htrace-src: OpenHarmony hiprofiler captures
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "htrace-private.h"

/**
 * TraceHtraceSrc:
 *
 * Reads OpenHarmony htrace files (hiprofiler and DevEco Studio captures:
 * an `OHOSPROF` header and one record a plugin result): the system
 * monitor's CPU, memory, disk and network figures as counters and its
 * process list as names, hitrace's kernel events as ftrace-src reads
 * them (through the same ftrace text engine), FFRT task markers as
 * slices and task-state
 * instants, native-hook allocations as live bytes per process, the ArkTS
 * plugin's JS-memory and CPU-profiler messages as arkts-src reads them
 * (through the same ArkTS engine). Records
 * of other plugins are counted by plugin name in its STATS and reported
 * in one WARNING at the end (docs/htrace.md).
 *
 * ```
 * trace-launch htrace-src location=capture.htrace ! perfetto-sink location=out.pftrace
 * ```
 */
struct _TraceHtraceSrc
{
  TraceFileSrc parent_instance;

  HtraceReader *reader;
  HtraceReaderStats stats; /* the reader's, as of the last get_stats */
};

G_DEFINE_FINAL_TYPE (TraceHtraceSrc, trace_htrace_src, TRACE_TYPE_FILE_SRC)

/* The reader's counters, one per skip reason, one per problem of the
 * FFRT marker lines; filled in class_init. */
#define N_FIXED_STATS 8
static TraceFileSrcStat htrace_src_stats[N_FIXED_STATS + HTRACE_SKIP_N + FTRACE_PROBLEM_N] = {
  { "bytes-read", G_STRUCT_OFFSET (HtraceReaderStats, bytes_read), TRUE },
  { "records", G_STRUCT_OFFSET (HtraceReaderStats, records), TRUE },
  { "config-records", G_STRUCT_OFFSET (HtraceReaderStats, config_records), TRUE },
  { "sysmon-records", G_STRUCT_OFFSET (HtraceReaderStats, sysmon_records), TRUE },
  { "ffrt-events", G_STRUCT_OFFSET (HtraceReaderStats, ffrt_events), TRUE },
  { "hook-events", G_STRUCT_OFFSET (HtraceReaderStats, hook_events), TRUE },
  { "arkts-messages", G_STRUCT_OFFSET (HtraceReaderStats, arkts_messages), TRUE },
  { "ftrace-events", G_STRUCT_OFFSET (HtraceReaderStats, ftrace_events), TRUE },
};

static void
init_stats (void)
{
  for (guint i = 0; i < HTRACE_SKIP_N; i++)
    {
      TraceFileSrcStat *stat = &htrace_src_stats[N_FIXED_STATS + i];

      stat->key = htrace_skip_get_key (i);
      stat->offset = G_STRUCT_OFFSET (HtraceReaderStats, skipped) + i * sizeof (guint64);
    }
  for (guint i = 0; i < FTRACE_PROBLEM_N; i++)
    {
      TraceFileSrcStat *stat = &htrace_src_stats[N_FIXED_STATS + HTRACE_SKIP_N + i];

      stat->key = ftrace_problem_get_key (i);
      stat->offset = G_STRUCT_OFFSET (HtraceReaderStats, ftrace.problems) + i * sizeof (guint64);
    }
}

static gboolean
trace_htrace_src_open (TraceFileSrc *src,
                       GInputStream *stream,
                       guint64 size,
                       GError **error)
{
  TraceHtraceSrc *self = TRACE_HTRACE_SRC (src);

  self->reader = htrace_reader_new (stream, trace_file_src_get_display_name (src), size,
                                    trace_element_get_string_pool (TRACE_ELEMENT (src)));
  return TRUE;
}

static gboolean
trace_htrace_src_read_batch (TraceFileSrc *src,
                             TraceBatch **out,
                             GError **error)
{
  return htrace_reader_read_batch (TRACE_HTRACE_SRC (src)->reader, out, error);
}

static void
trace_htrace_src_get_stream_info (TraceFileSrc *src,
                                  TraceStreamInfo *info)
{
  info->format = "htrace";
  info->clock_domain = htrace_reader_get_clock_domain (TRACE_HTRACE_SRC (src)->reader);
  info->clock_source = "htrace header";
}

static char *
trace_htrace_src_get_summary (TraceFileSrc *src)
{
  HtraceReader *reader = TRACE_HTRACE_SRC (src)->reader;

  return reader ? htrace_reader_get_summary (reader) : NULL; /* it names the file */
}

static gconstpointer
trace_htrace_src_get_stats (TraceFileSrc *src)
{
  TraceHtraceSrc *self = TRACE_HTRACE_SRC (src);

  if (self->reader == NULL)
    return NULL;
  htrace_reader_copy_stats (self->reader, &self->stats);
  return &self->stats;
}

static void
add_plugin_stat (gpointer key,
                 gpointer value,
                 gpointer user_data)
{
  g_autofree char *name = g_strconcat ("skipped-plugin-", (const char *) key, NULL);

  g_variant_dict_insert (user_data, name, "t", *(guint64 *) value);
}

/* Besides the fixed counters: the records skipped, by plugin name. */
static void
trace_htrace_src_collect_stats (TraceElement *element,
                                GVariantDict *dict)
{
  HtraceReader *reader = TRACE_HTRACE_SRC (element)->reader;

  TRACE_ELEMENT_CLASS (trace_htrace_src_parent_class)->collect_stats (element, dict);
  if (reader)
    htrace_reader_foreach_skipped_plugin (reader, add_plugin_stat, dict);
}

static void
trace_htrace_src_close (TraceFileSrc *src)
{
  g_clear_pointer (&TRACE_HTRACE_SRC (src)->reader, htrace_reader_free);
}

static void
trace_htrace_src_class_init (TraceHtraceSrcClass *klass)
{
  TraceFileSrcClass *file_src_class = TRACE_FILE_SRC_CLASS (klass);

  file_src_class->open = trace_htrace_src_open;
  file_src_class->read_batch = trace_htrace_src_read_batch;
  file_src_class->get_stream_info = trace_htrace_src_get_stream_info;
  file_src_class->get_summary = trace_htrace_src_get_summary;
  file_src_class->get_stats = trace_htrace_src_get_stats;
  file_src_class->close = trace_htrace_src_close;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = trace_htrace_src_collect_stats;
  init_stats ();
  trace_file_src_class_set_stats (file_src_class, htrace_src_stats, G_N_ELEMENTS (htrace_src_stats));
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "htrace source", "Source/Trace",
                                    "Reads OpenHarmony htrace captures (hiprofiler): system monitor, hitrace kernel "
                                    "events, FFRT, native hook, ArkTS",
                                    "tracepipe");
}

static void
trace_htrace_src_init (TraceHtraceSrc *self)
{
}

TRACE_ELEMENT_REGISTER_DEFINE (htrace_src, "htrace-src", TRACE_RANK_PRIMARY, TRACE_TYPE_HTRACE_SRC)
