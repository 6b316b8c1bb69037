/* tracepipe - base class for sources of a line-based format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "trace/trace.h"
#include "trace-private.h"

/* Reads grow the buffer from here, up to a whole longest line plus one
 * block: larger reads than this gain nothing once the kernel's readahead
 * runs, and a source of short files stays small. */
#define BLOCK_SIZE (64 * 1024)

static const TraceLineSrcSkip too_long = { "line-too-long", "longer than 1 MiB" };

typedef struct
{
  GInputStream *stream; /* the base's, alive until close */
  char *buf;
  gsize cap, len, pos;
  gboolean eof;
  gboolean discarding; /* inside a line longer than the maximum */
  guint64 lines;
  guint64 *skipped; /* per reason; the last one is too_long */
  guint64 first_skipped_line;
  guint first_reason;
} TraceLineSrcPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TraceLineSrc, trace_line_src, TRACE_TYPE_FILE_SRC)

#define PRIV(s) ((TraceLineSrcPrivate *) trace_line_src_get_instance_private (s))

static GQuark
skip_table_quark (void)
{
  return g_quark_from_static_string ("trace-line-src-skip-reasons");
}

/* The subclass's reasons; none when it declared none. */
static const TraceClassTable *
get_skip_table (TraceLineSrc *self)
{
  static const TraceClassTable none = { NULL, 0 };
  const TraceClassTable *table = _trace_class_find_table (G_OBJECT_TYPE (self), TRACE_TYPE_LINE_SRC,
                                                          skip_table_quark ());

  return table ? table : &none;
}

static const TraceLineSrcSkip *
get_reason (TraceLineSrc *self,
            guint reason)
{
  const TraceClassTable *table = get_skip_table (self);

  return reason < table->n_items ? &((const TraceLineSrcSkip *) table->items)[reason] : &too_long;
}

static gboolean
trace_line_src_open (TraceFileSrc *src,
                     GInputStream *stream,
                     guint64 size,
                     GError **error)
{
  TraceLineSrcPrivate *priv = PRIV (TRACE_LINE_SRC (src));

  priv->stream = stream;
  priv->cap = BLOCK_SIZE;
  priv->buf = g_malloc (priv->cap);
  priv->lines = priv->first_skipped_line = 0;
  g_free (priv->skipped);
  priv->skipped = g_new0 (guint64, get_skip_table (TRACE_LINE_SRC (src))->n_items + 1);
  g_debug ("%s: reading lines", trace_file_src_get_display_name (src));
  return TRUE;
}

static void
trace_line_src_close (TraceFileSrc *src)
{
  TraceLineSrcPrivate *priv = PRIV (TRACE_LINE_SRC (src));

  /* the counters stay: --stats is read after stop */
  priv->stream = NULL;
  g_clear_pointer (&priv->buf, g_free);
  priv->cap = priv->len = priv->pos = 0;
  priv->eof = priv->discarding = FALSE;
}

/* Moves the unread tail to the front, grows the buffer when a line
 * fills it, and reads more after it. */
static gboolean
fill (TraceLineSrc *self,
      GError **error)
{
  TraceLineSrcPrivate *priv = PRIV (self);
  gssize n;

  memmove (priv->buf, priv->buf + priv->pos, priv->len - priv->pos);
  priv->len -= priv->pos;
  priv->pos = 0;
  if (priv->cap - priv->len <= 1 && priv->cap < TRACE_LINE_SRC_MAX_LINE + BLOCK_SIZE)
    {
      priv->cap = MIN (priv->cap * 2, TRACE_LINE_SRC_MAX_LINE + BLOCK_SIZE);
      priv->buf = g_realloc (priv->buf, priv->cap);
    }
  /* one byte stays free: the last line may end without a line end */
  n = g_input_stream_read (priv->stream, priv->buf + priv->len, priv->cap - priv->len - 1, NULL, error);
  if (n < 0)
    {
      g_prefix_error (error, "could not read \"%s\": ", trace_file_src_get_display_name (TRACE_FILE_SRC (self)));
      return FALSE;
    }
  priv->len += n;
  priv->eof = n == 0;
  return TRUE;
}

