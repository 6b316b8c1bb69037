/* tracepipe - a stream read twice from its start: detection, then the source
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * auto-src reads the start of its input to detect the format, then the
 * source it makes reads the input from its first byte. A file is simply
 * opened again; a pipe, a FIFO or standard input cannot be, and what
 * detection read would be lost. This stream keeps a copy of what is read
 * through it while it records; rewound, it gives that copy again, then
 * goes on with its base where the copy ends. The copy is what detection
 * looked at (its look-ahead bounds it), and it is freed once replayed.
 */
#include "config.h"

#include <string.h>

#include "trace/trace.h"
#include "trace-private.h"

typedef struct
{
  GInputStream parent_instance;
  GInputStream *base;
  GByteArray *copy;   /* what was read from base while recording */
  gsize replay_at;    /* the next byte of copy to give */
  gboolean recording; /* reads from base are kept in copy */
  guint64 position;   /* bytes given since the last rewind */
} TraceRewindStream;

typedef GInputStreamClass TraceRewindStreamClass;

G_DEFINE_TYPE (TraceRewindStream, trace_rewind_stream, G_TYPE_INPUT_STREAM)

static gssize
trace_rewind_stream_read (GInputStream *stream,
                          void *buffer,
                          gsize count,
                          GCancellable *cancellable,
                          GError **error)
{
  TraceRewindStream *self = (TraceRewindStream *) stream;
  gssize n;

  if (self->copy != NULL && self->replay_at < self->copy->len)
    {
      n = MIN (count, self->copy->len - self->replay_at);
      memcpy (buffer, self->copy->data + self->replay_at, n);
      self->replay_at += n;
    }
  else
    {
      if (self->copy != NULL && !self->recording) /* replayed: not needed again */
        g_clear_pointer (&self->copy, g_byte_array_unref);
      n = g_input_stream_read (self->base, buffer, count, cancellable, error);
      if (n > 0 && self->recording)
        {
          g_byte_array_append (self->copy, buffer, n);
          self->replay_at = self->copy->len;
        }
    }
  self->position += MAX (n, 0);
  return n;
}

static gboolean
trace_rewind_stream_close (GInputStream *stream,
                           GCancellable *cancellable,
                           GError **error)
{
  return g_input_stream_close (((TraceRewindStream *) stream)->base, cancellable, error);
}

static void
trace_rewind_stream_finalize (GObject *object)
{
  TraceRewindStream *self = (TraceRewindStream *) object;

  g_object_unref (self->base);
  g_clear_pointer (&self->copy, g_byte_array_unref);
  G_OBJECT_CLASS (trace_rewind_stream_parent_class)->finalize (object);
}

static void
trace_rewind_stream_class_init (TraceRewindStreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = trace_rewind_stream_finalize;
  klass->read_fn = trace_rewind_stream_read;
  klass->close_fn = trace_rewind_stream_close;
}

static void
trace_rewind_stream_init (TraceRewindStream *self)
{
}

/* A stream over @base (taken) that records what is read through it. */
GInputStream *
_trace_rewind_stream_new (GInputStream *base)
{
  TraceRewindStream *self = g_object_new (trace_rewind_stream_get_type (), NULL);

  self->base = base;
  self->copy = g_byte_array_new ();
  self->recording = TRUE;
  return G_INPUT_STREAM (self);
}

/* The next read starts again at the first byte. With @keep_recording,
 * reads past the copy are recorded too (detection may rewind again);
 * without, the copy is given once more and then let go. */
void
_trace_rewind_stream_rewind (GInputStream *stream,
                             gboolean keep_recording)
{
  TraceRewindStream *self = (TraceRewindStream *) stream;

  g_return_if_fail (_trace_is_rewind_stream (stream) && self->copy != NULL);
  self->replay_at = 0;
  self->recording = keep_recording;
  self->position = 0;
}

gboolean
_trace_is_rewind_stream (GInputStream *stream)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (stream, trace_rewind_stream_get_type ());
}

/* The bytes given since the last rewind: the position in the input. */
guint64
_trace_rewind_stream_get_position (GInputStream *stream)
{
  return ((TraceRewindStream *) stream)->position;
}
