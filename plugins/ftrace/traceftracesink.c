/* tracepipe - ftrace-sink: ftrace/atrace text
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "ftrace-private.h"
#include "ftrace-sink-writer.h"

/**
 * TraceFtraceSink:
 *
 * Writes ftrace text with atrace markers, the layout of
 * `cat /sys/kernel/tracing/trace` during an atrace capture (what
 * `traceconv systrace` writes): kernel records as their ftrace lines,
 * slices, instants, async slices and counters as `tracing_mark_write`
 * payloads (`B|pid|name`, `E|pid`, `S|pid|name|cookie`, `C|pid|name|value`),
 * thread names in the task column. Lines are written in time order; what
 * the text has no form for (flows, args, process names, samples) is
 * counted and reported. See docs/ftrace.md.
 *
 * ```
 * trace-launch json-src location=trace.json ! ftrace-sink location=trace.txt
 * ```
 */
struct _TraceFtraceSink
{
  TraceFileSink parent_instance;

  guint64 sort_memory;
};

enum
{
  PROP_0,
  PROP_SORT_MEMORY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

#define DEFAULT_SORT_MEMORY (64 * 1024 * 1024)

G_DEFINE_FINAL_TYPE (TraceFtraceSink, trace_ftrace_sink, TRACE_TYPE_FILE_SINK)

static gpointer
trace_ftrace_sink_new_writer (TraceFileSink *sink,
                              GOutputStream *stream,
                              const TraceStreamInfo *info)
{
  guint64 sort_memory = TRACE_FTRACE_SINK (sink)->sort_memory;
  gboolean chrome_json = info != NULL && (info->flags & TRACE_STREAM_FLAG_JSON_ORDER) != 0;

  return ftrace_sink_writer_new (stream, (gsize) MIN (sort_memory, G_MAXSIZE), chrome_json);
}

/* Lines whose disorder exceeded sort-memory are in the file, out of
 * order: the user hears of it, and of the bound that would avoid it.
 * Events written without their args are no drops, but a loss. */
static gboolean
trace_ftrace_sink_finish_writer (TraceFileSink *sink,
                                 gpointer writer,
                                 const TraceStreamInfo *info,
                                 GError **error)
{
  guint64 late = ftrace_sink_writer_get_late_lines (writer);
  guint64 no_args = ftrace_sink_writer_get_stats (writer)->args_not_written;

  if (!ftrace_sink_writer_finish (writer, error))
    return FALSE;
  if (no_args > 0)
    trace_element_post_warning (TRACE_ELEMENT (sink), trace_file_sink_get_location (sink),
                                "%" G_GUINT64_FORMAT " events written without their args (atrace markers carry "
                                "names only)",
                                no_args);
  if (late > 0)
    trace_element_post_warning (TRACE_ELEMENT (sink), trace_file_sink_get_location (sink),
                                "%" G_GUINT64_FORMAT " lines written out of time order: the input's disorder "
                                "exceeded sort-memory=%" G_GUINT64_FORMAT " (trace_processor sorts them; "
                                "other readers may not)",
                                late, TRACE_FTRACE_SINK (sink)->sort_memory);
  return TRUE;
}

static void
trace_ftrace_sink_get_drops (TraceFileSink *sink,
                             gpointer writer,
                             GArray *drops)
{
  const guint64 *d = ftrace_sink_writer_get_stats (writer)->dropped;
  const guint64 shared[TRACE_SINK_DROP_N_REASONS] = {
    [TRACE_SINK_DROP_SWITCHES_WITHOUT_PREV] = d[FTRACE_SINK_DROP_SWITCHES_WITHOUT_PREV],
    [TRACE_SINK_DROP_FLOWS] = d[FTRACE_SINK_DROP_BOUND_FLOWS],
    [TRACE_SINK_DROP_OTHER] = d[FTRACE_SINK_DROP_OTHER],
  };
  /* What only ftrace text cannot carry. */
  const TraceSinkDrop own[] = {
    { "flow-events", "flow events (ftrace text has no flows)", d[FTRACE_SINK_DROP_FLOWS] },
    { "json-legacy-async", "Chrome JSON's unnestable async events (trace_processor ignores them in JSON)",
      d[FTRACE_SINK_DROP_JSON_LEGACY_ASYNC] },
    { "no-thread", "events without a thread or cpu ftrace text can write (none, negative or past 32 bits)",
      d[FTRACE_SINK_DROP_NO_THREAD] },
    { "before-zero", "events before time 0 (ftrace times are not negative)", d[FTRACE_SINK_DROP_BEFORE_ZERO] },
    { "scoped-instants", "instants of a process or of the whole trace (atrace instants are a thread's)",
      d[FTRACE_SINK_DROP_SCOPED_INSTANTS] },
    { "async-steps", "async steps and async instants (atrace has no form for them)", d[FTRACE_SINK_DROP_ASYNC_STEPS] },
    { "bar-names", "async slices, instants and counters with no name or a '|' in it (atrace's separator)",
      d[FTRACE_SINK_DROP_BAR_NAMES] },
    { "fractions", "counter values that are not integers (atrace counters are)", d[FTRACE_SINK_DROP_FRACTIONS] },
    { "process-metadata", "process names, sort indexes and labels (ftrace text names threads only)",
      d[FTRACE_SINK_DROP_PROCESS_METADATA] },
    { "samples", "CPU profile samples and their stack nodes", d[FTRACE_SINK_DROP_SAMPLES] },
  };

  trace_sink_drops_append (drops, shared);
  g_array_append_vals (drops, own, G_N_ELEMENTS (own));
}

static void
trace_ftrace_sink_collect_stats (TraceElement *element,
                                 GVariantDict *dict)
{
  FtraceSinkWriter *writer = trace_file_sink_get_writer (TRACE_FILE_SINK (element));

  /* the drops among them */
  TRACE_ELEMENT_CLASS (trace_ftrace_sink_parent_class)->collect_stats (element, dict);
  if (writer == NULL)
    return;
  g_variant_dict_insert (dict, "lines", "t", ftrace_sink_writer_get_stats (writer)->lines);
  g_variant_dict_insert (dict, "bytes-written", "t", ftrace_sink_writer_get_bytes_written (writer));
  if (ftrace_sink_writer_get_stats (writer)->threads_moved)
    g_variant_dict_insert (dict, "threads-moved", "t", ftrace_sink_writer_get_stats (writer)->threads_moved);
  if (ftrace_sink_writer_get_stats (writer)->args_not_written)
    g_variant_dict_insert (dict, "args-not-written", "t", ftrace_sink_writer_get_stats (writer)->args_not_written);
  g_variant_dict_insert (dict, "sort-peak-bytes", "t", (guint64) ftrace_sink_writer_get_peak_sort_bytes (writer));
  if (ftrace_sink_writer_get_late_lines (writer))
    g_variant_dict_insert (dict, "late-lines", "t", ftrace_sink_writer_get_late_lines (writer));
}

static void
trace_ftrace_sink_set_property (GObject *object,
                                guint prop_id,
                                const GValue *value,
                                GParamSpec *pspec)
{
  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  switch (prop_id)
    {
    case PROP_SORT_MEMORY:
      TRACE_FTRACE_SINK (object)->sort_memory = g_value_get_uint64 (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_ftrace_sink_get_property (GObject *object,
                                guint prop_id,
                                GValue *value,
                                GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_SORT_MEMORY:
      g_value_set_uint64 (value, TRACE_FTRACE_SINK (object)->sort_memory);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_ftrace_sink_class_init (TraceFtraceSinkClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceFileSinkClass *file_sink_class = TRACE_FILE_SINK_CLASS (klass);

  object_class->set_property = trace_ftrace_sink_set_property;
  object_class->get_property = trace_ftrace_sink_get_property;
  file_sink_class->new_writer = trace_ftrace_sink_new_writer;
  file_sink_class->write_batch = (TraceFileSinkWriteFunc) ftrace_sink_writer_write_batch;
  file_sink_class->finish_writer = trace_ftrace_sink_finish_writer;
  file_sink_class->free_writer = (GDestroyNotify) ftrace_sink_writer_free;
  file_sink_class->get_drops = trace_ftrace_sink_get_drops;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = trace_ftrace_sink_collect_stats;

  /* Bounds what out-of-order input costs: lines wait for their turn up
   * to this, past it the earliest are written. */
  properties[PROP_SORT_MEMORY] =
      g_param_spec_uint64 ("sort-memory", "Sort memory",
                           "Bytes of lines held to write them in time order; past it the earliest are written "
                           "and a later line that belongs before them is written late (stats: late-lines)",
                           0, G_MAXUINT64, DEFAULT_SORT_MEMORY, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "ftrace text sink", "Sink/Trace",
                                    "Writes ftrace text with atrace markers (systrace)", "tracepipe");
}

static void
trace_ftrace_sink_init (TraceFtraceSink *self)
{
  self->sort_memory = DEFAULT_SORT_MEMORY;
}

TRACE_ELEMENT_REGISTER_DEFINE (ftrace_sink, "ftrace-sink", TRACE_RANK_PRIMARY, TRACE_TYPE_FTRACE_SINK)
