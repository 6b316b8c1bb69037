/* tracepipe - reading a pipe or terminal without blocking the main loop
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <gio/gunixinputstream.h>

#include "trace/trace.h"
#include "trace-private.h"

/* Sources read in the thread that runs the pipeline's main context, and
 * the readers of the format plugins read with blocking calls. A read from
 * an idle pipe or terminal (`sleep 100 | trace-launch ftrace-src
 * location=- ! …`) then blocked that thread, so the application's Ctrl-C
 * handler, a GLib signal source on the same context, never ran.
 *
 * This stream wraps such an input. When its base has no data, the read
 * waits in the main context instead of in read(2): it iterates the
 * context until the base is readable or @cancel is cancelled, so the
 * application's signal handlers, timers and bus watch keep running. The
 * source cancels @cancel in send_eos (what the first Ctrl-C calls) and
 * when it stops; the input then ends there, as at end of file, and the
 * source finishes normally. When another thread owns the context, the
 * read waits in poll(2) on the base and the cancellable instead. */
typedef struct
{
  GInputStream parent_instance;
  GInputStream *base; /* a GPollableInputStream that can poll */
  GCancellable *cancel;
  GMainContext *context;
  guint64 bytes_read; /* a pipe cannot tell its position: counted */
} TraceWaitStream;

typedef GInputStreamClass TraceWaitStreamClass;

G_DEFINE_TYPE (TraceWaitStream, trace_wait_stream, G_TYPE_INPUT_STREAM)

/* (each source type calls its callback with its own first argument) */
static gboolean
on_readable (GObject *pollable,
             gpointer woken)
{
  *(gboolean *) woken = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
on_cancelled (GCancellable *cancellable,
              gpointer woken)
{
  *(gboolean *) woken = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the context (it is ours: we are in its owner's thread) until the
 * base is readable or the wait is cancelled. */
static void
wait_in_context (TraceWaitStream *self)
{
  gboolean woken = FALSE;
  GSource *readable = g_pollable_input_stream_create_source (G_POLLABLE_INPUT_STREAM (self->base), NULL);
  GSource *cancelled = g_cancellable_source_new (self->cancel);

  g_source_set_callback (readable, G_SOURCE_FUNC (on_readable), &woken, NULL);
  g_source_set_callback (cancelled, G_SOURCE_FUNC (on_cancelled), &woken, NULL);
  g_source_attach (readable, self->context);
  g_source_attach (cancelled, self->context);
  while (!woken)
    g_main_context_iteration (self->context, TRUE);
  g_source_destroy (readable);
  g_source_destroy (cancelled);
  g_source_unref (readable);
  g_source_unref (cancelled);
}

/* poll(2) on the base's descriptor and the cancellable's. */
static void
wait_in_poll (TraceWaitStream *self)
{
  GPollFD fds[2] = { { g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (self->base)), G_IO_IN | G_IO_HUP | G_IO_ERR, 0 } };
  guint n = g_cancellable_make_pollfd (self->cancel, &fds[1]) ? 2 : 1;

  g_poll (fds, n, -1);
  if (n == 2)
    g_cancellable_release_fd (self->cancel);
}

static gssize
trace_wait_stream_read (GInputStream *stream,
                        void *buffer,
                        gsize count,
                        GCancellable *cancellable,
                        GError **error)
{
  TraceWaitStream *self = (TraceWaitStream *) stream;
  GPollableInputStream *base = G_POLLABLE_INPUT_STREAM (self->base);
  gssize n;

  while (!g_pollable_input_stream_is_readable (base))
    {
      if (g_cancellable_is_cancelled (self->cancel))
        return 0; /* stopped: the input ends here */
      if (g_main_context_acquire (self->context))
        {
          wait_in_context (self);
          g_main_context_release (self->context);
        }
      else
        wait_in_poll (self);
    }
  /* readable: data or end of file, so this does not block */
  n = g_input_stream_read (self->base, buffer, count, cancellable, error);
  self->bytes_read += MAX (n, 0);
  return n;
}

static gboolean
trace_wait_stream_close (GInputStream *stream,
                         GCancellable *cancellable,
                         GError **error)
{
  return g_input_stream_close (((TraceWaitStream *) stream)->base, cancellable, error);
}

static void
trace_wait_stream_finalize (GObject *object)
{
  TraceWaitStream *self = (TraceWaitStream *) object;

  g_object_unref (self->base);
  g_object_unref (self->cancel);
  g_main_context_unref (self->context);
  G_OBJECT_CLASS (trace_wait_stream_parent_class)->finalize (object);
}

static void
trace_wait_stream_class_init (TraceWaitStreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = trace_wait_stream_finalize;
  klass->read_fn = trace_wait_stream_read;
  klass->close_fn = trace_wait_stream_close;
}

static void
trace_wait_stream_init (TraceWaitStream *self)
{
}

/* @base itself when it never blocks (a regular file, even as standard
 * input), else a stream that waits as above. Takes @base. */
GInputStream *
_trace_wait_stream_new (GInputStream *base,
                        GCancellable *cancel,
                        GMainContext *context)
{
  TraceWaitStream *self;

  if (!G_IS_UNIX_INPUT_STREAM (base) || !g_pollable_input_stream_can_poll (G_POLLABLE_INPUT_STREAM (base)))
    return base;
  self = g_object_new (trace_wait_stream_get_type (), NULL);
  self->base = base;
  self->cancel = g_object_ref (cancel);
  self->context = g_main_context_ref (context);
  return G_INPUT_STREAM (self);
}

/* How many bytes the stream has given: the position, where a pipe has
 * none. 0 for a stream that is not a wait stream. */
guint64
_trace_wait_stream_get_bytes_read (GInputStream *stream)
{
  if (!G_TYPE_CHECK_INSTANCE_TYPE (stream, trace_wait_stream_get_type ()))
    return 0;
  return ((TraceWaitStream *) stream)->bytes_read;
}