/* The next whole line, NUL-terminated in place; NULL when the buffer
 * holds no whole line (fill, then ask again) or at the end. */
static char *
next_line (TraceLineSrc *self,
           gsize *len)
{
  TraceLineSrcPrivate *priv = PRIV (self);
  char *line = priv->buf + priv->pos;
  gsize avail = priv->len - priv->pos;
  char *end = memchr (line, '\n', avail);

  if (end == NULL && !(priv->eof && avail > 0))
    {
      if (avail > TRACE_LINE_SRC_MAX_LINE && !priv->discarding)
        {
          priv->lines++;
          trace_line_src_skip_line (self, G_MAXUINT);
          priv->discarding = TRUE;
        }
      if (priv->discarding)
        priv->pos = priv->len;
      return NULL;
    }
  if (end == NULL)
    end = line + avail; /* the last line, without a line end */
  priv->pos = end - priv->buf + (end < priv->buf + priv->len);
  *len = end - line;
  if (*len > 0 && end[-1] == '\r')
    (*len)--;
  line[*len] = '\0';
  return line;
}

static gboolean
trace_line_src_read_batch (TraceFileSrc *src,
                           TraceBatch **out,
                           GError **error)
{
  TraceLineSrc *self = TRACE_LINE_SRC (src);
  TraceLineSrcClass *klass = TRACE_LINE_SRC_GET_CLASS (self);
  TraceLineSrcPrivate *priv = PRIV (self);
  g_autoptr (TraceBatch) batch = trace_base_src_new_batch (TRACE_BASE_SRC (src));

  while (batch->n_events < TRACE_BATCH_DEFAULT_SIZE)
    {
      gsize len;
      char *line = next_line (self, &len);

      if (line == NULL)
        {
          if (priv->eof && priv->pos == priv->len)
            break;
          if (!fill (self, error))
            return FALSE;
          continue;
        }
      if (priv->discarding)
        {
          priv->discarding = FALSE; /* the end of the long line */
          continue;
        }
      priv->lines++;
      if (!klass->parse_line (self, line, len, batch, error))
        return FALSE;
    }
  *out = batch->n_events > 0 ? g_steal_pointer (&batch) : NULL;
  return TRUE;
}

static char *
trace_line_src_get_summary (TraceFileSrc *src)
{
  TraceLineSrc *self = TRACE_LINE_SRC (src);
  TraceLineSrcPrivate *priv = PRIV (self);
  guint n = get_skip_table (self)->n_items;
  g_autoptr (GString) counts = g_string_new (NULL);
  guint64 total = 0;
  guint reasons = 0;

  if (priv->first_skipped_line == 0)
    return NULL;
  for (guint i = 0; i <= n; i++)
    if (priv->skipped[i] > 0)
      {
        g_string_append_printf (counts, "%s%" G_GUINT64_FORMAT " %s", counts->len ? ", " : "", priv->skipped[i],
                                get_reason (self, i)->what);
        total += priv->skipped[i];
        reasons++;
      }
  /* one reason: say it once */
  if (reasons == 1)
    return g_strdup_printf ("%s:%" G_GUINT64_FORMAT ": skipped %" G_GUINT64_FORMAT " line%s %s, the first here",
                            trace_file_src_get_display_name (src), priv->first_skipped_line, total,
                            total == 1 ? "" : "s", get_reason (self, priv->first_reason)->what);
  return g_strdup_printf ("%s:%" G_GUINT64_FORMAT ": skipped %" G_GUINT64_FORMAT " line%s (%s); the first here: %s",
                          trace_file_src_get_display_name (src), priv->first_skipped_line, total,
                          total == 1 ? "" : "s", counts->str, get_reason (self, priv->first_reason)->what);
}

