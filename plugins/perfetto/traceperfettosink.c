/* tracepipe - perfetto-sink: Perfetto protobuf traces
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "perfetto-private.h"

/**
 * TracePerfettoSink:
 *
 * Writes a Perfetto trace packet by packet, in constant memory: track
 * descriptors before first use, TrackEvent slices, instants, counters and
 * flows with interned names, kernel records as ftrace event bundles so
 * the UI shows CPU tracks and thread states, CPU samples as callstack
 * samples. The file appears at `location` once complete. See
 * docs/perfetto.md.
 *
 * ```
 * trace-launch auto-src location=trace.json ! perfetto-sink location=trace.pftrace compress=true
 * ```
 */
struct _TracePerfettoSink
{
  TraceFileSink parent_instance;

  /* the properties; the writer takes them with what the stream says */
  PerfettoWriterOptions opts;
  PerfettoThreadTimeMode thread_time; /* decides the writer's thread_time */
};

enum
{
  PROP_0,
  PROP_FTRACE,
  PROP_INTERN,
  PROP_COMPACT_SCHED,
  PROP_THREAD_TIME,
  PROP_COMPRESS,
  PROP_MAX_THREADS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* TRUE and FALSE keep their values, so that g_object_set() with a
 * boolean, as before this was an enum, still means what it did. */
static GType
thread_time_mode_get_type (void)
{
  static gsize type;
  static const GEnumValue values[] = {
    { PERFETTO_THREAD_TIME_FALSE, "PERFETTO_THREAD_TIME_FALSE", "false" },
    { PERFETTO_THREAD_TIME_TRUE, "PERFETTO_THREAD_TIME_TRUE", "true" },
    { PERFETTO_THREAD_TIME_AUTO, "PERFETTO_THREAD_TIME_AUTO", "auto" },
    { 0, NULL, NULL },
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("TracePerfettoThreadTime", values));
  return type;
}

G_DEFINE_FINAL_TYPE (TracePerfettoSink, trace_perfetto_sink, TRACE_TYPE_FILE_SINK)

/* The properties, and what the stream says: its clock and the facts the
 * writer follows (trace_processor reads each kind of input its own way). */
static gpointer
trace_perfetto_sink_new_writer (TraceFileSink *sink,
                                GOutputStream *stream,
                                const TraceStreamInfo *info)
{
  TracePerfettoSink *self = TRACE_PERFETTO_SINK (sink);
  PerfettoWriterOptions opts = self->opts;

  if (info)
    {
      /* unknown is written as BOOTTIME, as the writer's default */
      opts.clock = info->clock_domain;
      /* trace_processor orders a JSON trace's slices its own way; the
       * writer must decide nesting in that order to read the same. */
      opts.json_order = (info->flags & TRACE_STREAM_FLAG_JSON_ORDER) != 0;
      /* Thread time becomes counters trace_processor shows: as in a
       * Perfetto original, not in a JSON one (docs/perfetto.md, "Thread
       * time"). */
      opts.thread_time = self->thread_time == PERFETTO_THREAD_TIME_TRUE ||
                         (self->thread_time == PERFETTO_THREAD_TIME_AUTO &&
                          (info->flags & TRACE_STREAM_FLAG_NATIVE_THREAD_TIME));
      /* it makes IRQ slices of typed interrupt events only, never of text */
      opts.proto_kernel_events = (info->flags & TRACE_STREAM_FLAG_TYPED_KERNEL_EVENTS) != 0;
      /* events in file order, which trace_processor sorts by time */
      opts.perfetto_order = (info->flags & TRACE_STREAM_FLAG_SEQUENCE_ORDER) != 0;
    }
  return perfetto_writer_new (stream, &opts);
}

/* The stream's metadata, which may have come after the events. */
static gboolean
trace_perfetto_sink_finish_writer (TraceFileSink *sink,
                                   gpointer writer,
                                   const TraceStreamInfo *info,
                                   GError **error)
{
  PerfettoWriterStats s;

  perfetto_writer_set_metadata (writer, info ? info->metadata : NULL);
  if (!perfetto_writer_finish (writer, error))
    return FALSE;
  perfetto_writer_get_stats (writer, &s);
  /* not dropped, but not what the input said either */
  if (s.mapped_ids > 0)
    trace_element_post_warning (TRACE_ELEMENT (sink), NULL,
                                "%s: %" G_GUINT64_FORMAT " pids and tids do not fit Perfetto's 32 bits: written as "
                                "ids of their own, from 2147483647 down (%" G_GINT64_FORMAT " as %" G_GINT64_FORMAT ")",
                                trace_file_sink_get_location (sink), s.mapped_ids, s.first_mapped_id,
                                s.first_mapped_as);
  return TRUE;
}

/* The writer's drops, by the reasons every sink shares (their words and
 * stats keys are core's). */
static void
trace_perfetto_sink_get_drops (TraceFileSink *sink,
                               gpointer writer,
                               GArray *drops)
{
  PerfettoWriterStats s;

  perfetto_writer_get_stats (writer, &s);
  const guint64 counts[TRACE_SINK_DROP_N_REASONS] = {
    [TRACE_SINK_DROP_UNMATCHED_END] = s.dropped_unmatched_end,
    [TRACE_SINK_DROP_UNMATCHED_ASYNC_END] = s.dropped_unmatched_async_end,
    [TRACE_SINK_DROP_REPEATED_LEGACY_BEGIN] = s.dropped_repeated_legacy_begin,
    [TRACE_SINK_DROP_KERNEL] = s.dropped_kernel,
    [TRACE_SINK_DROP_SWITCHES_WITHOUT_PREV] = s.dropped_switches_without_prev,
    [TRACE_SINK_DROP_UNKNOWN_STACK_NODE] = s.dropped_unknown_stack_node,
    [TRACE_SINK_DROP_CLOCK_MARKER] = s.dropped_clock_marker,
    [TRACE_SINK_DROP_OTHER] = s.dropped_other,
    [TRACE_SINK_DROP_THREAD_TABLE_FULL] = s.dropped_thread_table,
  };

  trace_sink_drops_append (drops, counts);
}

static void
trace_perfetto_sink_collect_stats (TraceElement *element,
                                   GVariantDict *dict)
{
  PerfettoWriter *writer = trace_file_sink_get_writer (TRACE_FILE_SINK (element));
  PerfettoWriterStats s;

  /* the drops among them */
  TRACE_ELEMENT_CLASS (trace_perfetto_sink_parent_class)->collect_stats (element, dict);
  if (writer == NULL)
    return;
  perfetto_writer_get_stats (writer, &s);
  g_variant_dict_insert (dict, "packets", "t", s.packets);
  g_variant_dict_insert (dict, "bytes-written", "t", s.bytes);
  g_variant_dict_insert (dict, "track-events", "t", s.track_events);
  g_variant_dict_insert (dict, "ftrace-events", "t", s.ftrace_events);
  if (s.spilled_complete)
    g_variant_dict_insert (dict, "spilled-complete-slices", "t", s.spilled_complete);
  if (s.ignored_json_legacy_async)
    g_variant_dict_insert (dict, "ignored-json-legacy-async", "t", s.ignored_json_legacy_async);
  if (s.late_events)
    g_variant_dict_insert (dict, "late-events", "t", s.late_events);
  if (s.closed_open_slices)
    g_variant_dict_insert (dict, "closed-open-slices", "t", s.closed_open_slices);
  if (s.records)
    g_variant_dict_insert (dict, "opaque-packets", "t", s.records);
  if (s.dropped_late_utsname)
    g_variant_dict_insert (dict, "late-utsname-dropped", "t", s.dropped_late_utsname);
  if (s.mapped_ids)
    g_variant_dict_insert (dict, "mapped-ids", "t", s.mapped_ids);
}

static void
trace_perfetto_sink_set_property (GObject *object,
                                  guint prop_id,
                                  const GValue *value,
                                  GParamSpec *pspec)
{
  TracePerfettoSink *self = TRACE_PERFETTO_SINK (object);

  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  switch (prop_id)
    {
    case PROP_FTRACE:
      self->opts.emit_ftrace = g_value_get_boolean (value);
      break;
    case PROP_INTERN:
      self->opts.intern = g_value_get_boolean (value);
      break;
    case PROP_THREAD_TIME:
      self->thread_time = g_value_get_enum (value);
      break;
    case PROP_COMPACT_SCHED:
      self->opts.compact_sched = g_value_get_boolean (value);
      break;
    case PROP_COMPRESS:
      self->opts.compress = g_value_get_boolean (value);
      break;
    case PROP_MAX_THREADS:
      self->opts.max_threads = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_perfetto_sink_get_property (GObject *object,
                                  guint prop_id,
                                  GValue *value,
                                  GParamSpec *pspec)
{
  TracePerfettoSink *self = TRACE_PERFETTO_SINK (object);

  switch (prop_id)
    {
    case PROP_FTRACE:
      g_value_set_boolean (value, self->opts.emit_ftrace);
      break;
    case PROP_INTERN:
      g_value_set_boolean (value, self->opts.intern);
      break;
    case PROP_THREAD_TIME:
      g_value_set_enum (value, self->thread_time);
      break;
    case PROP_COMPACT_SCHED:
      g_value_set_boolean (value, self->opts.compact_sched);
      break;
    case PROP_COMPRESS:
      g_value_set_boolean (value, self->opts.compress);
      break;
    case PROP_MAX_THREADS:
      g_value_set_uint (value, self->opts.max_threads);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_perfetto_sink_class_init (TracePerfettoSinkClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceBaseSinkClass *sink_class = TRACE_BASE_SINK_CLASS (klass);
  TraceFileSinkClass *file_sink_class = TRACE_FILE_SINK_CLASS (klass);
  /* all read when the first data creates the writer */
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | TRACE_PARAM_MUTABLE_READY;

  object_class->set_property = trace_perfetto_sink_set_property;
  object_class->get_property = trace_perfetto_sink_get_property;
  file_sink_class->new_writer = trace_perfetto_sink_new_writer;
  file_sink_class->write_batch = (TraceFileSinkWriteFunc) perfetto_writer_write_batch;
  file_sink_class->finish_writer = trace_perfetto_sink_finish_writer;
  file_sink_class->free_writer = (GDestroyNotify) perfetto_writer_free;
  file_sink_class->flush_writer = (TraceFileSinkFlushFunc) perfetto_writer_flush_output;
  file_sink_class->get_drops = trace_perfetto_sink_get_drops;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = trace_perfetto_sink_collect_stats;
  trace_base_sink_class_set_reads_arg_text (sink_class, TRUE);
  /* The value-less args are passed over where args are read
   * (trace_arg_is_shape()), as trace_processor shows no row for them:
   * having the base class remove them was a pass over every arg of every
   * batch, 2 % of a Chrome-shaped conversion. Only json-src makes them. */
  trace_base_sink_class_set_keeps_arg_shape (sink_class, TRUE);

  properties[PROP_FTRACE] = g_param_spec_boolean ("ftrace", "Ftrace", "Write kernel records as ftrace event bundles "
                                                                      "(off: drop them, TrackEvent only)",
                                                  DEFAULT_FTRACE, rw);
  properties[PROP_INTERN] = g_param_spec_boolean ("intern", "Intern", "Intern names and categories "
                                                                      "(off: inline strings, for debugging)",
                                                  DEFAULT_INTERN, rw);
  properties[PROP_THREAD_TIME] =
      g_param_spec_enum ("thread-time", "Thread time",
                         "Write slices' thread time as a thread_time counter of the thread, which trace_processor "
                         "also takes as the slices' thread_ts/thread_dur: true, false, or auto (for a stream read "
                         "from Perfetto, whose thread time made those counters already)",
                         thread_time_mode_get_type (), PERFETTO_THREAD_TIME_AUTO, rw);
  properties[PROP_COMPACT_SCHED] = g_param_spec_boolean ("compact-sched", "Compact sched",
                                                         "Write sched_switch/sched_waking in Perfetto's compact form",
                                                         DEFAULT_COMPACT_SCHED, rw);
  /* Perfetto's own compression, inside the trace: unlike a .gz location,
   * the file stays a trace that trace_processor and the UI open as is. */
  properties[PROP_COMPRESS] = g_param_spec_boolean ("compress", "Compress",
                                                    "Deflate the packets into Perfetto's compressed_packets "
                                                    "(read by trace_processor and the UI)",
                                                    DEFAULT_COMPRESS, rw);
  /* Bounds the writer's per-thread state (open slices, lanes, sample
   * sequences) whatever the input's tids. */
  properties[PROP_MAX_THREADS] =
      g_param_spec_uint ("max-threads", "Max threads",
                         "Threads the sink keeps state for; events of further threads are dropped and counted",
                         1, G_MAXUINT, DEFAULT_MAX_THREADS, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Perfetto sink", "Sink/Trace",
                                    "Writes a Perfetto protobuf trace (TrackEvent and ftrace bundles)", "tracepipe");
}

static void
trace_perfetto_sink_init (TracePerfettoSink *self)
{
  /* the DEFAULT_ of every property, and the writer's own defaults */
  perfetto_writer_options_init (&self->opts);
  self->thread_time = PERFETTO_THREAD_TIME_AUTO;
}

TRACE_ELEMENT_REGISTER_DEFINE (perfetto_sink, "perfetto-sink", TRACE_RANK_PRIMARY, TRACE_TYPE_PERFETTO_SINK)
