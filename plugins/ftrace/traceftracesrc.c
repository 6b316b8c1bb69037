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
 * event stream. The Chrome JSON blocks of a systrace HTML file are read
 * too, after its text, and placed on the text's clock by their clock
 * markers (docs/ftrace.md). Lines it cannot use are counted by reason and
 * reported in one WARNING at the end and in its STATS.
 *
 * ```
 * trace-launch ftrace-src location=trace.html ! perfetto-sink location=out.pftrace
 * ```
 */
struct _TraceFtraceSrc
{
  TraceFileSrc parent_instance;

  FtraceReaderOptions opts; /* the properties */
  FtraceReader *reader;
  FtraceJsonBlocks *json_blocks; /* NULL: built without the json engine */
  gboolean text_done;
  guint64 text_events;  /* what the text gave */
  FtraceSrcStats stats; /* as of the last get_stats */
};

enum
{
  PROP_0,
  PROP_FORMAT,
  PROP_PID,
  PROP_PROCESS_NAME,
  PROP_THREADS,
  N_PROPS
};

/* "auto" is also the word that asks for detection */
#define DEFAULT_FORMAT "auto"
#define DEFAULT_PID 0
#define DEFAULT_PROCESS_NAME NULL

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TraceFtraceSrc, trace_ftrace_src, TRACE_TYPE_FILE_SRC)

/* The reader's counters, then one per problem (its key from the
 * problem table of the ftrace engine), filled in class_init. */
#define N_FIXED_STATS 7
static TraceFileSrcStat ftrace_src_stats[N_FIXED_STATS + FTRACE_PROBLEM_N] = {
  { "bytes-read", G_STRUCT_OFFSET (FtraceSrcStats, reader.bytes_read), TRUE },
  { "lines", G_STRUCT_OFFSET (FtraceSrcStats, reader.parser.lines), TRUE },
  { "trace-lines", G_STRUCT_OFFSET (FtraceSrcStats, reader.parser.trace_lines), TRUE },
  { "lost-events", G_STRUCT_OFFSET (FtraceSrcStats, reader.parser.lost_events), TRUE },
  { "skipped-nul-bytes", G_STRUCT_OFFSET (FtraceSrcStats, reader.nul_bytes), FALSE },
  { "json-blocks", G_STRUCT_OFFSET (FtraceSrcStats, json_blocks), FALSE },
  { "json-events", G_STRUCT_OFFSET (FtraceSrcStats, json_events), FALSE },
};

static void
init_problem_stats (void)
{
  for (guint i = 0; i < FTRACE_PROBLEM_N; i++)
    {
      TraceFileSrcStat *stat = &ftrace_src_stats[N_FIXED_STATS + i];

      stat->key = ftrace_problem_get_key (i);
      stat->offset = G_STRUCT_OFFSET (FtraceSrcStats, reader.parser.problems) + i * sizeof (guint64);
      stat->always = FALSE;
    }
}

static gboolean
trace_ftrace_src_open (TraceFileSrc *src,
                       GInputStream *stream,
                       guint64 size,
                       GError **error)
{
  TraceFtraceSrc *self = TRACE_FTRACE_SRC (src);
  const char *format = self->opts.format;

  if (format && !g_str_equal (format, DEFAULT_FORMAT) && !ftrace_reader_is_format (format))
    {
      g_autofree char *known = g_strjoinv (", ", (char **) ftrace_reader_get_formats ());
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS,
                   "unknown format \"%s\" (known: auto, %s)", format, known);
      return FALSE;
    }
  self->reader = ftrace_reader_new (stream, trace_file_src_get_display_name (src),
                                    trace_element_get_string_pool (TRACE_ELEMENT (src)), &self->opts);
  self->text_done = FALSE;
  self->text_events = 0;
#ifdef FTRACE_SRC_JSON_BLOCKS
  self->json_blocks = ftrace_json_blocks_new (trace_file_src_get_display_name (src),
                                              trace_element_get_string_pool (TRACE_ELEMENT (src)));
  ftrace_reader_set_json_block_funcs (self->reader, ftrace_json_blocks_get_funcs (), self->json_blocks);
#endif
  g_debug ("%s: reading %s (%" G_GUINT64_FORMAT " bytes), format %s", trace_element_get_name (TRACE_ELEMENT (src)),
           trace_file_src_get_display_name (src), size, format ? format : DEFAULT_FORMAT);
  return TRUE;
}

