/* tracepipe - ftrace-src: Linux ftrace, atrace, systrace and RheaTrace text
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "ftrace-private.h"

/**
 * TraceFtraceSrc:
 *
 * Reads Linux ftrace text (`trace` dumps, atrace output, trace-cmd
 * reports), Android systrace HTML, `atrace -z` captures, gzip files and
 * RheaTrace (btrace) raw captures, detected from the content, into the
 * event stream. Lines it cannot use are counted by reason and reported in
 * one WARNING at the end and in its STATS.
 *
 * ```
 * trace-launch ftrace-src location=trace.html ! perfetto-sink location=out.pftrace
 * ```
 */
struct _TraceFtraceSrc
{
  TraceFileSrc parent_instance;

  char *format;
  gint64 pid;
  char *process_name;
  FtraceReader *reader;
};

enum
{
  PROP_0,
  PROP_FORMAT,
  PROP_PID,
  PROP_PROCESS_NAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TraceFtraceSrc, trace_ftrace_src, TRACE_TYPE_FILE_SRC)

static gboolean
trace_ftrace_src_open (TraceFileSrc *src,
                       GInputStream *stream,
                       guint64 size,
                       GError **error)
{
  TraceFtraceSrc *self = TRACE_FTRACE_SRC (src);
  FtraceReaderOptions opts = { self->pid, self->process_name, self->format };

  if (self->format && !g_str_equal (self->format, "auto") && !ftrace_reader_is_format (self->format))
    {
      g_autofree char *known = g_strjoinv (", ", (char **) ftrace_reader_get_formats ());
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS,
                   "unknown format \"%s\" (known: auto, %s)", self->format, known);
      return FALSE;
    }
  g_clear_pointer (&self->reader, ftrace_reader_free);
  self->reader = ftrace_reader_new (stream, trace_file_src_get_display_name (src),
                                    trace_element_get_string_pool (TRACE_ELEMENT (src)), &opts);
  return TRUE;
}

static TraceFlowReturn
trace_ftrace_src_create (TraceBaseSrc *src,
                         TraceBatch **out,
                         GError **error)
{
  TraceFtraceSrc *self = TRACE_FTRACE_SRC (src);
  gboolean first = trace_base_src_get_events_produced (src) == 0;

  if (!ftrace_reader_read_batch (self->reader, out, error))
    return TRACE_FLOW_ERROR;
  if (first)
    trace_base_src_set_stream_info (src, ftrace_reader_get_format (self->reader),
                                    trace_file_src_get_location (TRACE_FILE_SRC (src)),
                                    ftrace_reader_get_clock_domain (self->reader), "ftrace-src");
  trace_file_src_update_progress (TRACE_FILE_SRC (src));
  return *out ? TRACE_FLOW_OK : TRACE_FLOW_EOS;
}

static void
trace_ftrace_src_finish (TraceBaseSrc *src)
{
  TraceFtraceSrc *self = TRACE_FTRACE_SRC (src);
  g_autofree char *summary = self->reader ? ftrace_reader_get_summary (self->reader) : NULL;

  if (summary)
    trace_element_post_warning (TRACE_ELEMENT (src), NULL, "%s", summary); /* it names the file */
}

static gboolean
trace_ftrace_src_stop (TraceBaseSrc *src,
                       GError **error)
{
  g_clear_pointer (&TRACE_FTRACE_SRC (src)->reader, ftrace_reader_free);
  return TRACE_BASE_SRC_CLASS (trace_ftrace_src_parent_class)->stop (src, error);
}

/* "unparsable lines (kept raw)" -> "skipped-unparsable-lines": a key for
 * scripts reading --stats or the STATS message. */
static const char *
stats_key (const char *text)
{
  static char key[96];
  gsize n = g_strlcpy (key, "skipped-", sizeof key);

  for (const char *p = text; *p && *p != '(' && n < sizeof key - 1; p++)
    key[n++] = g_ascii_isalnum (*p) ? g_ascii_tolower (*p) : '-';
  while (n > 0 && key[n - 1] == '-')
    n--;
  key[n] = '\0';
  return key;
}

