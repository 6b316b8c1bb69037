/* tracepipe - base class for sources that read a file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gfiledescriptorbased.h>
#include <gio/gunixinputstream.h>
#include <glib/gstdio.h>

#include "trace/trace.h"
#include "trace-private.h"

typedef struct
{
  char *location;
  char *display_name;   /* location as messages show it: cut if huge */
  GInputStream *raw;    /* the file or stdin, for the position */
  GCancellable *cancel; /* ends a read waiting on an idle pipe: send_eos, stop */
  GInputStream *stream; /* what the subclass reads: decompressed */
  guint64 size;
  gboolean decompressed;
  gboolean cut;             /* the file was cut while read: the stream ended */
  TraceInputMap *input_map; /* from the start to the stop */
  GInputStream *given;      /* _trace_file_src_take_input(): read instead of the location */
  guint64 given_size;
} TraceFileSrcPrivate;

enum
{
  PROP_0,
  PROP_LOCATION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TraceFileSrc, trace_file_src, TRACE_TYPE_BASE_SRC)

#define PRIV(s) ((TraceFileSrcPrivate *) trace_file_src_get_instance_private (s))

/* A FIFO, terminal or socket given by path. open(2) of a FIFO would wait
 * for a writer, out of reach of Ctrl-C: open it without waiting, then
 * read it through the waiting stream like standard input (on Linux, a
 * FIFO that never had a writer polls as not readable, not as ended). */
static GInputStream *
open_pollable_path (const char *location,
                    GCancellable *cancel,
                    GMainContext *context,
                    GError **error)
{
  int fd = g_open (location, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);

  if (fd < 0)
    {
      int saved = errno;
      g_autofree char *quoted = _trace_quote_value (location);

      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_OPEN_READ, "could not open %s for reading: %s",
                   quoted, g_strerror (saved));
      return NULL;
    }
  /* reads happen only once poll says readable: blocking mode is fine */
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  return _trace_wait_stream_new (g_unix_input_stream_new (fd, TRUE), cancel, context);
}

/* Whether @location is read as it comes (standard input, a FIFO, a
 * terminal, a socket): it cannot be read twice, nor mapped. */
gboolean
_trace_location_is_stream (const char *location)
{
  GStatBuf st;

  return g_str_equal (location, "-") ||
         (g_stat (location, &st) == 0 && (S_ISFIFO (st.st_mode) || S_ISCHR (st.st_mode) || S_ISSOCK (st.st_mode)));
}

/* The input @location names, as every file source opens it: standard
 * input for "-", a pipe or device without blocking the main loop (the
 * read waits in @context until data comes or @cancel is cancelled), or
 * the file through GIO. @size: the file's size, 0 when unknown. */
GInputStream *
_trace_file_src_open_location (const char *location,
                               GCancellable *cancel,
                               GMainContext *context,
                               guint64 *size,
                               GError **error)
{
  g_autoptr (GFile) file = NULL;
  g_autoptr (GFileInfo) info = NULL;
  g_autoptr (GError) local = NULL;
  GFileInputStream *in;
  GStatBuf st;

  *size = 0;
  if (g_str_equal (location, "-") && fstat (STDIN_FILENO, &st) == 0 && S_ISREG (st.st_mode))
    *size = st.st_size; /* `< file`: a file, whose size and position are known */
  if (g_str_equal (location, "-"))
    return _trace_wait_stream_new (g_unix_input_stream_new (0, FALSE), cancel, context);
  if (_trace_location_is_stream (location))
    return open_pollable_path (location, cancel, context, error);
  file = _trace_location_to_file (location);
  in = g_file_read (file, NULL, &local);
  if (in == NULL)
    {
      gboolean missing = g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
      g_autofree char *quoted = _trace_quote_value (location);
      g_autofree char *reason = _trace_cut_middle (local->message, 2 * TRACE_QUOTED_VALUE_MAX); /* GIO's holds the path too */

      g_set_error (error, TRACE_RESOURCE_ERROR,
                   missing ? TRACE_RESOURCE_ERROR_NOT_FOUND : TRACE_RESOURCE_ERROR_OPEN_READ,
                   "could not open %s for reading: %s", quoted, reason);
      return NULL;
    }
  info = g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_STANDARD_SIZE, NULL, NULL);
  if (info)
    *size = g_file_info_get_size (info);
  return G_INPUT_STREAM (in);
}

