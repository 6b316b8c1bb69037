/* tracepipe - arkts-src: OpenHarmony ArkTS / V8 heap and CPU profiles
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "arkts-private.h"

/**
 * TraceArktsSrc:
 *
 * Reads OpenHarmony ArkTS JS profiler data and the V8 DevTools files it
 * is made of: the chunked message stream of heap snapshots and the heap
 * timeline, `.heapsnapshot`, `.heaptimeline`, `.cpuprofile` and sampling
 * heap profiles, plain or gzip. CPU samples become nested slices of the
 * sampled stacks (and samples); heap data becomes counters over time and
 * a summary per snapshot. See docs/arkts.md.
 *
 * ```
 * trace-launch arkts-src location=app.heapsnapshot top=20 ! perfetto-sink location=app.pftrace
 * trace-launch arkts-src location=profiler.json pid=1234 mode=timeline start-time=1.5s ! fakesink dump=true
 * ```
 */
struct _TraceArktsSrc
{
  TraceFileSrc parent_instance;

  ArktsReaderOptions opts; /* the properties, handed to the reader at open */
  ArktsReader *reader;
};

enum
{
  PROP_0,
  PROP_PID,
  PROP_TID,
  PROP_MODE,
  PROP_START_TIME,
  PROP_SNAPSHOT_INTERVAL,
  PROP_CPU_PROFILER_INTERVAL,
  PROP_TOP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The counters are the reader's; a skip reason is said only when it
 * happened. The keys are "skipped-" and the reason's name with its
 * spaces as dashes (arkts_skip_reason_to_string()). */
#define SKIPPED(key, reason)                                                         \
  {                                                                                  \
    "skipped-" key, G_STRUCT_OFFSET (ArktsReaderStats, skipped[reason].count), FALSE \
  }

static const TraceFileSrcStat arkts_src_stats[] = {
  { "bytes-read", G_STRUCT_OFFSET (ArktsReaderStats, bytes), TRUE },
  { "messages", G_STRUCT_OFFSET (ArktsReaderStats, messages), TRUE },
  { "snapshots", G_STRUCT_OFFSET (ArktsReaderStats, snapshots), TRUE },
  { "cpu-samples", G_STRUCT_OFFSET (ArktsReaderStats, samples), TRUE },
  SKIPPED ("malformed-message", ARKTS_SKIP_MALFORMED_MESSAGE),
  SKIPPED ("unknown-method", ARKTS_SKIP_UNKNOWN_METHOD),
  SKIPPED ("unknown-result", ARKTS_SKIP_UNKNOWN_RESULT),
  SKIPPED ("bad-chunk", ARKTS_SKIP_BAD_CHUNK),
  SKIPPED ("truncated-snapshot", ARKTS_SKIP_TRUNCATED_SNAPSHOT),
  SKIPPED ("malformed-snapshot", ARKTS_SKIP_MALFORMED_SNAPSHOT),
  SKIPPED ("bad-heap-node", ARKTS_SKIP_BAD_NODE),
  SKIPPED ("bad-heap-edge", ARKTS_SKIP_BAD_EDGE),
  SKIPPED ("count-mismatch", ARKTS_SKIP_COUNT_MISMATCH),
  SKIPPED ("bad-profile", ARKTS_SKIP_BAD_PROFILE),
  SKIPPED ("bad-profile-node", ARKTS_SKIP_BAD_PROFILE_NODE),
  SKIPPED ("bad-sample", ARKTS_SKIP_BAD_SAMPLE),
  SKIPPED ("bad-heap-stats", ARKTS_SKIP_BAD_STATS),
  SKIPPED ("trailing-data", ARKTS_SKIP_TRAILING_DATA),
};

G_STATIC_ASSERT (G_N_ELEMENTS (arkts_src_stats) == 4 + ARKTS_SKIP_N_REASONS);

G_DEFINE_FINAL_TYPE (TraceArktsSrc, trace_arkts_src, TRACE_TYPE_FILE_SRC)

static GType
mode_get_type (void)
{
  static gsize type;
  static const GEnumValue values[] = {
    { ARKTS_MODE_AUTO, "ARKTS_MODE_AUTO", "auto" },
    { ARKTS_MODE_SNAPSHOT, "ARKTS_MODE_SNAPSHOT", "snapshot" },
    { ARKTS_MODE_TIMELINE, "ARKTS_MODE_TIMELINE", "timeline" },
    { 0, NULL, NULL },
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("TraceArktsMode", values));
  return type;
}

static gboolean
trace_arkts_src_open (TraceFileSrc *src,
                      GInputStream *stream,
                      guint64 size,
                      GError **error)
{
  TraceArktsSrc *self = TRACE_ARKTS_SRC (src);

  self->reader = arkts_reader_new (stream, trace_file_src_get_display_name (src),
                                   trace_element_get_string_pool (TRACE_ELEMENT (src)), &self->opts);
  g_debug ("%s: reading %s (%" G_GUINT64_FORMAT " bytes)", trace_element_get_name (TRACE_ELEMENT (src)),
           trace_file_src_get_display_name (src), size);
  return TRUE;
}

static gboolean
trace_arkts_src_read_batch (TraceFileSrc *src,
                            TraceBatch **out,
                            GError **error)
{
  return arkts_reader_read_batch (TRACE_ARKTS_SRC (src)->reader, out, error);
}

/* The kind is known after the first batch, when the base asks. */
static void
trace_arkts_src_get_stream_info (TraceFileSrc *src,
                                 TraceStreamInfo *info)
{
  ArktsReader *reader = TRACE_ARKTS_SRC (src)->reader;

  /* a static name: TraceStreamInfo's fields are not const, but only read */
  info->format = (char *) arkts_input_kind_to_string (arkts_reader_get_input_kind (reader));
  info->clock_domain = arkts_reader_get_clock_domain (reader);
  info->clock_source = "arkts-src";
  g_debug ("%s: found %s, clock %s", trace_element_get_name (TRACE_ELEMENT (src)), info->format,
           trace_clock_domain_to_string (info->clock_domain));
}

static char *
trace_arkts_src_get_summary (TraceFileSrc *src)
{
  ArktsReader *reader = TRACE_ARKTS_SRC (src)->reader;

  return reader ? arkts_reader_get_warning_summary (reader) : NULL;
}

static gconstpointer
trace_arkts_src_get_stats (TraceFileSrc *src)
{
  ArktsReader *reader = TRACE_ARKTS_SRC (src)->reader;

  return reader ? arkts_reader_get_stats (reader) : NULL;
}

static void
trace_arkts_src_close (TraceFileSrc *src)
{
  g_clear_pointer (&TRACE_ARKTS_SRC (src)->reader, arkts_reader_free);
}

static void
trace_arkts_src_set_property (GObject *object,
                              guint prop_id,
                              const GValue *value,
                              GParamSpec *pspec)
{
  ArktsReaderOptions *o = &TRACE_ARKTS_SRC (object)->opts;

  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  switch (prop_id)
    {
    case PROP_PID:
      o->pid = g_value_get_int64 (value);
      break;
    case PROP_TID:
      o->tid = g_value_get_int64 (value);
      break;
    case PROP_MODE:
      o->mode = g_value_get_enum (value);
      break;
    case PROP_START_TIME:
      o->start_time = g_value_get_int64 (value);
      break;
    case PROP_SNAPSHOT_INTERVAL:
      o->snapshot_interval = g_value_get_int64 (value);
      break;
    case PROP_CPU_PROFILER_INTERVAL:
      o->cpu_profiler_interval = g_value_get_int64 (value);
      break;
    case PROP_TOP:
      o->top_n = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_arkts_src_get_property (GObject *object,
                              guint prop_id,
                              GValue *value,
                              GParamSpec *pspec)
{
  ArktsReaderOptions *o = &TRACE_ARKTS_SRC (object)->opts;

  switch (prop_id)
    {
    case PROP_PID:
      g_value_set_int64 (value, o->pid);
      break;
    case PROP_TID:
      g_value_set_int64 (value, o->tid);
      break;
    case PROP_MODE:
      g_value_set_enum (value, o->mode);
      break;
    case PROP_START_TIME:
      g_value_set_int64 (value, o->start_time);
      break;
    case PROP_SNAPSHOT_INTERVAL:
      g_value_set_int64 (value, o->snapshot_interval);
      break;
    case PROP_CPU_PROFILER_INTERVAL:
      g_value_set_int64 (value, o->cpu_profiler_interval);
      break;
    case PROP_TOP:
      g_value_set_uint (value, o->top_n);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The reader takes its options at open (in NULL to READY): a property
 * set later would not be honoured, so none is flagged mutable. */
static void
install_properties (GObjectClass *object_class)
{
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  properties[PROP_PID] = g_param_spec_int64 ("pid", "Pid", "The profiled process (-1: from the data)",
                                             -1, G_MAXINT64, DEFAULT_PID, rw);
  properties[PROP_TID] = g_param_spec_int64 ("tid", "Tid", "The profiled thread (-1: the profile's tid, else pid)",
                                             -1, G_MAXINT64, DEFAULT_TID, rw);
  properties[PROP_MODE] = g_param_spec_enum ("mode", "Mode", "What the stream's {\"id\":N} markers mean",
                                             mode_get_type (), DEFAULT_MODE, rw);
  properties[PROP_START_TIME] = g_param_spec_int64 ("start-time", "Start time",
                                                    "Where heap data sits on the stream's clock (ns; 1.5s, 200ms)",
                                                    G_MININT64, G_MAXINT64, DEFAULT_START_TIME, rw);
  properties[PROP_SNAPSHOT_INTERVAL] = g_param_spec_int64 ("snapshot-interval", "Snapshot interval",
                                                           "Time between two snapshots of a stream (ns; 1s)",
                                                           0, G_MAXINT64, DEFAULT_SNAPSHOT_INTERVAL, rw);
  properties[PROP_CPU_PROFILER_INTERVAL] = g_param_spec_int64 ("cpu-profiler-interval", "CPU profiler interval",
                                                               "Sampling interval for profiles without times (ns; 0 unknown)",
                                                               0, G_MAXINT64, DEFAULT_CPU_PROFILER_INTERVAL, rw);
  trace_param_spec_set_time (properties[PROP_START_TIME]);
  trace_param_spec_set_time (properties[PROP_SNAPSHOT_INTERVAL]);
  trace_param_spec_set_time (properties[PROP_CPU_PROFILER_INTERVAL]);
  properties[PROP_TOP] = g_param_spec_uint ("top", "Top", "Constructors and functions listed per summary",
                                            1, 1000, DEFAULT_TOP, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
trace_arkts_src_class_init (TraceArktsSrcClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceFileSrcClass *file_src_class = TRACE_FILE_SRC_CLASS (klass);

  object_class->set_property = trace_arkts_src_set_property;
  object_class->get_property = trace_arkts_src_get_property;
  file_src_class->open = trace_arkts_src_open;
  file_src_class->read_batch = trace_arkts_src_read_batch;
  file_src_class->get_stream_info = trace_arkts_src_get_stream_info;
  file_src_class->get_summary = trace_arkts_src_get_summary;
  file_src_class->get_stats = trace_arkts_src_get_stats;
  file_src_class->close = trace_arkts_src_close;
  trace_file_src_class_set_stats (file_src_class, arkts_src_stats, G_N_ELEMENTS (arkts_src_stats));
  install_properties (object_class);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "ArkTS profiler source", "Source/Trace",
                                    "Reads ArkTS/V8 heap snapshots, heap timelines and CPU profiles",
                                    "tracepipe");
}

/* Every property's DEFAULT_ (arkts-engine.h), and what is not a
 * property (the clock domain: from the content; the read size). */
static void
trace_arkts_src_init (TraceArktsSrc *self)
{
  arkts_reader_options_init (&self->opts);
}

TRACE_ELEMENT_REGISTER_DEFINE (arkts_src, "arkts-src", TRACE_RANK_PRIMARY, TRACE_TYPE_ARKTS_SRC)
