/* tracepipe - base class for sinks that write a file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#define _GNU_SOURCE /* renameat2 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <gio/gunixoutputstream.h>
#include <glib/gstdio.h>

#include "trace/trace.h"
#include "trace-private.h"

#define OUTPUT_BUFFER_SIZE (1 << 20)
#define TEMP_PREFIX "."
#define TEMP_SUFFIX ".XXXXXX.part"
#define DEFAULT_WRITER_THREAD TRUE
/* What is rendered reaches the file within this long (docs/perfetto.md). */
#define FLUSH_INTERVAL_US G_USEC_PER_SEC

typedef struct
{
  char *location;
  char *target;          /* location with its symlinks followed: what is replaced */
  char *temp_path;       /* NULL when writing to standard output */
  GOutputStream *stream; /* buffered; owns the file stream (through the gzip converter, if any) */
  GOutputStream *file;   /* the file stream itself, to abort without finishing the gzip stream */
  gboolean writer_thread;
  gpointer writer; /* the subclass's, from the first batch to stop */
  /* The periodic flush: the render (on whichever thread renders) and the
   * timer (in the main loop) each flush under the lock. */
  GMutex flush_lock;
  GSource *flush_timer; /* from start to finish or stop */
  gint64 flushed_at;    /* monotonic time of the last flush */
  gboolean dirty;       /* rendered since */
  GError *flush_error;  /* a flush of the timer failed: the next render says so */
} TraceFileSinkPrivate;

enum
{
  PROP_0,
  PROP_LOCATION,
  PROP_WRITER_THREAD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TraceFileSink, trace_file_sink, TRACE_TYPE_BASE_SINK)

#define PRIV(s) ((TraceFileSinkPrivate *) trace_file_sink_get_instance_private (s))

/* `DIR/.NAME.XXXXXX.part`, with NAME cut (at a character boundary) so
 * that the temporary's name fits NAME_MAX whenever NAME does: a legal
 * 250-byte output name must not fail because of the 13 bytes added. */
static char *
temp_name_template (const char *dir,
                    const char *base)
{
  gsize room = NAME_MAX - strlen (TEMP_PREFIX) - strlen (TEMP_SUFFIX);
  gsize len = strlen (base);

  if (len > room)
    {
      const char *cut = base + room;

      if (g_utf8_validate (base, -1, NULL) && (*cut & 0xC0) == 0x80)
        cut = g_utf8_find_prev_char (base, cut);
      len = cut - base;
    }
  return g_strdup_printf ("%s/" TEMP_PREFIX "%.*s" TEMP_SUFFIX, dir, (int) len, base);
}

static GOutputStream *
set_open_error (GError **error,
                const char *location,
                int saved_errno)
{
  g_autofree char *quoted = _trace_quote_value (location);

  g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_OPEN_WRITE, "could not open %s for writing: %s",
               quoted, g_strerror (saved_errno));
  return NULL;
}

/* mkstemp makes the file private.  A file that replaces another keeps
 * its mode, and its owner where we may give it (a private output stays
 * private); a new one gets the mode a plain create would. */
static void
keep_mode (int fd,
           const char *target)
{
  GStatBuf st;
  mode_t mask;

  if (g_stat (target, &st) == 0 && S_ISREG (st.st_mode))
    {
      fchmod (fd, st.st_mode & 07777);
      if ((st.st_uid != geteuid () || st.st_gid != getegid ()) && fchown (fd, st.st_uid, st.st_gid) != 0)
        g_debug ("%s: the replaced file's owner is not kept: %s", target, g_strerror (errno));
      return;
    }
  mask = umask (0);
  umask (mask);
  fchmod (fd, 0666 & ~mask);
}

/* The output goes to a temporary file beside the target (same folder,
 * so the final rename is atomic) and is renamed over the target only once
 * complete: the target path never holds a partial file, and a killed run
 * leaves only the hidden temporary. */