/* The text first, then the JSON blocks an HTML file held (kept aside
 * while the text was read). */
static gboolean
trace_ftrace_src_read_batch (TraceFileSrc *src,
                             TraceBatch **out,
                             GError **error)
{
  TraceFtraceSrc *self = TRACE_FTRACE_SRC (src);

  if (!self->text_done)
    {
      if (!ftrace_reader_read_batch (self->reader, out, error))
        return FALSE;
      if (*out != NULL)
        {
          self->text_events += (*out)->n_events;
          /* only HTML has JSON blocks: plain text pays nothing */
          if (self->json_blocks && g_str_equal (ftrace_reader_get_format (self->reader), "systrace-html"))
            ftrace_json_blocks_note_text (self->json_blocks, *out);
          return TRUE;
        }
      self->text_done = TRUE;
    }
  if (self->json_blocks == NULL)
    return TRUE;
  return ftrace_json_blocks_read_batch (self->json_blocks, self->text_events,
                                        ftrace_reader_get_clock_domain (self->reader), out, error);
}

static void
trace_ftrace_src_get_stream_info (TraceFileSrc *src,
                                  TraceStreamInfo *info)
{
  TraceFtraceSrc *self = TRACE_FTRACE_SRC (src);
  FtraceReader *reader = self->reader;

  info->format = (char *) ftrace_reader_get_format (reader); /* read, not kept */
  info->clock_domain = ftrace_reader_get_clock_domain (reader);
  info->clock_source = "ftrace-src";
  /* an HTML file of JSON blocks alone (trace2html of a Chrome trace) is
   * a Chrome JSON stream, as json-src says of one */
  if (self->json_blocks && ftrace_json_blocks_get_alone_domain (self->json_blocks, &info->clock_domain))
    info->flags = TRACE_STREAM_FLAG_MAIN_THREADS_NAMED | TRACE_STREAM_FLAG_JSON_ORDER;
  g_debug ("%s: found %s, clock %s", trace_element_get_name (TRACE_ELEMENT (src)), info->format,
           trace_clock_domain_to_string (info->clock_domain));
}

static char *
trace_ftrace_src_get_summary (TraceFileSrc *src)
{
  FtraceReader *reader = TRACE_FTRACE_SRC (src)->reader;

  return reader ? ftrace_reader_get_summary (reader) : NULL; /* it names the file */
}

static gconstpointer
trace_ftrace_src_get_stats (TraceFileSrc *src)
{
  TraceFtraceSrc *self = TRACE_FTRACE_SRC (src);

  if (self->reader == NULL)
    return NULL;
  ftrace_reader_copy_stats (self->reader, &self->stats.reader);
  self->stats.json_blocks = self->json_blocks ? ftrace_json_blocks_get_count (self->json_blocks) : 0;
  self->stats.json_events = self->json_blocks ? ftrace_json_blocks_get_events (self->json_blocks) : 0;
  return &self->stats;
}

/* After the text's summary: where each JSON block went. */
static void
trace_ftrace_src_finish (TraceBaseSrc *src)
{
  TraceFtraceSrc *self = TRACE_FTRACE_SRC (src);

  TRACE_BASE_SRC_CLASS (trace_ftrace_src_parent_class)->finish (src);
  if (self->json_blocks)
    ftrace_json_blocks_report (self->json_blocks, TRACE_ELEMENT (src));
}

static void
trace_ftrace_src_close (TraceFileSrc *src)
{
  TraceFtraceSrc *self = TRACE_FTRACE_SRC (src);

  g_clear_pointer (&self->json_blocks, ftrace_json_blocks_free);
  g_clear_pointer (&self->reader, ftrace_reader_free);
}