static void
trace_line_src_collect_stats (TraceElement *element,
                              GVariantDict *dict)
{
  TraceLineSrc *self = TRACE_LINE_SRC (element);
  TraceLineSrcPrivate *priv = PRIV (self);
  guint n = get_skip_table (self)->n_items;

  TRACE_ELEMENT_CLASS (trace_line_src_parent_class)->collect_stats (element, dict);
  g_variant_dict_insert (dict, "lines", "t", priv->lines);
  for (guint i = 0; priv->skipped && i <= n; i++)
    if (priv->skipped[i] > 0)
      {
        g_autofree char *key = g_strconcat ("skipped-", get_reason (self, i)->key, NULL);

        g_variant_dict_insert (dict, key, "t", priv->skipped[i]);
      }
}

static void
trace_line_src_finalize (GObject *object)
{
  TraceLineSrcPrivate *priv = PRIV (TRACE_LINE_SRC (object));

  g_free (priv->buf);
  g_free (priv->skipped);
  G_OBJECT_CLASS (trace_line_src_parent_class)->finalize (object);
}

static void
trace_line_src_class_init (TraceLineSrcClass *klass)
{
  TraceFileSrcClass *file_src_class = TRACE_FILE_SRC_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = trace_line_src_finalize;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = trace_line_src_collect_stats;
  file_src_class->open = trace_line_src_open;
  file_src_class->read_batch = trace_line_src_read_batch;
  file_src_class->get_summary = trace_line_src_get_summary;
  file_src_class->close = trace_line_src_close;
}

static void
trace_line_src_init (TraceLineSrc *self)
{
}

/**
 * trace_line_src_class_set_skip_reasons:
 * @klass: a #TraceLineSrcClass
 * @reasons: (array length=n_reasons): why lines are skipped; static,
 *   not copied
 * @n_reasons: how many
 *
 * Declares the reasons trace_line_src_skip_line() takes, by index.
 */
void
trace_line_src_class_set_skip_reasons (TraceLineSrcClass *klass,
                                       const TraceLineSrcSkip *reasons,
                                       guint n_reasons)
{
  g_return_if_fail (TRACE_IS_LINE_SRC_CLASS (klass));
  g_return_if_fail (reasons != NULL || n_reasons == 0);

  _trace_class_set_table (G_TYPE_FROM_CLASS (klass), skip_table_quark (), reasons, n_reasons);
}

/**
 * trace_line_src_skip_line:
 * @src: a #TraceLineSrc
 * @reason: the index of the reason in the class's table
 *
 * Counts the current line as skipped, for @reason. The first skipped line
 * is named in the summary; the first of each reason in a debug message.
 */
void
trace_line_src_skip_line (TraceLineSrc *src,
                          guint reason)
{
  TraceLineSrcPrivate *priv;
  guint n;

  g_return_if_fail (TRACE_IS_LINE_SRC (src));

  priv = PRIV (src);
  n = get_skip_table (src)->n_items;
  reason = MIN (reason, n);
  if (priv->skipped[reason]++ == 0)
    g_debug ("%s:%" G_GUINT64_FORMAT ": skipped: %s", trace_file_src_get_display_name (TRACE_FILE_SRC (src)),
             priv->lines, get_reason (src, reason)->what);
  if (priv->first_skipped_line == 0)
    {
      priv->first_skipped_line = priv->lines;
      priv->first_reason = reason;
    }
}

/**
 * trace_line_src_get_line_number:
 * @src: a #TraceLineSrc
 *
 * Returns: the number of the line being parsed, counted from 1
 */
guint64
trace_line_src_get_line_number (TraceLineSrc *src)
{
  g_return_val_if_fail (TRACE_IS_LINE_SRC (src), 0);

  return PRIV (src)->lines;
}
