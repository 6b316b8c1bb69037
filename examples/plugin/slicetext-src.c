/* examples/plugin: slicetext-src, a line-based source for a made-up format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "slicetext.h"

/**
 * SlicetextSrc:
 *
 * Reads slicetext files: one complete slice of process #SlicetextSrc:pid a
 * line, `ts_ns tid name dur_ns`. Blank lines and `#` comments are ignored;
 * other lines are skipped, counted by reason, and the first is named at
 * the end. #TraceFileSrc opens (and gunzips) the file and sends the rest.
 *
 *     trace-launch slicetext-src location=app.slices ! min-duration min-dur=1ms ! fakesink dump=true
 */

#define DEFAULT_PID 1

struct _SlicetextSrc
{
  TraceFileSrc parent_instance;

  gint64 pid;

  GDataInputStream *input; /* NULL while closed */
  guint64 lines;
  guint64 bad_lines;
  guint64 negative_durations;
  guint64 first_skipped_line; /* 0: none */
};

enum
{
  PROP_0,
  PROP_PID,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The counters in --stats; counts of trouble only when there was some. */
static const TraceFileSrcStat slicetext_src_stats[] = {
  { "lines", G_STRUCT_OFFSET (SlicetextSrc, lines), TRUE },
  { "skipped-bad-line", G_STRUCT_OFFSET (SlicetextSrc, bad_lines), FALSE },
  { "skipped-negative-duration", G_STRUCT_OFFSET (SlicetextSrc, negative_durations), FALSE },
};

G_DEFINE_FINAL_TYPE (SlicetextSrc, slicetext_src, TRACE_TYPE_FILE_SRC)

static gboolean
slicetext_src_open (TraceFileSrc *src,
                    GInputStream *stream,
                    guint64 size,
                    GError **error)
{
  SlicetextSrc *self = SLICETEXT_SRC (src);

  self->input = g_data_input_stream_new (stream);
  /* the base closes @stream; ANY reads Windows line ends too */
  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (self->input), FALSE);
  g_data_input_stream_set_newline_type (self->input, G_DATA_STREAM_NEWLINE_TYPE_ANY);
  self->lines = self->bad_lines = self->negative_durations = self->first_skipped_line = 0;
  return TRUE;
}

static void
skip_line (SlicetextSrc *self,
           guint64 *count,
           const char *why)
{
  if ((*count)++ == 0) /* the first of each reason, never each line */
    g_debug ("%s:%" G_GUINT64_FORMAT ": skipped: %s", trace_file_src_get_display_name (TRACE_FILE_SRC (self)),
             self->lines, why);
  if (self->first_skipped_line == 0)
    self->first_skipped_line = self->lines;
}

/* A whole field of digits, maybe after a '-': no '+', whatever the locale. */
static gboolean
parse_int (const char *field,
           gint64 *value)
{
  return *field != '+' && g_ascii_string_to_signed (field, 10, G_MININT64, G_MAXINT64, value, NULL);
}

/* One line to at most one event; @line is cut up in place. Up to five
 * fields are kept: a fifth makes the line one that does not fit. */
static void
parse_line (SlicetextSrc *self,
            TraceBatch *batch,
            char *line)
{
  char *field[5], *rest = NULL;
  guint n = 0;
  gint64 ts, tid, dur;
  TraceEvent *ev;

  for (char *f = strtok_r (line, " \t", &rest); f != NULL && n < G_N_ELEMENTS (field); f = strtok_r (NULL, " \t", &rest))
    field[n++] = f;
  if (n == 0 || field[0][0] == '#')
    return;
  if (n != 4 || !parse_int (field[0], &ts) || !parse_int (field[1], &tid) || !parse_int (field[3], &dur))
    skip_line (self, &self->bad_lines, "not `ts_ns tid name dur_ns`");
  else if (dur < 0)
    skip_line (self, &self->negative_durations, "a negative duration");
  else
    {
      /* stored by value in the batch; the name is an id in the pipeline's pool */
      ev = trace_batch_append (batch, TRACE_EVENT_SLICE_COMPLETE, ts);
      ev->pid = self->pid;
      ev->tid = tid;
      ev->name = trace_string_pool_intern (batch->pool, field[2]);
      ev->u.slice.dur = dur;
    }
}