static GOutputStream *
open_output (TraceFileSink *self,
             GError **error)
{
  TraceFileSinkPrivate *priv = PRIV (self);
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  GStatBuf st;
  int fd;

  if (g_str_equal (priv->location, "-"))
    return g_unix_output_stream_new (1, FALSE);
  /* A device, a pipe or a directory (/dev/null, /dev/stdout, a FIFO) is
   * opened as it is: a temporary renamed over it would replace the device
   * (as root) or fail to be created in /dev (as anyone else). */
  if (g_stat (priv->location, &st) == 0 && !S_ISREG (st.st_mode))
    {
      fd = g_open (priv->location, O_WRONLY | O_CLOEXEC, 0);
      if (fd < 0)
        return set_open_error (error, priv->location, errno);
      return g_unix_output_stream_new (fd, TRUE);
    }
  g_free (priv->target);
  priv->target = _trace_location_follow_symlinks (priv->location);
  if (g_file_test (priv->target, G_FILE_TEST_IS_SYMLINK)) /* a loop of links */
    return set_open_error (error, priv->location, ELOOP);
  dir = g_path_get_dirname (priv->target);
  base = g_path_get_basename (priv->target);
  priv->temp_path = temp_name_template (dir, base);
  fd = g_mkstemp_full (priv->temp_path, O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      g_clear_pointer (&priv->temp_path, g_free);
      return set_open_error (error, priv->location, errno);
    }
  keep_mode (fd, priv->target);
  return g_unix_output_stream_new (fd, TRUE);
}

/* A location ending in .gz is written as gzip by every file sink, here
 * in one place: the subclasses write plain bytes into a buffered stream
 * whose base is the converter. Closing it at EOS (a first Ctrl-C ends
 * in EOS too) writes the gzip trailer before the rename, so the file
 * that appears is always a complete .gz. */
static gboolean
wants_gzip (const char *location)
{
  g_autofree char *lower = g_ascii_strdown (location, -1);

  return g_str_has_suffix (lower, ".gz");
}

static GOutputStream *
wrap_gzip (GOutputStream *file)
{
  g_autoptr (GZlibCompressor) gz = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1);

  return g_converter_output_stream_new (file, G_CONVERTER (gz));
}

/* Puts the complete temporary @temp at @target. Over an old regular
 * file, the two are exchanged (one atomic step, as a rename is) and the
 * old one, now at @temp, is removed: ext4 makes a rename over a file
 * allocate and start writing all of the new file's blocks before it
 * returns (its auto_da_alloc, for programs that rewrite a file without
 * fsync), 30-45 ms for a 64 MB output, alone at the end of a conversion
 * that took 0.6 s (docs/performance.md). An exchange is not a rename
 * over a file, so the new file is written back as any new file is.
 * Where there is no exchange (another system or file system, no old
 * file), a plain rename. Returns 0 or -1 with errno. */
static int
move_into_place (const char *temp,
                 const char *target)
{
#ifdef HAVE_RENAMEAT2
  GStatBuf st;

  if (g_lstat (target, &st) == 0 && S_ISREG (st.st_mode) &&
      renameat2 (AT_FDCWD, temp, AT_FDCWD, target, RENAME_EXCHANGE) == 0)
    {
      if (g_unlink (temp) != 0)
        g_warning ("could not remove the old output, now at %s: %s", temp, g_strerror (errno));
      return 0;
    }
#endif
  return g_rename (temp, target);
}

static gboolean
commit_output (TraceFileSink *self,
               GError **error)
{
  TraceFileSinkPrivate *priv = PRIV (self);
  g_autoptr (GOutputStream) stream = g_steal_pointer (&priv->stream);
  g_autofree char *temp = g_steal_pointer (&priv->temp_path);
  g_autofree char *quoted = _trace_quote_value (priv->location);

  priv->file = NULL;
  if (!g_output_stream_close (stream, NULL, error))
    {
      g_prefix_error (error, "could not complete %s: ", quoted);
      if (temp)
        g_unlink (temp);
      return FALSE;
    }
  if (temp && move_into_place (temp, priv->target) != 0)
    {
      int saved = errno;
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_CLOSE,
                   "could not move the output into place at %s: %s", quoted, g_strerror (saved));
      g_unlink (temp);
      return FALSE;
    }
  return TRUE;
}

