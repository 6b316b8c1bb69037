/* tracepipe - tracecmd-src: trace-cmd's trace.dat through libtracecmd
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <sys/stat.h>

#include "tracecmd-private.h"

/**
 * TraceTracecmdSrc:
 *
 * Reads the `trace.dat` files trace-cmd writes (`trace-cmd record`,
 * `extract`; versions 6 and 7, compressed or not as the installed
 * libtracecmd can read) through libtracecmd and libtraceevent, and makes
 * of its records the events ftrace-src makes of the kernel's text of the
 * same buffer: scheduling with task states, task and process events,
 * atrace markers, every other event generic with its fields; nanosecond
 * times on the clock the file names (docs/tracecmd.md).
 *
 * ```
 * trace-launch tracecmd-src location=trace.dat ! perfetto-sink location=out.pftrace
 * ```
 */
struct _TraceTracecmdSrc
{
  TraceFileSrc parent_instance;

  char *buffer; /* the property */
  TracecmdReader *reader;
  TracecmdReaderStats stats; /* the reader's, as of the last get_stats */
};

G_DEFINE_FINAL_TYPE (TraceTracecmdSrc, trace_tracecmd_src, TRACE_TYPE_FILE_SRC)

enum
{
  PROP_0,
  PROP_BUFFER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

#define DEFAULT_BUFFER "all"

#define N_FIXED_STATS 7
static TraceFileSrcStat tracecmd_src_stats[N_FIXED_STATS + FTRACE_PROBLEM_N] = {
  { "bytes-read", G_STRUCT_OFFSET (TracecmdReaderStats, bytes_read), TRUE },
  { "records", G_STRUCT_OFFSET (TracecmdReaderStats, records), TRUE },
  { "lost-events", G_STRUCT_OFFSET (TracecmdReaderStats, lost_events), FALSE },
  { "skipped-unknown-events", G_STRUCT_OFFSET (TracecmdReaderStats, skipped_unknown_events), FALSE },
  { "incomplete-events", G_STRUCT_OFFSET (TracecmdReaderStats, incomplete_events), FALSE },
  { "skipped-fields", G_STRUCT_OFFSET (TracecmdReaderStats, skipped_fields), FALSE },
  { "cut-strings", G_STRUCT_OFFSET (TracecmdReaderStats, cut_strings), FALSE },
};

static void
init_stats (void)
{
  for (guint i = 0; i < FTRACE_PROBLEM_N; i++)
    {
      TraceFileSrcStat *stat = &tracecmd_src_stats[N_FIXED_STATS + i];

      stat->key = ftrace_problem_get_key (i);
      stat->offset = G_STRUCT_OFFSET (TracecmdReaderStats, ftrace.problems) + i * sizeof (guint64);
    }
}

/* libtracecmd reads the file by offset, from its path: standard input
 * and pipes cannot be read. */
static gboolean
check_seekable (const char *location,
                const char *display_name,
                GError **error)
{
  struct stat st;

  if (location == NULL || g_strcmp0 (location, "-") == 0)
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_OPEN_READ,
                   "%s: tracecmd-src reads trace.dat from a file only (libtracecmd seeks in it): save standard "
                   "input to a file first",
                   display_name);
      return FALSE;
    }
  if (stat (location, &st) == 0 && !S_ISREG (st.st_mode))
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_OPEN_READ,
                   "%s: tracecmd-src reads trace.dat from a regular file only (libtracecmd seeks in it), "
                   "not a pipe or device: save it to a file first",
                   display_name);
      return FALSE;
    }
  return TRUE;
}

static gboolean
trace_tracecmd_src_open (TraceFileSrc *src,
                         GInputStream *stream,
                         guint64 size,
                         GError **error)
{
  TraceTracecmdSrc *self = TRACE_TRACECMD_SRC (src);
  const char *location = trace_file_src_get_location (src);
  const char *display_name = trace_file_src_get_display_name (src);

  if (!check_seekable (location, display_name, error))
    return FALSE;
  self->reader = tracecmd_reader_new (location, display_name, self->buffer,
                                      trace_element_get_string_pool (TRACE_ELEMENT (src)), error);
  return self->reader != NULL;
}

static gboolean
trace_tracecmd_src_read_batch (TraceFileSrc *src,
                               TraceBatch **out,
                               GError **error)
{
  return tracecmd_reader_read_batch (TRACE_TRACECMD_SRC (src)->reader, out, error);
}