/* Lines to a batch of slices; no batch at the end of the input. */
static gboolean
slicetext_src_read_batch (TraceFileSrc *src,
                          TraceBatch **out,
                          GError **error)
{
  SlicetextSrc *self = SLICETEXT_SRC (src);
  g_autoptr (TraceBatch) batch = trace_base_src_new_batch (TRACE_BASE_SRC (src));
  g_autoptr (GError) local = NULL;
  char *line;

  while (batch->n_events < TRACE_BATCH_DEFAULT_SIZE &&
         (line = g_data_input_stream_read_line (self->input, NULL, NULL, &local)) != NULL)
    {
      self->lines++;
      parse_line (self, batch, line);
      g_free (line);
    }
  if (local != NULL)
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&local), "could not read \"%s\": ",
                                  trace_file_src_get_display_name (src));
      return FALSE;
    }
  *out = batch->n_events > 0 ? g_steal_pointer (&batch) : NULL;
  return TRUE;
}

static void
slicetext_src_get_stream_info (TraceFileSrc *src,
                               TraceStreamInfo *info)
{
  info->format = "slicetext";
  info->clock_domain = TRACE_CLOCK_UNKNOWN; /* the format does not say */
  info->clock_source = "slicetext-src";
}

static char *
slicetext_src_get_summary (TraceFileSrc *src)
{
  SlicetextSrc *self = SLICETEXT_SRC (src);

  if (self->first_skipped_line == 0)
    return NULL;
  return g_strdup_printf ("%s:%" G_GUINT64_FORMAT ": skipped %" G_GUINT64_FORMAT " lines, the first here: %"
                          G_GUINT64_FORMAT " not `ts_ns tid name dur_ns`, %" G_GUINT64_FORMAT " with a negative duration",
                          trace_file_src_get_display_name (src), self->first_skipped_line,
                          self->bad_lines + self->negative_durations, self->bad_lines, self->negative_durations);
}

/* The counters live in the element: still there for a report after stop. */
static gconstpointer
slicetext_src_get_stats (TraceFileSrc *src)
{
  return src;
}

static void
slicetext_src_close (TraceFileSrc *src)
{
  g_clear_object (&SLICETEXT_SRC (src)->input);
}

static void
slicetext_src_set_property (GObject *object,
                            guint prop_id,
                            const GValue *value,
                            GParamSpec *pspec)
{
  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  switch (prop_id)
    {
    case PROP_PID:
      SLICETEXT_SRC (object)->pid = g_value_get_int64 (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
slicetext_src_get_property (GObject *object,
                            guint prop_id,
                            GValue *value,
                            GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_PID:
      g_value_set_int64 (value, SLICETEXT_SRC (object)->pid);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
slicetext_src_class_init (SlicetextSrcClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceFileSrcClass *file_src_class = TRACE_FILE_SRC_CLASS (klass);

  object_class->set_property = slicetext_src_set_property;
  object_class->get_property = slicetext_src_get_property;
  file_src_class->open = slicetext_src_open;
  file_src_class->read_batch = slicetext_src_read_batch;
  file_src_class->get_stream_info = slicetext_src_get_stream_info;
  file_src_class->get_summary = slicetext_src_get_summary;
  file_src_class->get_stats = slicetext_src_get_stats;
  file_src_class->close = slicetext_src_close;
  trace_file_src_class_set_stats (file_src_class, slicetext_src_stats, G_N_ELEMENTS (slicetext_src_stats));

  properties[PROP_PID] = g_param_spec_int64 ("pid", "Pid", "The process the threads of the file belong to", 0,
                                             G_MAXINT32, DEFAULT_PID, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "slicetext source", "Source/Trace",
                                    "Reads slicetext files: one `ts_ns tid name dur_ns` slice a line (an example)",
                                    "examples/plugin");
}

static void
slicetext_src_init (SlicetextSrc *self)
{
  self->pid = DEFAULT_PID;
}

TRACE_ELEMENT_REGISTER_DEFINE (slicetext_src, "slicetext-src", TRACE_RANK_SECONDARY, SLICETEXT_TYPE_SRC)