static void
abort_output (TraceFileSink *self)
{
  TraceFileSinkPrivate *priv = PRIV (self);

  if (priv->stream)
    {
      /* Close the file itself, without flushing what is buffered nor
       * finishing the gzip stream: the temporary is thrown away. */
      g_output_stream_close (priv->file, NULL, NULL);
      priv->file = NULL;
      g_clear_object (&priv->stream);
    }
  if (priv->temp_path)
    {
      g_unlink (priv->temp_path);
      g_clear_pointer (&priv->temp_path, g_free);
    }
}

/* The writer is made once the stream said what it is (its clock, its
 * facts), at the first batch; at EOS for a stream without batches. */
static gpointer
ensure_writer (TraceFileSink *self)
{
  TraceFileSinkPrivate *priv = PRIV (self);

  if (priv->writer == NULL)
    priv->writer = TRACE_FILE_SINK_GET_CLASS (self)->new_writer (
        self, priv->stream, trace_base_sink_get_stream_info (TRACE_BASE_SINK (self)));
  return priv->writer;
}

static void
free_writer (TraceFileSink *self)
{
  TraceFileSinkPrivate *priv = PRIV (self);

  if (priv->writer)
    TRACE_FILE_SINK_GET_CLASS (self)->free_writer (g_steal_pointer (&priv->writer));
}

/* What the writer dropped: with @dict into the stats, else the WARNING. */
static void
handle_drops (TraceFileSink *self,
              GVariantDict *dict)
{
  TraceFileSinkClass *klass = TRACE_FILE_SINK_GET_CLASS (self);
  g_autoptr (GArray) drops = NULL;

  if (klass->get_drops == NULL || PRIV (self)->writer == NULL)
    return;
  drops = g_array_new (FALSE, FALSE, sizeof (TraceSinkDrop));
  klass->get_drops (self, PRIV (self)->writer, drops);
  trace_base_sink_handle_drops (TRACE_BASE_SINK (self), dict, (const TraceSinkDrop *) drops->data, drops->len);
}

/* Moves what the writer and the stream buffer into the file, with the
 * flush lock held: the events rendered so far, as whole records, are
 * then in the file (not synced to the disk: that is the kernel's
 * writeback). */
static gboolean
flush_locked (TraceFileSink *self,
              gint64 now,
              GError **error)
{
  TraceFileSinkPrivate *priv = PRIV (self);
  TraceFileSinkClass *klass = TRACE_FILE_SINK_GET_CLASS (self);

  priv->flushed_at = now;
  priv->dirty = FALSE;
  if (priv->writer && klass->flush_writer && !klass->flush_writer (priv->writer, error))
    return FALSE;
  return g_output_stream_flush (priv->stream, NULL, error);
}

/* The timer covers a stream that stopped coming: what its last batches
 * left in the buffers goes to the file within a second. A render in
 * progress flushes itself when it ends, if due. */
static gboolean
on_flush_timer (gpointer data)
{
  TraceFileSink *self = data;
  TraceFileSinkPrivate *priv = PRIV (self);

  if (!g_mutex_trylock (&priv->flush_lock))
    return G_SOURCE_CONTINUE;
  if (priv->flush_timer && priv->dirty && priv->flush_error == NULL)
    flush_locked (self, g_get_monotonic_time (), &priv->flush_error);
  g_mutex_unlock (&priv->flush_lock);
  return G_SOURCE_CONTINUE;
}

static void
start_flush_timer (TraceFileSink *self)
{
  TraceFileSinkPrivate *priv = PRIV (self);
  GSource *timer = g_timeout_source_new (FLUSH_INTERVAL_US / 1000);

  g_source_set_callback (timer, on_flush_timer, self, NULL);
  g_source_set_name (timer, "trace-file-sink-flush");
  priv->flushed_at = g_get_monotonic_time ();
  priv->dirty = FALSE;
  g_mutex_lock (&priv->flush_lock);
  priv->flush_timer = timer;
  g_mutex_unlock (&priv->flush_lock);
  g_source_attach (timer, trace_element_get_main_context (TRACE_ELEMENT (self)));
}

/* After this the timer flushes no more (a callback running on the main
 * thread finished: it holds the lock while it runs). */
