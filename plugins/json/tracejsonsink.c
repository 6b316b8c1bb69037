/* tracepipe - json-sink: Chrome's Trace Event Format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "json-elements.h"
#include "json-writer.h"

/**
 * TraceJsonSink:
 *
 * Writes Chrome's Trace Event Format as events arrive (no document in
 * memory): the object form by default, `X` events for slices (a Chrome
 * JSON stream keeps its `B`/`E` pairs, see docs/json.md), `M` events
 * for names, kernel records as `systemTraceEvents` text so viewers still
 * show CPU tracks, a Perfetto stream's GPU counters as `C` events and its
 * Android frame timelines as async slices. The file appears at `location` only once complete and
 * valid; Ctrl-C in trace-launch completes it too. See docs/json.md.
 *
 * ```
 * trace-launch perfetto-src location=trace.pftrace ! json-sink location=trace.json
 * ```
 */
struct _TraceJsonSink
{
  TraceFileSink parent_instance;

  /* the properties; the writer takes them with what the stream says */
  ChromeWriterOptions opts;
};

enum
{
  PROP_0,
  PROP_FORM,
  PROP_SLICES,
  PROP_FLOWS,
  PROP_DISPLAY_TIME_UNIT,
  PROP_MAX_THREADS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

#define DEFAULT_FORM CHROME_FORM_OBJECT
#define DEFAULT_SLICES CHROME_SLICES_AUTO
#define DEFAULT_FLOWS CHROME_FLOWS_AUTO
#define DEFAULT_DISPLAY_TIME_UNIT CHROME_WRITER_DEFAULT_DISPLAY_TIME_UNIT
#define DEFAULT_MAX_THREADS CHROME_WRITER_DEFAULT_MAX_THREADS

G_DEFINE_FINAL_TYPE (TraceJsonSink, trace_json_sink, TRACE_TYPE_FILE_SINK)

#define DEFINE_ENUM(func, name, ...)                                       \
  static GType func (void)                                                 \
  {                                                                        \
    static gsize type;                                                     \
    static const GEnumValue values[] = { __VA_ARGS__, { 0, NULL, NULL } }; \
    if (g_once_init_enter (&type))                                         \
      g_once_init_leave (&type, g_enum_register_static (name, values));    \
    return type;                                                           \
  }

DEFINE_ENUM (form_get_type, "TraceJsonForm", { CHROME_FORM_OBJECT, "JSON_TRACE_FORM_OBJECT", "object" }, { CHROME_FORM_ARRAY, "JSON_TRACE_FORM_ARRAY", "array" })
DEFINE_ENUM (slices_get_type, "TraceJsonSlices", { CHROME_SLICES_COMPLETE, "JSON_TRACE_SLICES_COMPLETE", "complete" }, { CHROME_SLICES_BEGIN_END, "JSON_TRACE_SLICES_BEGIN_END", "begin-end" }, { CHROME_SLICES_AUTO, "JSON_TRACE_SLICES_AUTO", "auto" })
DEFINE_ENUM (flows_get_type, "TraceJsonFlows", { CHROME_FLOWS_V1, "JSON_TRACE_FLOWS_V1", "v1" }, { CHROME_FLOWS_V2, "JSON_TRACE_FLOWS_V2", "v2" }, { CHROME_FLOWS_AUTO, "JSON_TRACE_FLOWS_AUTO", "auto" })

/* Returns: (transfer full) (nullable): the stream's metadata object */
static JsonObject *
parse_metadata (const TraceStreamInfo *info)
{
  g_autoptr (JsonNode) node = info && info->metadata ? json_from_string (info->metadata, NULL) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_object_ref (json_node_get_object (node));
}

/* The properties, and what the stream says: its clock, and whether its
 * events are a Chrome JSON trace's or typed kernel events. */
static gpointer
trace_json_sink_new_writer (TraceFileSink *sink,
                            GOutputStream *stream,
                            const TraceStreamInfo *info)
{
  ChromeWriterOptions opts = TRACE_JSON_SINK (sink)->opts;

  if (info)
    {
      opts.clock_domain = info->clock_domain;
      opts.chrome_json = (info->flags & TRACE_STREAM_FLAG_JSON_ORDER) != 0;
      opts.perfetto_kernel_events = (info->flags & TRACE_STREAM_FLAG_TYPED_KERNEL_EVENTS) != 0;
    }
  /* the metadata is set at the end, where it is written */
  return chrome_writer_new (stream, &opts);
}

/* The stream's metadata, which may have come after the events. */
static gboolean
trace_json_sink_finish_writer (TraceFileSink *sink,
                               gpointer writer,
                               const TraceStreamInfo *info,
                               GError **error)
{
  g_autoptr (JsonObject) metadata = parse_metadata (info);

  chrome_writer_set_metadata (writer, metadata);
  return chrome_writer_finish (writer, error);
}

/* What the writer could not put in JSON, by the reasons every sink
 * shares (their words and stats keys are core's). Open slices and
 * unmatched ends are written (as B and E), atrace markers are written as
 * events: neither is a drop. */
static void
trace_json_sink_get_drops (TraceFileSink *sink,
                           gpointer writer,
                           GArray *drops)
{
  const ChromeWriterStats *s = chrome_writer_get_stats (writer);
  const guint64 counts[TRACE_SINK_DROP_N_REASONS] = {
    [TRACE_SINK_DROP_KERNEL] = s->dropped_kernel,
    [TRACE_SINK_DROP_FLOWS] = s->dropped_flows,
    [TRACE_SINK_DROP_CLOCK_MARKER] = s->dropped_clock_markers,
    [TRACE_SINK_DROP_OTHER] = s->dropped_other,
    [TRACE_SINK_DROP_REPEATED_LEGACY_BEGIN] = s->dropped_repeated_legacy_begins,
    [TRACE_SINK_DROP_UNMATCHED_ASYNC_END] = s->dropped_unmatched_legacy_ends,
    [TRACE_SINK_DROP_SWITCHES_WITHOUT_PREV] = s->dropped_switches_without_prev,
    [TRACE_SINK_DROP_THREAD_TABLE_FULL] = s->dropped_samples_past_thread_table,
  };

  /* Losses of the Perfetto records json-sink alone turns into events. */
  const TraceSinkDrop graphics[] = {
    { "gpu-counters", "GPU counter values of no counter descriptor in the trace", s->dropped_gpu_counters },
    { "frames", "frame timeline events trace_processor rejects (no cookie, token or pid; an end of no start)",
      s->dropped_frames },
    { "frame-links", "links of a second surface frame to one display frame", s->dropped_frame_links },
    { "sys-stats", "sys_stats entries with no JSON form (vmstat, frequencies, disk, pressure, thermal, buddy and slab info)",
      s->dropped_sys_stats },
    { "process-names", "process names from the kernel past the thread table (max-threads)", s->process_names_past_table },
  };

  trace_sink_drops_append (drops, counts);
  g_array_append_vals (drops, graphics, G_N_ELEMENTS (graphics));
}

static void
trace_json_sink_collect_stats (TraceElement *element,
                               GVariantDict *dict)
{
  ChromeWriter *writer = trace_file_sink_get_writer (TRACE_FILE_SINK (element));
  const ChromeWriterStats *s;

  /* the drops among them */
  TRACE_ELEMENT_CLASS (trace_json_sink_parent_class)->collect_stats (element, dict);
  if (writer == NULL)
    return;
  s = chrome_writer_get_stats (writer);
  g_variant_dict_insert (dict, "json-events", "t", s->events);
  if (s->records)
    g_variant_dict_insert (dict, "records", "t", s->records);
  g_variant_dict_insert (dict, "kernel-lines", "t", s->kernel_lines);
  g_variant_dict_insert (dict, "bytes-written", "t", chrome_writer_get_bytes_written (writer));
  if (s->unmatched_ends)
    g_variant_dict_insert (dict, "unmatched-ends", "t", s->unmatched_ends);
  if (s->slices_past_thread_table)
    g_variant_dict_insert (dict, "slices-past-thread-table", "t", s->slices_past_thread_table);
  if (s->process_names_from_kernel)
    g_variant_dict_insert (dict, "process-names-from-kernel", "t", s->process_names_from_kernel);
  if (s->app_process_names_outranked)
    g_variant_dict_insert (dict, "app-process-names-outranked", "t", s->app_process_names_outranked);
}

static void
trace_json_sink_set_property (GObject *object,
                              guint prop_id,
                              const GValue *value,
                              GParamSpec *pspec)
{
  TraceJsonSink *self = TRACE_JSON_SINK (object);

  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  switch (prop_id)
    {
    case PROP_FORM:
      self->opts.form = g_value_get_enum (value);
      break;
    case PROP_SLICES:
      self->opts.slices = g_value_get_enum (value);
      break;
    case PROP_FLOWS:
      self->opts.flows = g_value_get_enum (value);
      break;
    case PROP_DISPLAY_TIME_UNIT:
      g_free ((char *) self->opts.display_time_unit);
      self->opts.display_time_unit = g_value_dup_string (value);
      break;
    case PROP_MAX_THREADS:
      self->opts.max_threads = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_json_sink_get_property (GObject *object,
                              guint prop_id,
                              GValue *value,
                              GParamSpec *pspec)
{
  TraceJsonSink *self = TRACE_JSON_SINK (object);

  switch (prop_id)
    {
    case PROP_FORM:
      g_value_set_enum (value, self->opts.form);
      break;
    case PROP_SLICES:
      g_value_set_enum (value, self->opts.slices);
      break;
    case PROP_FLOWS:
      g_value_set_enum (value, self->opts.flows);
      break;
    case PROP_DISPLAY_TIME_UNIT:
      g_value_set_string (value, self->opts.display_time_unit);
      break;
    case PROP_MAX_THREADS:
      g_value_set_uint (value, self->opts.max_threads);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_json_sink_finalize (GObject *object)
{
  TraceJsonSink *self = TRACE_JSON_SINK (object);

  g_free ((char *) self->opts.display_time_unit);
  G_OBJECT_CLASS (trace_json_sink_parent_class)->finalize (object);
}

static void
trace_json_sink_class_init (TraceJsonSinkClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceBaseSinkClass *sink_class = TRACE_BASE_SINK_CLASS (klass);
  TraceFileSinkClass *file_sink_class = TRACE_FILE_SINK_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  object_class->set_property = trace_json_sink_set_property;
  object_class->get_property = trace_json_sink_get_property;
  object_class->finalize = trace_json_sink_finalize;
  file_sink_class->new_writer = trace_json_sink_new_writer;
  file_sink_class->write_batch = (TraceFileSinkWriteFunc) chrome_writer_write_batch;
  file_sink_class->finish_writer = trace_json_sink_finish_writer;
  file_sink_class->free_writer = (GDestroyNotify) chrome_writer_free;
  file_sink_class->flush_writer = (TraceFileSinkFlushFunc) chrome_writer_flush;
  file_sink_class->get_drops = trace_json_sink_get_drops;
  /* null and empty args written back, array indices kept */
  trace_base_sink_class_set_keeps_arg_shape (sink_class, TRUE);
  trace_base_sink_class_set_reads_arg_text (sink_class, TRUE);
  TRACE_ELEMENT_CLASS (klass)->collect_stats = trace_json_sink_collect_stats;

  properties[PROP_FORM] = g_param_spec_enum ("form", "Form", "The object form (with metadata) or a bare array",
                                             form_get_type (), DEFAULT_FORM, rw);
  properties[PROP_SLICES] = g_param_spec_enum ("slices", "Slices",
                                               "Complete X events, B/E pairs as they come, or auto: B/E for a Chrome JSON stream, X otherwise",
                                               slices_get_type (), DEFAULT_SLICES, rw);
  properties[PROP_FLOWS] = g_param_spec_enum ("flows", "Flows",
                                              "Flow events (v1: s/t/f), bind ids (v2), or auto: v2 for a Chrome JSON stream, v1 otherwise",
                                              flows_get_type (), DEFAULT_FLOWS, rw);
  properties[PROP_DISPLAY_TIME_UNIT] = g_param_spec_string ("display-time-unit", "Display time unit",
                                                            "displayTimeUnit of the object form (ms or ns)",
                                                            DEFAULT_DISPLAY_TIME_UNIT, rw);
  trace_param_spec_add_choice (properties[PROP_DISPLAY_TIME_UNIT], "ms");
  trace_param_spec_add_choice (properties[PROP_DISPLAY_TIME_UNIT], "ns");
  /* Bounds the per-thread state whatever the input's tids; past it the
   * slices go out as B/E, which needs none. */
  properties[PROP_MAX_THREADS] =
      g_param_spec_uint ("max-threads", "Max threads",
                         "Threads whose slices are held to be written as X; further threads' slices are "
                         "written as B/E (stats: slices-past-thread-table), their CPU samples dropped",
                         1, G_MAXUINT, DEFAULT_MAX_THREADS, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Chrome JSON sink", "Sink/Trace",
                                    "Writes Chrome's Trace Event Format (JSON)", "tracepipe");
}

static void
trace_json_sink_init (TraceJsonSink *self)
{
  self->opts.form = DEFAULT_FORM;
  self->opts.slices = DEFAULT_SLICES;
  self->opts.flows = DEFAULT_FLOWS;
  self->opts.display_time_unit = g_strdup (DEFAULT_DISPLAY_TIME_UNIT);
  self->opts.max_threads = DEFAULT_MAX_THREADS;
}

TRACE_ELEMENT_REGISTER_DEFINE (json_sink, "json-sink", TRACE_RANK_PRIMARY, TRACE_TYPE_JSON_SINK)