static void
trace_tracecmd_src_get_stream_info (TraceFileSrc *src,
                                    TraceStreamInfo *info)
{
  TracecmdReader *reader = TRACE_TRACECMD_SRC (src)->reader;

  info->format = "trace.dat";
  info->clock_domain = tracecmd_reader_get_clock_domain (reader);
  info->clock_source = tracecmd_reader_get_clock_name (reader) ? "trace.dat trace_clock" : "ftrace default";
}

static char *
trace_tracecmd_src_get_summary (TraceFileSrc *src)
{
  TracecmdReader *reader = TRACE_TRACECMD_SRC (src)->reader;

  return reader ? tracecmd_reader_get_summary (reader) : NULL; /* it names the file */
}

static gconstpointer
trace_tracecmd_src_get_stats (TraceFileSrc *src)
{
  TraceTracecmdSrc *self = TRACE_TRACECMD_SRC (src);

  if (self->reader == NULL)
    return NULL;
  tracecmd_reader_copy_stats (self->reader, &self->stats);
  return &self->stats;
}

static void
trace_tracecmd_src_close (TraceFileSrc *src)
{
  g_clear_pointer (&TRACE_TRACECMD_SRC (src)->reader, tracecmd_reader_free);
}

static void
trace_tracecmd_src_set_property (GObject *object,
                                 guint prop_id,
                                 const GValue *value,
                                 GParamSpec *pspec)
{
  TraceTracecmdSrc *self = TRACE_TRACECMD_SRC (object);

  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  switch (prop_id)
    {
    case PROP_BUFFER:
      g_free (self->buffer);
      self->buffer = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_tracecmd_src_get_property (GObject *object,
                                 guint prop_id,
                                 GValue *value,
                                 GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_BUFFER:
      g_value_set_string (value, TRACE_TRACECMD_SRC (object)->buffer);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The reader is closed by the base (at dispose). */
static void
trace_tracecmd_src_finalize (GObject *object)
{
  g_free (TRACE_TRACECMD_SRC (object)->buffer);
  G_OBJECT_CLASS (trace_tracecmd_src_parent_class)->finalize (object);
}

static void
trace_tracecmd_src_class_init (TraceTracecmdSrcClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceFileSrcClass *file_src_class = TRACE_FILE_SRC_CLASS (klass);

  object_class->set_property = trace_tracecmd_src_set_property;
  object_class->get_property = trace_tracecmd_src_get_property;
  object_class->finalize = trace_tracecmd_src_finalize;
  file_src_class->open = trace_tracecmd_src_open;
  file_src_class->read_batch = trace_tracecmd_src_read_batch;
  file_src_class->get_stream_info = trace_tracecmd_src_get_stream_info;
  file_src_class->get_summary = trace_tracecmd_src_get_summary;
  file_src_class->get_stats = trace_tracecmd_src_get_stats;
  file_src_class->close = trace_tracecmd_src_close;
  init_stats ();
  trace_file_src_class_set_stats (file_src_class, tracecmd_src_stats, G_N_ELEMENTS (tracecmd_src_stats));

  /**
   * TraceTracecmdSrc:buffer:
   *
   * Which ring buffers of the file to read: `all` (the default: the
   * top-level buffer and every instance's, merged in time order into one
   * stream, as `trace-cmd report` shows them), `top` (the top-level
   * buffer alone) or the name of one instance (`trace-cmd record -B`).
   */
  properties[PROP_BUFFER] = g_param_spec_string ("buffer", "Buffer",
                                                 "Which buffers to read: all, top, or an instance's name",
                                                 DEFAULT_BUFFER, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "trace-cmd source", "Source/Trace",
                                    "Reads trace-cmd's trace.dat (v6, v7) through libtracecmd: scheduling, "
                                    "task states, atrace markers, every kernel event with its fields",
                                    "tracepipe");
}

static void
trace_tracecmd_src_init (TraceTracecmdSrc *self)
{
  self->buffer = g_strdup (DEFAULT_BUFFER);
}

TRACE_ELEMENT_REGISTER_DEFINE (tracecmd_src, "tracecmd-src", TRACE_RANK_PRIMARY, TRACE_TYPE_TRACECMD_SRC)
