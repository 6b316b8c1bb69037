/* examples/plugin: slicetext-src, a source for a made-up text format
 *
 * The "slicetext" format, one complete slice a line:
 *
 *   # slicetext
 *   # ts_ns   tid  name    dur_ns
 *   1000000   101  startup 2500000
 *   1200000   102  load    300000
 *
 * Four fields separated by blanks: the start in nanoseconds, the thread
 * id, a name without blanks and the duration in nanoseconds. Blank lines
 * and lines starting with `#` are ignored. Each line becomes one
 * TRACE_EVENT_SLICE_COMPLETE of process `pid` (a property). A line that
 * does not fit is skipped and counted by reason; the first one is named
 * in a WARNING at the end.
 *
 * The base class TraceFileSrc does the boring parts: the `location`
 * property, opening the file (or stdin for `-`), gzip, errors that quote
 * the location, progress. This class only turns bytes into events.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "slicetext.h"

/* Read this much at a time; a line may be at most MAX_LINE long, so a
 * file without newlines cannot make us buffer it all. */
#define CHUNK_SIZE (256 * 1024)
#define MAX_LINE (1024 * 1024)

typedef enum
{
  SKIP_BAD_LINE,
  SKIP_NEGATIVE_DURATION,
  N_SKIP_REASONS
} SkipReason;

static const char *const skip_reason_names[N_SKIP_REASONS] = {
  "bad-line", "negative-duration"
};

struct _SlicetextSrc
{
  TraceFileSrc parent_instance;

  gint64 pid; /* property */

  GInputStream *stream; /* from TraceFileSrc; not owned */
  GByteArray *buf;      /* bytes read and not parsed yet start at pos */
  gsize pos;
  gboolean eof;
  guint64 line_no;
  guint64 skipped[N_SKIP_REASONS];
  guint64 first_skipped_line; /* 0: none */
};

enum
{
  PROP_0,
  PROP_PID,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SlicetextSrc, slicetext_src, TRACE_TYPE_FILE_SRC)

/* ---- reading lines, in place ---- */

typedef enum
{
  NEXT_LINE,
  NEXT_END,
  NEXT_FAILED
} NextResult;

/* Reads more input behind what is left of the buffer. At the end of the
 * input, makes sure the last line ends with '\n' too, so the parser can
 * rely on a terminator and never reads past the line. */
static gboolean
fill_buffer (SlicetextSrc *self,
             GError **error)
{
  gsize old_len;
  gssize n;

  g_byte_array_remove_range (self->buf, 0, self->pos);
  self->pos = 0;
  old_len = self->buf->len;
  g_byte_array_set_size (self->buf, old_len + CHUNK_SIZE);
  n = g_input_stream_read (self->stream, self->buf->data + old_len, CHUNK_SIZE, NULL, error);
  g_byte_array_set_size (self->buf, old_len + MAX (n, 0));
  if (n < 0)
    {
      g_prefix_error (error, "could not read \"%s\": ",
                      trace_file_src_get_display_name (TRACE_FILE_SRC (self)));
      return FALSE;
    }
  if (n == 0)
    {
      self->eof = TRUE;
      if (self->buf->len > 0 && self->buf->data[self->buf->len - 1] != '\n')
        g_byte_array_append (self->buf, (const guint8 *) "\n", 1);
    }
  return TRUE;
}

/* Finds the next line; *line points into the buffer and stays valid
 * until the next call. */
static NextResult
next_line (SlicetextSrc *self,
           const char **line,
           gsize *len,
           GError **error)
{
  for (;;)
    {
      const char *start = (const char *) self->buf->data + self->pos;
      gsize avail = self->buf->len - self->pos;
      const char *nl = memchr (start, '\n', avail);

      if (nl != NULL)
        {
          *line = start;
          *len = nl - start;
          self->pos += *len + 1;
          self->line_no++;
          return NEXT_LINE;
        }
      if (self->eof)
        return NEXT_END;
      if (avail > MAX_LINE)
        {
          g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_TOO_LARGE,
                       "%s:%" G_GUINT64_FORMAT ": a line longer than %d bytes: not a slicetext file",
                       trace_file_src_get_display_name (TRACE_FILE_SRC (self)), self->line_no + 1, MAX_LINE);
          return NEXT_FAILED;
        }
      if (!fill_buffer (self, error))
        return NEXT_FAILED;
    }
}