static void
stop_flush_timer (TraceFileSink *self)
{
  TraceFileSinkPrivate *priv = PRIV (self);
  GSource *timer;

  g_mutex_lock (&priv->flush_lock);
  timer = g_steal_pointer (&priv->flush_timer);
  g_mutex_unlock (&priv->flush_lock);
  if (timer)
    {
      g_source_destroy (timer);
      g_source_unref (timer);
    }
}

/* One clock read per batch, not per event; a flush at most once a
 * second, so a bulk conversion makes no more writes than its buffers
 * would. */
static TraceFlowReturn
trace_file_sink_render (TraceBaseSink *sink,
                        TraceBatch *batch,
                        GError **error)
{
  TraceFileSink *self = TRACE_FILE_SINK (sink);
  TraceFileSinkPrivate *priv = PRIV (self);
  TraceFileSinkClass *klass = TRACE_FILE_SINK_GET_CLASS (self);
  gboolean ok;
  gint64 now;

  if (klass->new_writer == NULL)
    return TRACE_FLOW_OK;
  g_mutex_lock (&priv->flush_lock);
  if (priv->flush_error)
    {
      g_propagate_error (error, g_steal_pointer (&priv->flush_error));
      g_mutex_unlock (&priv->flush_lock);
      return TRACE_FLOW_ERROR;
    }
  ok = klass->write_batch (ensure_writer (self), batch, error);
  priv->dirty = TRUE;
  now = g_get_monotonic_time ();
  if (ok && now - priv->flushed_at >= FLUSH_INTERVAL_US)
    ok = flush_locked (self, now, error);
  g_mutex_unlock (&priv->flush_lock);
  return ok ? TRACE_FLOW_OK : TRACE_FLOW_ERROR;
}

/* The writer completes the output, then says what it dropped: the
 * WARNING comes before the sink's STATS. */
static gboolean
finish_writer (TraceFileSink *self,
               GError **error)
{
  TraceFileSinkClass *klass = TRACE_FILE_SINK_GET_CLASS (self);
  const TraceStreamInfo *info = trace_base_sink_get_stream_info (TRACE_BASE_SINK (self));

  if (klass->new_writer == NULL)
    return TRUE;
  if (!klass->finish_writer (self, ensure_writer (self), info, error))
    return FALSE;
  handle_drops (self, NULL);
  return TRUE;
}

static gboolean
trace_file_sink_start (TraceBaseSink *sink,
                       GError **error)
{
  TraceFileSink *self = TRACE_FILE_SINK (sink);
  TraceFileSinkPrivate *priv = PRIV (self);
  TraceFileSinkClass *klass = TRACE_FILE_SINK_GET_CLASS (self);

  if (priv->location == NULL || *priv->location == '\0')
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS,
                   "no file to write: set the \"location\" property (a path, or - for standard output)");
      return FALSE;
    }
  GOutputStream *out = open_output (self, error);
  if (out == NULL)
    return FALSE;
  priv->file = out;
  if (wants_gzip (priv->location))
    {
      /* the converter holds the file now and closes it with itself */
      out = wrap_gzip (priv->file);
      g_object_unref (priv->file);
    }
  priv->stream = g_buffered_output_stream_new_sized (out, OUTPUT_BUFFER_SIZE);
  g_object_unref (out);
  /* The stream is our own wrapper: closing it must close the file too. */
  g_filter_output_stream_set_close_base_stream (G_FILTER_OUTPUT_STREAM (priv->stream), TRUE);
  /* With one core the hand-off would only cost (~25 % more CPU when the
   * two threads share a core, docs/performance.md). */
  _trace_base_sink_set_render_thread (sink, priv->writer_thread && g_get_num_processors () > 1);
  if (klass->begin != NULL && !klass->begin (self, priv->stream, error))
    {
      /* The element stays in NULL, so stop() would not run before the
       * element is freed: drop the temporary now. */
      abort_output (self);
      return FALSE;
    }
  /* A subclass that renders itself writes the stream outside our lock. */
  if (klass->new_writer != NULL)
    start_flush_timer (self);
  return TRUE;
}