static void
trace_ftrace_src_set_property (GObject *object,
                               guint prop_id,
                               const GValue *value,
                               GParamSpec *pspec)
{
  TraceFtraceSrc *self = TRACE_FTRACE_SRC (object);

  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  switch (prop_id)
    {
    case PROP_FORMAT:
      g_free (self->opts.format);
      self->opts.format = g_value_dup_string (value);
      break;
    case PROP_PID:
      self->opts.pid = g_value_get_int64 (value);
      break;
    case PROP_PROCESS_NAME:
      g_free (self->opts.process_name);
      self->opts.process_name = g_value_dup_string (value);
      break;
    case PROP_THREADS:
      self->opts.threads = g_value_get_uint (value);
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
      g_value_set_string (value, self->opts.format);
      break;
    case PROP_PID:
      g_value_set_int64 (value, self->opts.pid);
      break;
    case PROP_PROCESS_NAME:
      g_value_set_string (value, self->opts.process_name);
      break;
    case PROP_THREADS:
      g_value_set_uint (value, self->opts.threads);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The reader is closed by the base (at dispose); only the properties'
 * strings are left. */
static void
trace_ftrace_src_finalize (GObject *object)
{
  TraceFtraceSrc *self = TRACE_FTRACE_SRC (object);

  g_free (self->opts.format);
  g_free (self->opts.process_name);
  G_OBJECT_CLASS (trace_ftrace_src_parent_class)->finalize (object);
}

static void
trace_ftrace_src_class_init (TraceFtraceSrcClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceFileSrcClass *file_src_class = TRACE_FILE_SRC_CLASS (klass);

  object_class->set_property = trace_ftrace_src_set_property;
  object_class->get_property = trace_ftrace_src_get_property;
  object_class->finalize = trace_ftrace_src_finalize;
  file_src_class->open = trace_ftrace_src_open;
  file_src_class->read_batch = trace_ftrace_src_read_batch;
  file_src_class->get_stream_info = trace_ftrace_src_get_stream_info;
  file_src_class->get_summary = trace_ftrace_src_get_summary;
  file_src_class->get_stats = trace_ftrace_src_get_stats;
  file_src_class->close = trace_ftrace_src_close;
  TRACE_BASE_SRC_CLASS (klass)->finish = trace_ftrace_src_finish;
  init_problem_stats ();
  trace_file_src_class_set_stats (file_src_class, ftrace_src_stats, G_N_ELEMENTS (ftrace_src_stats));

  /**
   * TraceFtraceSrc:format:
   *
   * `auto` (the default) detects the format from the content; a format
   * name forces it.
   */
  properties[PROP_FORMAT] =
      g_param_spec_string ("format", "Format", "auto, or the input format to assume", DEFAULT_FORMAT,
                           G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  trace_param_spec_add_choice (properties[PROP_FORMAT], DEFAULT_FORMAT);
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
                          0, G_MAXINT32, DEFAULT_PID, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  /**
   * TraceFtraceSrc:process-name:
   *
   * The app's process name, for RheaTrace captures.
   */
  properties[PROP_PROCESS_NAME] =
      g_param_spec_string ("process-name", "Process name", "The app's process name for a RheaTrace capture",
                           DEFAULT_PROCESS_NAME, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  /**
   * TraceFtraceSrc:threads:
   *
   * Threads that parse plain text (ftrace, atrace, `atrace -z` once
   * inflated): with more than one, other threads cut the text into
   * lines and read each line's prefix while this element's thread turns
   * the lines into events in file order; the events are the same as with
   * one. Threads that lend their spare time (trace_spare_work_lend(): a
   * file sink's writer thread, between its batches) count among them;
   * worker threads of this element's own make up the rest. HTML, and the
   * rest of a file from a NUL byte or an overlong line on, are parsed on
   * one thread. At most 8 are used. The default is the number of cores.
   */
  properties[PROP_THREADS] =
      g_param_spec_uint ("threads", "Threads", "Threads that parse plain text (the events are the same with 1)", 1,
                         1024, MAX (g_get_num_processors (), 1), G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "ftrace source", "Source/Trace",
                                    "Reads ftrace, atrace and systrace text or HTML, atrace -z and RheaTrace captures",
                                    "tracepipe");
}

static void
trace_ftrace_src_init (TraceFtraceSrc *self)
{
  self->opts.format = g_strdup (DEFAULT_FORMAT);
  self->opts.pid = DEFAULT_PID;
  self->opts.process_name = g_strdup (DEFAULT_PROCESS_NAME);
  self->opts.threads = MAX (g_get_num_processors (), 1);
}

TRACE_ELEMENT_REGISTER_DEFINE (ftrace_src, "ftrace-src", TRACE_RANK_PRIMARY, TRACE_TYPE_FTRACE_SRC)
