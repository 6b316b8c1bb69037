/* examples/plugin: slicetext-src, a line-based source for a made-up format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "slicetext.h"

/**
 * SlicetextSrc:
 *
 * Reads slicetext files: `ts_ns tid name dur_ns`, one complete slice of
 * process #SlicetextSrc:pid a line; blank lines and `#` comments are ignored.
 *
 *     trace-launch slicetext-src location=app.slices ! min-duration min-dur=1ms ! fakesink dump=true
 */

#define DEFAULT_PID 1

struct _SlicetextSrc
{
  TraceLineSrc parent_instance;

  gint64 pid;
};

enum
{
  PROP_0,
  PROP_PID,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SKIP_BAD_LINE,
  SKIP_NEGATIVE_DURATION,
};

static const TraceLineSrcSkip skip_reasons[] = {
  [SKIP_BAD_LINE] = { "bad-line", "not `ts_ns tid name dur_ns`" },
  [SKIP_NEGATIVE_DURATION] = { "negative-duration", "with a negative duration" },
};

G_DEFINE_FINAL_TYPE (SlicetextSrc, slicetext_src, TRACE_TYPE_LINE_SRC)

static gboolean
slicetext_src_parse_line (TraceLineSrc *src,
                          char *line,
                          gsize len,
                          TraceBatch *batch,
                          GError **error)
{
  char *field[5], *rest = NULL;
  guint n = 0;
  gint64 ts, tid, dur;

  for (char *f = strtok_r (line, " \t", &rest); f != NULL && n < G_N_ELEMENTS (field); f = strtok_r (NULL, " \t", &rest))
    field[n++] = f; /* a fifth field makes it a bad line */
  if (n == 0 || field[0][0] == '#')
    return TRUE;
  if (n != 4 || !g_ascii_string_to_signed (field[0], 10, G_MININT64, G_MAXINT64, &ts, NULL) ||
      !g_ascii_string_to_signed (field[1], 10, G_MININT64, G_MAXINT64, &tid, NULL) ||
      !g_ascii_string_to_signed (field[3], 10, G_MININT64, G_MAXINT64, &dur, NULL))
    trace_line_src_skip_line (src, SKIP_BAD_LINE);
  else if (dur < 0)
    trace_line_src_skip_line (src, SKIP_NEGATIVE_DURATION);
  else
    {
      TraceEvent *ev = trace_batch_append (batch, TRACE_EVENT_SLICE_COMPLETE, ts);

      ev->pid = SLICETEXT_SRC (src)->pid;
      ev->tid = tid;
      ev->name = trace_string_pool_intern (batch->pool, field[2]);
      ev->u.slice.dur = dur;
    }
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

  object_class->set_property = slicetext_src_set_property;
  object_class->get_property = slicetext_src_get_property;
  TRACE_LINE_SRC_CLASS (klass)->parse_line = slicetext_src_parse_line;
  TRACE_FILE_SRC_CLASS (klass)->get_stream_info = slicetext_src_get_stream_info;
  trace_line_src_class_set_skip_reasons (TRACE_LINE_SRC_CLASS (klass), skip_reasons, G_N_ELEMENTS (skip_reasons));
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