static gboolean
trace_file_sink_finish (TraceBaseSink *sink,
                        GError **error)
{
  TraceFileSink *self = TRACE_FILE_SINK (sink);
  TraceFileSinkPrivate *priv = PRIV (self);
  TraceFileSinkClass *klass = TRACE_FILE_SINK_GET_CLASS (self);

  if (priv->stream == NULL)
    return TRUE;
  stop_flush_timer (self);
  if (priv->flush_error)
    {
      g_propagate_error (error, g_steal_pointer (&priv->flush_error));
      return FALSE;
    }
  if (!finish_writer (self, error))
    return FALSE;
  if (klass->end && !klass->end (self, priv->stream, error))
    return FALSE;
  return commit_output (self, error);
}

static gboolean
trace_file_sink_stop (TraceBaseSink *sink,
                      GError **error)
{
  /* After EOS the output is complete; before, drop the temporary file
   * and keep the target. */
  stop_flush_timer (TRACE_FILE_SINK (sink));
  g_clear_error (&PRIV (TRACE_FILE_SINK (sink))->flush_error);
  free_writer (TRACE_FILE_SINK (sink));
  abort_output (TRACE_FILE_SINK (sink));
  return TRUE;
}

static const char *
trace_file_sink_get_output_name (TraceBaseSink *sink)
{
  return PRIV (TRACE_FILE_SINK (sink))->location;
}

static void
trace_file_sink_collect_stats (TraceElement *element,
                               GVariantDict *dict)
{
  TRACE_ELEMENT_CLASS (trace_file_sink_parent_class)->collect_stats (element, dict);
  handle_drops (TRACE_FILE_SINK (element), dict);
}

/* An error says what failed; the user also needs to know which file. */
static void
trace_file_sink_explain_error (TraceBaseSink *sink,
                               GError *error)
{
  TraceFileSinkPrivate *priv = PRIV (TRACE_FILE_SINK (sink));
  g_autofree char *quoted = NULL;
  gint code;

  quoted = _trace_quote_value (priv->location ? priv->location : "");
  /* A writer's own write error ("cannot write the JSON trace: …No space
   * left on device") says what failed but not where: add the path. */
  if (error->domain == TRACE_RESOURCE_ERROR && priv->location &&
      (error->code == TRACE_RESOURCE_ERROR_WRITE || error->code == TRACE_RESOURCE_ERROR_NO_SPACE_LEFT) &&
      strstr (error->message, quoted) == NULL)
    {
      g_prefix_error (&error, "could not write %s: ", quoted);
      return;
    }
  if (error->domain != G_IO_ERROR)
    return;
  code = error->code == G_IO_ERROR_NO_SPACE ? TRACE_RESOURCE_ERROR_NO_SPACE_LEFT : TRACE_RESOURCE_ERROR_WRITE;
  g_prefix_error (&error, "could not write %s: ", quoted);
  error->domain = TRACE_RESOURCE_ERROR;
  error->code = code;
}