/* ---- parsing a line ---- */

static const char *
skip_blanks (const char *p)
{
  while (*p == ' ' || *p == '\t')
    p++;
  return p;
}

/* A decimal integer, optionally negative, followed by a blank or the
 * end of the line. No locale, no allocation, overflow checked. */
static gboolean
parse_int (const char **p,
           gint64 *out)
{
  const char *s = skip_blanks (*p);
  gboolean negative = *s == '-';
  guint64 value = 0;
  const char *digits;

  s += negative;
  for (digits = s; *s >= '0' && *s <= '9'; s++)
    {
      if (value > (G_MAXINT64 - (guint64) (*s - '0')) / 10)
        return FALSE;
      value = value * 10 + (guint64) (*s - '0');
    }
  if (s == digits || (*s != ' ' && *s != '\t' && *s != '\r' && *s != '\n'))
    return FALSE;
  *out = negative ? -(gint64) value : (gint64) value;
  *p = s;
  return TRUE;
}

static void
count_skipped (SlicetextSrc *self,
               SkipReason reason)
{
  self->skipped[reason]++;
  if (self->first_skipped_line == 0)
    self->first_skipped_line = self->line_no;
}

/* One line (ending with '\n') to at most one event. */
static void
parse_line (SlicetextSrc *self,
            TraceBatch *batch,
            const char *line)
{
  const char *p = skip_blanks (line), *name;
  gint64 ts, tid, dur;
  gsize name_len;
  TraceEvent *ev;

  if (*p == '#' || *p == '\n' || *p == '\r')
    return;
  if (!parse_int (&p, &ts) || !parse_int (&p, &tid))
    goto bad;
  name = skip_blanks (p);
  name_len = strcspn (name, " \t\r\n");
  p = name + name_len;
  if (name_len == 0 || !parse_int (&p, &dur))
    goto bad;
  p = skip_blanks (p);
  if (*p == '\r')
    p++;
  if (*p != '\n')
    goto bad; /* a fifth field */
  if (dur < 0)
    {
      count_skipped (self, SKIP_NEGATIVE_DURATION);
      return;
    }

  /* Events are stored by value in the batch: no allocation per event.
   * Strings are ids in the pipeline's pool, interned from the slice of
   * the line, with no copy. */
  ev = trace_batch_append (batch, TRACE_EVENT_SLICE_COMPLETE, ts);
  ev->pid = self->pid;
  ev->tid = tid;
  ev->name = trace_string_pool_intern_len (batch->pool, name, name_len);
  ev->u.slice.dur = dur;
  return;

bad:
  count_skipped (self, SKIP_BAD_LINE);
}

/* ---- the TraceFileSrc and TraceBaseSrc virtual methods ---- */

/* NULL -> READY, once the file is open: @stream is already decompressed. */
static gboolean
slicetext_src_open (TraceFileSrc *src,
                    GInputStream *stream,
                    guint64 size,
                    GError **error)
{
  SlicetextSrc *self = SLICETEXT_SRC (src);

  self->stream = stream;
  g_byte_array_set_size (self->buf, 0);
  self->pos = 0;
  self->eof = FALSE;
  self->line_no = 0;
  self->first_skipped_line = 0;
  memset (self->skipped, 0, sizeof self->skipped);
  /* What downstream learns in the stream-start event. */
  trace_base_src_set_stream_info (TRACE_BASE_SRC (src), "slicetext", trace_file_src_get_location (src),
                                  TRACE_CLOCK_UNKNOWN, "slicetext-src");
  return TRUE;
}

/* Called from the main loop whenever downstream can take a batch: fill
 * one batch, or say EOS when the input is used up. */