/**
 * _trace_file_src_take_input:
 * @src: a #TraceFileSrc, not started
 * @input: (transfer full): the input, from its first byte
 * @size: its size, 0 when unknown
 *
 * Gives @src its input already open: at its next start it reads @input
 * instead of opening its location, which still names the input in
 * messages. auto-src hands over so a pipe it has begun to read for
 * detection, the bytes it read replayed first (TraceRewindStream).
 */
void
_trace_file_src_take_input (TraceFileSrc *src,
                            GInputStream *input,
                            guint64 size)
{
  TraceFileSrcPrivate *priv = PRIV (src);

  g_clear_object (&priv->given);
  priv->given = input;
  priv->given_size = size;
}

/* gzip is a property of the file, not of the format: undo it here, once,
 * for every source. (zlib inside a format, as ctrace, is the format's.) */
/* The buffer only has to hold the two magic bytes: a read larger than
 * it bypasses it and goes straight into the reader's block.  Readers
 * read 256 KiB to 1 MiB at a time, so with a small buffer the data is
 * copied once (by the kernel) instead of twice; with a 1 MiB buffer the
 * extra memcpy was 13 % of ftrace-src's parse time. */
#define SNIFF_BUFFER_SIZE (64 * 1024)

/* The gzip input did not end after a whole member: say so, with the
 * byte offset, once. What was inflated before is read as usual. */
static void
on_gzip_end (TraceGzipDecoder *decoder,
             gpointer user_data)
{
  TraceFileSrc *self = user_data;
  const char *name = trace_file_src_get_display_name (self);
  guint64 offset, trailing;
  guint members;

  switch (_trace_gzip_decoder_get_end (decoder, &offset, &trailing, &members))
    {
    case TRACE_GZIP_END_CUT:
      trace_element_post_warning (TRACE_ELEMENT (self), NULL,
                                  "%s: the compressed data ends early at byte %" G_GUINT64_FORMAT
                                  " (inside gzip member %u): the file was cut; what came before is read",
                                  name, offset, members + 1);
      break;
    case TRACE_GZIP_END_TRAILING:
      trace_element_post_warning (TRACE_ELEMENT (self), NULL,
                                  "%s: %" G_GUINT64_FORMAT " bytes at byte %" G_GUINT64_FORMAT
                                  " after %u gzip member%s are not gzip data: ignored",
                                  name, trailing, offset, members, members == 1 ? "" : "s");
      break;
    default:
      break;
    }
}

static GInputStream *
maybe_decompress (TraceFileSrc *self,
                  GInputStream *raw,
                  GError **error)
{
  GBufferedInputStream *buffered = G_BUFFERED_INPUT_STREAM (g_buffered_input_stream_new_sized (raw, SNIFF_BUFFER_SIZE));
  gsize avail = 0;
  const guint8 *head;

  if (g_buffered_input_stream_fill (buffered, 2, NULL, error) < 0)
    {
      g_object_unref (buffered);
      return NULL;
    }
  head = g_buffered_input_stream_peek_buffer (buffered, &avail);
  if (avail >= 2 && head[0] == 0x1f && head[1] == 0x8b)
    {
      /* every member: `cat a.gz b.gz`, pigz and bgzip write several */
      g_autoptr (TraceGzipDecoder) dec = _trace_gzip_decoder_new (on_gzip_end, self);
      GInputStream *conv = g_converter_input_stream_new (G_INPUT_STREAM (buffered), G_CONVERTER (dec));
      g_object_unref (buffered);
      PRIV (self)->decompressed = TRUE;
      return conv;
    }
  return G_INPUT_STREAM (buffered);
}

static void
close_reader (TraceFileSrc *self)
{
  TraceFileSrcClass *klass = TRACE_FILE_SRC_GET_CLASS (self);

  if (klass->close)
    klass->close (self);
}