static void
trace_file_sink_set_property (GObject *object,
                              guint prop_id,
                              const GValue *value,
                              GParamSpec *pspec)
{
  TraceFileSinkPrivate *priv = PRIV (TRACE_FILE_SINK (object));

  switch (prop_id)
    {
    case PROP_LOCATION:
      g_free (priv->location);
      priv->location = g_value_dup_string (value);
      break;
    case PROP_WRITER_THREAD:
      priv->writer_thread = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_file_sink_get_property (GObject *object,
                              guint prop_id,
                              GValue *value,
                              GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_LOCATION:
      g_value_set_string (value, PRIV (TRACE_FILE_SINK (object))->location);
      break;
    case PROP_WRITER_THREAD:
      g_value_set_boolean (value, PRIV (TRACE_FILE_SINK (object))->writer_thread);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The base sink's dispose stops the writer thread: the writer is freed
 * after that, and before the subclass frees what the writer was made
 * from. */
static void
trace_file_sink_dispose (GObject *object)
{
  G_OBJECT_CLASS (trace_file_sink_parent_class)->dispose (object);
  free_writer (TRACE_FILE_SINK (object));
}

static void
trace_file_sink_finalize (GObject *object)
{
  TraceFileSinkPrivate *priv = PRIV (TRACE_FILE_SINK (object));

  trace_file_sink_stop (TRACE_BASE_SINK (object), NULL);
  g_free (priv->location);
  g_free (priv->target);
  g_free (priv->temp_path);
  g_mutex_clear (&priv->flush_lock);
  G_OBJECT_CLASS (trace_file_sink_parent_class)->finalize (object);
}

static void
trace_file_sink_class_init (TraceFileSinkClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceBaseSinkClass *sink_class = TRACE_BASE_SINK_CLASS (klass);

  object_class->set_property = trace_file_sink_set_property;
  object_class->get_property = trace_file_sink_get_property;
  object_class->dispose = trace_file_sink_dispose;
  object_class->finalize = trace_file_sink_finalize;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = trace_file_sink_collect_stats;
  sink_class->start = trace_file_sink_start;
  sink_class->render = trace_file_sink_render;
  sink_class->finish = trace_file_sink_finish;
  sink_class->stop = trace_file_sink_stop;
  sink_class->explain_error = trace_file_sink_explain_error;
  sink_class->get_output_name = trace_file_sink_get_output_name;

  /**
   * TraceFileSink:location:
   *
   * The file to write, or `-` for standard output. It appears only once
   * complete: until EOS the data goes to a temporary file beside it.
   * A name ending in `.gz` is written gzip-compressed.
   */
  properties[PROP_LOCATION] =
      g_param_spec_string ("location", "Location", "The file to write (- for standard output; a name ending in .gz is gzipped)",
                           NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  /**
   * TraceFileSink:writer-thread:
   *
   * Converts and writes the batches on a thread of the sink's own, so
   * that the thread that pushes them (the source's) only parses; at most
   * 2 batches wait for it. The bytes written are the same either way.
   * Ignored on a machine with one core.
   */
  properties[PROP_WRITER_THREAD] =
      g_param_spec_boolean ("writer-thread", "Writer thread",
                            "Convert and write on a thread of the sink's own (same bytes; ignored with one core)",
                            DEFAULT_WRITER_THREAD, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
trace_file_sink_init (TraceFileSink *self)
{
  PRIV (self)->writer_thread = DEFAULT_WRITER_THREAD;
  g_mutex_init (&PRIV (self)->flush_lock);
}

/**
 * trace_file_sink_get_stream:
 * @sink: a #TraceFileSink
 *
 * Returns: (transfer none) (nullable): the buffered output, between
 *   begin and end
 */
GOutputStream *
trace_file_sink_get_stream (TraceFileSink *sink)
{
  g_return_val_if_fail (TRACE_IS_FILE_SINK (sink), NULL);

  return PRIV (sink)->stream;
}

/**
 * trace_file_sink_get_location:
 * @sink: a #TraceFileSink
 *
 * Returns: (nullable): the target path as the user gave it
 */
const char *
trace_file_sink_get_location (TraceFileSink *sink)
{
  g_return_val_if_fail (TRACE_IS_FILE_SINK (sink), NULL);

  return PRIV (sink)->location;
}

/**
 * trace_file_sink_get_writer:
 * @sink: a #TraceFileSink
 *
 * Returns: (transfer none) (nullable): the writer
 *   #TraceFileSinkClass.new_writer made, from the first batch until the
 *   sink stops (for the subclass's stats)
 */
gpointer
trace_file_sink_get_writer (TraceFileSink *sink)
{
  g_return_val_if_fail (TRACE_IS_FILE_SINK (sink), NULL);

  return PRIV (sink)->writer;
}

static char *
output_key (TraceFileSink *sink)
{
  return trace_location_get_key (PRIV (sink)->location);
}

static void
set_shared_output_error (GError **error,
                         TraceFileSink *first,
                         TraceFileSink *second)
{
  const char *a = PRIV (first)->location, *b = PRIV (second)->location;
  const char *na = trace_element_get_name (TRACE_ELEMENT (first));
  const char *nb = trace_element_get_name (TRACE_ELEMENT (second));
  g_autofree char *qa = _trace_quote_value (a), *qb = _trace_quote_value (b);

  if (g_str_equal (a, "-"))
    g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS,
                 "%s and %s both write to standard output (location=-): their outputs would be mixed "
                 "(give each sink its own location)",
                 nb, na);
  else if (g_str_equal (a, b))
    g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS,
                 "%s and %s both write %s: one output would be lost (give each sink its own location)", nb, na, qb);
  else
    g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS,
                 "%s and %s both write the same file, %s and %s: one output would be lost "
                 "(give each sink its own location)",
                 nb, na, qb, qa);
}

/* The file an element reads: the `location` of one that is not a file
 * sink (every source of a file, auto-src too); NULL for any other. */
static char *
input_location (TraceElement *element)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (element), "location");
  char *location = NULL;

  if (pspec == NULL || pspec->value_type != G_TYPE_STRING || TRACE_IS_FILE_SINK (element))
    return NULL;
  g_object_get (element, "location", &location, NULL);
  return location;
}

static void
find_files (TraceBin *bin,
            GPtrArray *sinks,
            GPtrArray *inputs)
{
  for (const GList *l = trace_bin_get_children (bin); l; l = l->next)
    if (TRACE_IS_BIN (l->data))
      find_files (l->data, sinks, inputs);
    else if (TRACE_IS_FILE_SINK (l->data))
      g_ptr_array_add (sinks, l->data);
    else
      {
        g_autofree char *location = input_location (l->data);

        if (location != NULL)
          g_ptr_array_add (inputs, l->data);
      }
}

/* A sink whose output is one of the inputs would replace the file it is
 * still reading: the input destroyed, with exit 0. */
static gboolean
find_output_read (GPtrArray *sinks,
                  GPtrArray *inputs,
                  TraceElement **source,
                  TraceElement **sink,
                  GError **error)
{
  for (guint i = 0; i < sinks->len; i++)
    {
      TraceFileSink *s = g_ptr_array_index (sinks, i);
      g_autofree char *out = output_key (s);

      for (guint j = 0; out && !g_str_equal (out, "-") && j < inputs->len; j++)
        {
          g_autofree char *location = input_location (g_ptr_array_index (inputs, j));
          g_autofree char *in = trace_location_get_key (location);
          g_autofree char *qo = NULL, *qi = NULL;

          if (in == NULL || !g_str_equal (out, in))
            continue;
          *source = g_ptr_array_index (inputs, j);
          *sink = TRACE_ELEMENT (s);
          qo = _trace_quote_value (PRIV (s)->location);
          qi = _trace_quote_value (location);
          g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS,
                       "%s would write %s, the file %s reads (%s): the input would be destroyed "
                       "(write the output elsewhere)",
                       trace_element_get_name (*sink), qo, trace_element_get_name (*source), qi);
          return TRUE;
        }
    }
  return FALSE;
}