static void
trace_ftrace_src_collect_stats (TraceElement *element,
                                GVariantDict *dict)
{
  TraceFtraceSrc *self = TRACE_FTRACE_SRC (element);
  const FtraceStats *stats;

  TRACE_ELEMENT_CLASS (trace_ftrace_src_parent_class)->collect_stats (element, dict);
  if (self->reader == NULL)
    return;
  stats = ftrace_reader_get_stats (self->reader);
  g_variant_dict_insert (dict, "bytes-read", "t", ftrace_reader_get_bytes_read (self->reader));
  g_variant_dict_insert (dict, "lines", "t", stats->lines);
  g_variant_dict_insert (dict, "trace-lines", "t", stats->trace_lines);
  g_variant_dict_insert (dict, "lost-events", "t", stats->lost_events);
  if (ftrace_reader_get_nul_bytes (self->reader) > 0)
    g_variant_dict_insert (dict, "skipped-nul-bytes", "t", ftrace_reader_get_nul_bytes (self->reader));
  for (guint i = 0; i < FTRACE_PROBLEM_N; i++)
    if (stats->problems[i] > 0)
      {
        g_variant_dict_insert (dict, stats_key (ftrace_problem_to_string (i)), "t", stats->problems[i]);
      }
}

static void
trace_ftrace_src_set_property (GObject *object,
                               guint prop_id,
                               const GValue *value,
                               GParamSpec *pspec)
{
  TraceFtraceSrc *self = TRACE_FTRACE_SRC (object);

  switch (prop_id)
    {
    case PROP_FORMAT:
      g_free (self->format);
      self->format = g_value_dup_string (value);
      break;
    case PROP_PID:
      self->pid = g_value_get_int64 (value);
      break;
    case PROP_PROCESS_NAME:
      g_free (self->process_name);
      self->process_name = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_ftrace_src_get_property (GObject *object,
                               guint prop_id,
                               GValue *value,
                               GParamSpec *pspec)
{
  TraceFtraceSrc *self = TRACE_FTRACE_SRC (object);

  switch (prop_id)
    {
    case PROP_FORMAT:
      g_value_set_string (value, self->format);
      break;
    case PROP_PID:
      g_value_set_int64 (value, self->pid);
      break;
    case PROP_PROCESS_NAME:
      g_value_set_string (value, self->process_name);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_ftrace_src_finalize (GObject *object)
{
  TraceFtraceSrc *self = TRACE_FTRACE_SRC (object);

  g_clear_pointer (&self->reader, ftrace_reader_free);
  g_free (self->format);
  g_free (self->process_name);
  G_OBJECT_CLASS (trace_ftrace_src_parent_class)->finalize (object);
}

static void
trace_ftrace_src_class_init (TraceFtraceSrcClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceBaseSrcClass *src_class = TRACE_BASE_SRC_CLASS (klass);

  object_class->set_property = trace_ftrace_src_set_property;
  object_class->get_property = trace_ftrace_src_get_property;
  object_class->finalize = trace_ftrace_src_finalize;
  TRACE_FILE_SRC_CLASS (klass)->open = trace_ftrace_src_open;
  src_class->create = trace_ftrace_src_create;
  src_class->finish = trace_ftrace_src_finish;
  src_class->stop = trace_ftrace_src_stop;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = trace_ftrace_src_collect_stats;

  /**
   * TraceFtraceSrc:format:
   *
   * `auto` (the default) detects the format from the content; a format
   * name forces it.
   */
  properties[PROP_FORMAT] =
      g_param_spec_string ("format", "Format", "auto, or the input format to assume", "auto",
                           G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  trace_param_spec_add_choice (properties[PROP_FORMAT], "auto");
  for (const char *const *f = ftrace_reader_get_formats (); *f; f++)
    trace_param_spec_add_choice (properties[PROP_FORMAT], *f);
  /**
   * TraceFtraceSrc:pid:
   *
   * The app's pid, for a RheaTrace main-thread capture that lost its
   * TRACE_START line (0: take it from the capture).
   */
  properties[PROP_PID] =
      g_param_spec_int64 ("pid", "Pid", "The app's pid for a RheaTrace capture without its header (0: from the file)",
                          0, G_MAXINT32, 0, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  /**
   * TraceFtraceSrc:process-name:
   *
   * The app's process name, for RheaTrace captures.
   */
  properties[PROP_PROCESS_NAME] =
      g_param_spec_string ("process-name", "Process name", "The app's process name for a RheaTrace capture",
                           NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "ftrace source", "Source/Trace",
                                    "Reads ftrace, atrace and systrace text or HTML, atrace -z and RheaTrace captures",
                                    "tracepipe");
}

static void
trace_ftrace_src_init (TraceFtraceSrc *self)
{
  self->format = g_strdup ("auto");
}

TRACE_ELEMENT_REGISTER_DEFINE (ftrace_src, "ftrace-src", TRACE_RANK_PRIMARY, TRACE_TYPE_FTRACE_SRC)