static gboolean
trace_file_src_start (TraceBaseSrc *src,
                      GError **error)
{
  TraceFileSrc *self = TRACE_FILE_SRC (src);
  TraceFileSrcPrivate *priv = PRIV (self);
  TraceFileSrcClass *klass = TRACE_FILE_SRC_GET_CLASS (self);

  if (priv->location == NULL || *priv->location == '\0')
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS,
                   "no file to read: set the \"location\" property (a path, or - for standard input)");
      return FALSE;
    }
  g_cancellable_reset (priv->cancel);
  priv->decompressed = FALSE;
  if (priv->given != NULL)
    priv->raw = g_steal_pointer (&priv->given), priv->size = priv->given_size;
  else
    priv->raw = _trace_file_src_open_location (priv->location, priv->cancel,
                                               trace_element_get_main_context (TRACE_ELEMENT (self)), &priv->size,
                                               error);
  if (priv->raw == NULL)
    return FALSE;
  priv->stream = maybe_decompress (self, priv->raw, error);
  if (priv->stream == NULL)
    {
      g_autofree char *quoted = _trace_quote_value (priv->location);

      g_prefix_error (error, "could not read %s: ", quoted);
      return FALSE;
    }
  close_reader (self);
  g_clear_pointer (&priv->input_map, _trace_input_map_free);
  priv->input_map = _trace_input_map_new (!priv->decompressed && G_IS_FILE_DESCRIPTOR_BASED (priv->raw)
                                              ? g_file_descriptor_based_get_fd (G_FILE_DESCRIPTOR_BASED (priv->raw))
                                              : -1,
                                          trace_file_src_get_display_name (self));
  return klass->open == NULL || klass->open (self, priv->stream, priv->size, error);
}

/**
 * trace_file_src_announce_stream:
 * @src: a #TraceFileSrc
 *
 * Asks #TraceFileSrcClass.get_stream_info again and sends what it says:
 * for what a reader learns late (a JSON trace's clock domain, in
 * metadata after the events). The base asks once by itself, after the
 * first batch.
 */
void
trace_file_src_announce_stream (TraceFileSrc *src)
{
  TraceFileSrcClass *klass;
  TraceStreamInfo info = { 0 };

  g_return_if_fail (TRACE_IS_FILE_SRC (src));

  klass = TRACE_FILE_SRC_GET_CLASS (src);
  if (klass->get_stream_info == NULL)
    return;
  klass->get_stream_info (src, &info);
  g_debug ("%s: %s, clock %s (from %s)", trace_file_src_get_display_name (src), info.format,
           trace_clock_domain_to_string (info.clock_domain), info.clock_source);
  trace_base_src_set_stream_flags (TRACE_BASE_SRC (src), info.flags);
  trace_base_src_set_stream_info (TRACE_BASE_SRC (src), info.format, PRIV (src)->location, info.clock_domain,
                                  info.clock_source);
}

/* Whether the file is shorter than it was: cut while it was read
 * (logrotate's copytruncate). @had is its size at the start (the bytes
 * mapped, if a mapping saw the cut), @has its size now. */
static gboolean
file_was_cut (TraceFileSrc *self,
              guint64 *had,
              guint64 *has)
{
  TraceFileSrcPrivate *priv = PRIV (self);
  gboolean map_cut = FALSE;
  gsize mapped = 0;
  GStatBuf st;

  *had = priv->size;
  *has = 0;
  if (priv->input_map != NULL && !_trace_input_map_check (priv->input_map, &mapped))
    {
      map_cut = TRUE;
      *had = mapped;
    }
  if (priv->raw == NULL || !G_IS_FILE_DESCRIPTOR_BASED (priv->raw) ||
      fstat (g_file_descriptor_based_get_fd (G_FILE_DESCRIPTOR_BASED (priv->raw)), &st) != 0 ||
      !S_ISREG (st.st_mode))
    return map_cut;
  *has = st.st_size;
  return map_cut || (guint64) st.st_size < *had;
}

/* The file was cut while it was read: one WARNING, then the end of the
 * stream with what was read before (a reader's error at the new end is
 * the cut's, not the file's). A batch read through a mapping that was
 * cut may hold the zeros where the bytes were: dropped. */
static TraceFlowReturn
end_cut_file (TraceFileSrc *self,
              guint64 had,
              guint64 has,
              TraceBatch **out,
              GError **error)
{
  gsize mapped;

  trace_element_post_warning (TRACE_ELEMENT (self), NULL,
                              "%s: the file was cut short while it was read (it had %" G_GUINT64_FORMAT
                              " bytes, it has %" G_GUINT64_FORMAT "): what was read before is kept",
                              trace_file_src_get_display_name (self), had, has);
  PRIV (self)->cut = TRUE;
  g_clear_error (error);
  if (PRIV (self)->input_map != NULL && !_trace_input_map_check (PRIV (self)->input_map, &mapped))
    g_clear_pointer (out, trace_batch_unref);
  return *out ? TRACE_FLOW_OK : TRACE_FLOW_EOS;
}