static TraceFlowReturn
slicetext_src_create (TraceBaseSrc *src,
                      TraceBatch **out,
                      GError **error)
{
  SlicetextSrc *self = SLICETEXT_SRC (src);
  g_autoptr (TraceBatch) batch = trace_base_src_new_batch (src);
  const char *line;
  gsize len;
  NextResult next = NEXT_LINE;

  while (batch->n_events < TRACE_BATCH_DEFAULT_SIZE &&
         (next = next_line (self, &line, &len, error)) == NEXT_LINE)
    parse_line (self, batch, line);
  if (next == NEXT_FAILED)
    return TRACE_FLOW_ERROR;
  trace_file_src_update_progress (TRACE_FILE_SRC (src));
  if (batch->n_events == 0 && next == NEXT_END)
    return TRACE_FLOW_EOS;
  *out = g_steal_pointer (&batch);
  return TRACE_FLOW_OK;
}

/* At the end of the input, before EOS: say what could not be used. */
static void
slicetext_src_finish (TraceBaseSrc *src)
{
  SlicetextSrc *self = SLICETEXT_SRC (src);
  guint64 total = self->skipped[SKIP_BAD_LINE] + self->skipped[SKIP_NEGATIVE_DURATION];
  g_autofree char *where = NULL;

  if (total == 0)
    return;
  where = g_strdup_printf ("%s:%" G_GUINT64_FORMAT, trace_file_src_get_display_name (TRACE_FILE_SRC (src)),
                           self->first_skipped_line);
  trace_element_post_warning (TRACE_ELEMENT (src), where,
                              "skipped %" G_GUINT64_FORMAT " lines, the first here: %" G_GUINT64_FORMAT
                              " not `ts_ns tid name dur_ns`, %" G_GUINT64_FORMAT " with a negative duration",
                              total, self->skipped[SKIP_BAD_LINE], self->skipped[SKIP_NEGATIVE_DURATION]);
}

/* Our counters, in the STATS message the base posts at the end. */
static void
slicetext_src_collect_stats (TraceElement *element,
                             GVariantDict *stats)
{
  SlicetextSrc *self = SLICETEXT_SRC (element);

  TRACE_ELEMENT_CLASS (slicetext_src_parent_class)->collect_stats (element, stats);
  g_variant_dict_insert (stats, "lines", "t", self->line_no);
  for (guint i = 0; i < N_SKIP_REASONS; i++)
    {
      g_autofree char *key = g_strdup_printf ("skipped-%s", skip_reason_names[i]);
      g_variant_dict_insert (stats, key, "t", self->skipped[i]);
    }
}

/* ---- GObject boilerplate ---- */

static void
slicetext_src_set_property (GObject *object,
                            guint prop_id,
                            const GValue *value,
                            GParamSpec *pspec)
{
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
slicetext_src_finalize (GObject *object)
{
  g_byte_array_unref (SLICETEXT_SRC (object)->buf);
  G_OBJECT_CLASS (slicetext_src_parent_class)->finalize (object);
}

static void
slicetext_src_class_init (SlicetextSrcClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->set_property = slicetext_src_set_property;
  object_class->get_property = slicetext_src_get_property;
  object_class->finalize = slicetext_src_finalize;
  TRACE_FILE_SRC_CLASS (klass)->open = slicetext_src_open;
  TRACE_BASE_SRC_CLASS (klass)->create = slicetext_src_create;
  TRACE_BASE_SRC_CLASS (klass)->finish = slicetext_src_finish;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = slicetext_src_collect_stats;

  properties[PROP_PID] =
      g_param_spec_int64 ("pid", "Pid", "The process the threads of the file belong to",
                          0, G_MAXINT32, 1, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  /* The `src` pad template and `location` come from the base classes. */
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "slicetext source", "Source/Trace",
                                    "Reads slicetext files: one `ts_ns tid name dur_ns` slice a line (an example)",
                                    "examples/plugin");
}

static void
slicetext_src_init (SlicetextSrc *self)
{
  self->pid = 1;
  self->buf = g_byte_array_sized_new (CHUNK_SIZE);
}

/* ---- detection, for auto-src ---- */

/* A slicetext file announces itself on its first line. */
guint
slicetext_type_find (const guint8 *data,
                     gsize size,
                     gpointer user_data)
{
  static const char magic[] = "# slicetext";

  if (size >= sizeof magic - 1 && memcmp (data, magic, sizeof magic - 1) == 0)
    return 100;
  return 0;
}

TRACE_ELEMENT_REGISTER_DEFINE (slicetext_src, "slicetext-src", TRACE_RANK_SECONDARY, SLICETEXT_TYPE_SRC)