/* Two sinks with one output would both write it, and the second rename
 * would silently replace the first's file: one output lost; a sink that
 * writes a file a source reads destroys its input.  This finds the first
 * such pair in @bin (and the bins it holds), in the order the elements
 * were added, and says which: @second is the sink. */
gboolean
_trace_file_sink_find_shared_output (TraceBin *bin,
                                     TraceElement **first,
                                     TraceElement **second,
                                     GError **error)
{
  g_autoptr (GPtrArray) sinks = g_ptr_array_new ();
  g_autoptr (GPtrArray) inputs = g_ptr_array_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  find_files (bin, sinks, inputs);
  if (find_output_read (sinks, inputs, first, second, error))
    return TRUE;
  for (guint i = 0; i < sinks->len; i++)
    {
      TraceFileSink *sink = g_ptr_array_index (sinks, i);
      char *key = output_key (sink);
      TraceFileSink *other;

      if (key == NULL)
        continue;
      other = g_hash_table_lookup (seen, key);
      if (other == NULL)
        {
          g_hash_table_insert (seen, key, sink);
          continue;
        }
      g_free (key);
      *first = TRACE_ELEMENT (other);
      *second = TRACE_ELEMENT (sink);
      set_shared_output_error (error, other, sink);
      return TRUE;
    }
  return FALSE;
}