/* The steps every format source took by hand: the reader gives a batch;
 * the stream is described with the first one, progress after each. */
static TraceFlowReturn
trace_file_src_create (TraceBaseSrc *src,
                       TraceBatch **out,
                       GError **error)
{
  TraceFileSrc *self = TRACE_FILE_SRC (src);
  TraceFileSrcClass *klass = TRACE_FILE_SRC_GET_CLASS (self);
  gboolean first = trace_base_src_get_events_produced (src) == 0;
  guint64 had, has;
  gboolean ok;

  if (klass->read_batch == NULL)
    {
      g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_FAILED, "%s has no reader (read_batch)",
                   G_OBJECT_TYPE_NAME (self));
      return TRACE_FLOW_ERROR;
    }
  if (PRIV (self)->cut)
    return TRACE_FLOW_EOS;
  ok = klass->read_batch (self, out, error);
  if (file_was_cut (self, &had, &has))
    return end_cut_file (self, had, has, out, error);
  if (!ok)
    return TRACE_FLOW_ERROR;
  /* not on an empty batch: the reader may not know its format yet, and
   * the stream would be announced again at each one */
  if (first && (*out == NULL || (*out)->n_events > 0))
    trace_file_src_announce_stream (self);
  trace_file_src_update_progress (self);
  return *out ? TRACE_FLOW_OK : TRACE_FLOW_EOS;
}

static void
trace_file_src_finish (TraceBaseSrc *src)
{
  TraceFileSrcClass *klass = TRACE_FILE_SRC_GET_CLASS (src);
  g_autofree char *summary = klass->get_summary ? klass->get_summary (TRACE_FILE_SRC (src)) : NULL;

  if (summary)
    trace_element_post_warning (TRACE_ELEMENT (src), NULL, "%s", summary);
}

static GQuark
stats_table_quark (void)
{
  return g_quark_from_static_string ("trace-file-src-stats");
}

/**
 * trace_file_src_class_set_stats:
 * @klass: a #TraceFileSrcClass
 * @stats: (array length=n_stats): the reader's counters, in the order
 *   they are reported; static, not copied
 * @n_stats: how many
 *
 * Declares the counters the base reports in `--stats` from the struct
 * #TraceFileSrcClass.get_stats returns, so that a key is written once,
 * beside the counter it names.
 */
void
trace_file_src_class_set_stats (TraceFileSrcClass *klass,
                                const TraceFileSrcStat *stats,
                                guint n_stats)
{
  g_return_if_fail (TRACE_IS_FILE_SRC_CLASS (klass));
  g_return_if_fail (stats != NULL || n_stats == 0);

  _trace_class_set_table (G_TYPE_FROM_CLASS (klass), stats_table_quark (), stats, n_stats);
}

static void
trace_file_src_collect_stats (TraceElement *element,
                              GVariantDict *dict)
{
  TraceFileSrcClass *klass = TRACE_FILE_SRC_GET_CLASS (element);
  const TraceClassTable *table = _trace_class_find_table (G_OBJECT_TYPE (element), TRACE_TYPE_FILE_SRC,
                                                          stats_table_quark ());
  const TraceFileSrcStat *stats;
  const guint8 *counters;

  TRACE_ELEMENT_CLASS (trace_file_src_parent_class)->collect_stats (element, dict);
  if (table == NULL || klass->get_stats == NULL || (counters = klass->get_stats (TRACE_FILE_SRC (element))) == NULL)
    return;
  stats = table->items;
  for (guint i = 0; i < table->n_items; i++)
    {
      guint64 value;

      memcpy (&value, counters + stats[i].offset, sizeof value);
      if (value > 0 || stats[i].always)
        g_variant_dict_insert (dict, stats[i].key, "t", value);
    }
}

static gboolean
trace_file_src_stop (TraceBaseSrc *src,
                     GError **error)
{
  TraceFileSrcPrivate *priv = PRIV (TRACE_FILE_SRC (src));

  close_reader (TRACE_FILE_SRC (src));
  g_clear_pointer (&priv->input_map, _trace_input_map_free);
  priv->cut = FALSE;
  g_cancellable_cancel (priv->cancel);
  g_clear_object (&priv->stream);
  g_clear_object (&priv->raw);
  return TRUE;
}

/* The first Ctrl-C: a read waiting on an idle pipe or terminal must end
 * now, not when data comes. Thread-safe, as the parent's. */
static void
trace_file_src_send_eos (TraceElement *element)
{
  TRACE_ELEMENT_CLASS (trace_file_src_parent_class)->send_eos (element);
  g_cancellable_cancel (PRIV (TRACE_FILE_SRC (element))->cancel);
}

static void
trace_file_src_set_property (GObject *object,
                             guint prop_id,
                             const GValue *value,
                             GParamSpec *pspec)
{
  TraceFileSrcPrivate *priv = PRIV (TRACE_FILE_SRC (object));

  switch (prop_id)
    {
    case PROP_LOCATION:
      g_free (priv->location);
      priv->location = g_value_dup_string (value);
      g_clear_pointer (&priv->display_name, g_free);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_file_src_get_property (GObject *object,
                             guint prop_id,
                             GValue *value,
                             GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_LOCATION:
      g_value_set_string (value, PRIV (TRACE_FILE_SRC (object))->location);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_file_src_dispose (GObject *object)
{
  /* before any finalize: the subclass's reader still holds its fields */
  close_reader (TRACE_FILE_SRC (object));
  g_clear_pointer (&PRIV (TRACE_FILE_SRC (object))->input_map, _trace_input_map_free);
  G_OBJECT_CLASS (trace_file_src_parent_class)->dispose (object);
}

static void
trace_file_src_finalize (GObject *object)
{
  TraceFileSrcPrivate *priv = PRIV (TRACE_FILE_SRC (object));

  g_free (priv->location);
  g_free (priv->display_name);
  g_clear_object (&priv->stream);
  g_clear_object (&priv->raw);
  g_clear_object (&priv->given);
  g_clear_object (&priv->cancel);
  G_OBJECT_CLASS (trace_file_src_parent_class)->finalize (object);
}

static void
trace_file_src_class_init (TraceFileSrcClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceBaseSrcClass *src_class = TRACE_BASE_SRC_CLASS (klass);

  object_class->set_property = trace_file_src_set_property;
  object_class->get_property = trace_file_src_get_property;
  object_class->dispose = trace_file_src_dispose;
  object_class->finalize = trace_file_src_finalize;
  src_class->start = trace_file_src_start;
  src_class->stop = trace_file_src_stop;
  src_class->create = trace_file_src_create;
  src_class->finish = trace_file_src_finish;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = trace_file_src_collect_stats;
  TRACE_ELEMENT_CLASS (klass)->send_eos = trace_file_src_send_eos;

  /**
   * TraceFileSrc:location:
   *
   * The file to read, or `-` for standard input. gzip files are
   * decompressed on the fly.
   */
  properties[PROP_LOCATION] =
      g_param_spec_string ("location", "Location", "The file to read (- for standard input; .gz is decompressed)",
                           NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
trace_file_src_init (TraceFileSrc *self)
{
  PRIV (self)->cancel = g_cancellable_new ();
}

/**
 * trace_file_src_get_location:
 * @src: a #TraceFileSrc
 *
 * Returns: (nullable): the location as the user gave it
 */
const char *
trace_file_src_get_location (TraceFileSrc *src)
{
  g_return_val_if_fail (TRACE_IS_FILE_SRC (src), NULL);

  return PRIV (src)->location;
}

/**
 * trace_file_src_get_display_name:
 * @src: a #TraceFileSrc
 *
 * Returns: the name to use in messages: the location, or `<stdin>`; a
 *   location longer than a few hundred bytes is cut (ending in `…`), so
 *   that a huge value never makes a huge message
 */
const char *
trace_file_src_get_display_name (TraceFileSrc *src)
{
  TraceFileSrcPrivate *priv;
  const char *location;

  g_return_val_if_fail (TRACE_IS_FILE_SRC (src), NULL);

  priv = PRIV (src);

  location = priv->location;
  if (location == NULL)
    return "(no location)";
  if (g_str_equal (location, "-"))
    return "<stdin>";
  if (strlen (location) <= TRACE_QUOTED_VALUE_MAX)
    return location;
  if (priv->display_name == NULL)
    {
      g_autofree char *quoted = _trace_quote_value (location);

      /* the quoted form without its quotes and byte count */
      priv->display_name = g_strndup (quoted + 1, strstr (quoted, "...\"") + strlen ("...") - quoted - 1);
    }
  return priv->display_name;
}

/**
 * trace_file_src_get_bytes_read:
 * @src: a #TraceFileSrc
 *
 * Returns: how far into the file (compressed bytes for a gzip file) the
 *   reading got; for a pipe, the bytes read from it so far
 */
guint64
trace_file_src_get_bytes_read (TraceFileSrc *src)
{
  GInputStream *raw;
  gboolean mapped = FALSE;
  guint64 map_position = 0;

  g_return_val_if_fail (TRACE_IS_FILE_SRC (src), 0);

  raw = PRIV (src)->raw;
  if (PRIV (src)->input_map != NULL)
    map_position = _trace_input_map_get_position (PRIV (src)->input_map, &mapped);
  if (mapped)
    return MAX (map_position, raw ? (guint64) g_seekable_tell (G_SEEKABLE (raw)) : 0);
  if (raw && G_IS_SEEKABLE (raw) && g_seekable_can_seek (G_SEEKABLE (raw)))
    return g_seekable_tell (G_SEEKABLE (raw));
  if (raw && G_IS_UNIX_INPUT_STREAM (raw)) /* standard input from a file */
    return MAX (lseek (g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (raw)), 0, SEEK_CUR), 0);
  if (raw && _trace_is_rewind_stream (raw))
    return _trace_rewind_stream_get_position (raw);
  return raw ? _trace_wait_stream_get_bytes_read (raw) : 0;
}

/**
 * trace_file_src_get_size:
 * @src: a #TraceFileSrc
 *
 * Returns: the size of the file, 0 when unknown
 */
guint64
trace_file_src_get_size (TraceFileSrc *src)
{
  g_return_val_if_fail (TRACE_IS_FILE_SRC (src), 0);

  return PRIV (src)->size;
}

/**
 * trace_file_src_update_progress:
 * @src: a #TraceFileSrc
 *
 * Posts progress from the file position; call it after each batch.
 */
void
trace_file_src_update_progress (TraceFileSrc *src)
{
  g_return_if_fail (TRACE_IS_FILE_SRC (src));

  trace_base_src_set_progress (TRACE_BASE_SRC (src), trace_file_src_get_bytes_read (src), PRIV (src)->size);
}

/**
 * trace_file_src_get_input_map:
 * @src: a #TraceFileSrc
 *
 * The input in place, for the reader #TraceFileSrcClass.open makes: the
 * source hands it over so that the reader need not know the source.
 *
 * Returns: (transfer none) (nullable): the input's map, valid from
 *   #TraceFileSrcClass.open until the source stops; %NULL outside
 */
TraceInputMap *
trace_file_src_get_input_map (TraceFileSrc *src)
{
  g_return_val_if_fail (TRACE_IS_FILE_SRC (src), NULL);

  return PRIV (src)->input_map;
}

/**
 * trace_file_src_map_input:
 * @src: a #TraceFileSrc, between #TraceFileSrcClass.open and the end
 *   of the input
 * @size: (out): the bytes mapped
 *
 * trace_input_map_get_data() on the source's input map, for a subclass
 * that reads the input itself.
 *
 * Returns: (transfer none) (nullable) (array length=size): the bytes,
 *   valid until the source stops; %NULL when there is no mapping
 */
const guint8 *
trace_file_src_map_input (TraceFileSrc *src,
                          gsize *size)
{
  g_return_val_if_fail (TRACE_IS_FILE_SRC (src), NULL);
  g_return_val_if_fail (size != NULL, NULL);

  *size = 0;
  if (PRIV (src)->input_map == NULL)
    return NULL;
  return trace_input_map_get_data (PRIV (src)->input_map, size);
}

/**
 * trace_file_src_set_mapped_position:
 * @src: a #TraceFileSrc
 * @position: the reader is done with the bytes of the mapping before
 *   this one
 *
 * trace_input_map_set_position() on the source's input map.
 */
void
trace_file_src_set_mapped_position (TraceFileSrc *src,
                                    guint64 position)
{
  g_return_if_fail (TRACE_IS_FILE_SRC (src));

  if (PRIV (src)->input_map != NULL)
    trace_input_map_set_position (PRIV (src)->input_map, position);
}
