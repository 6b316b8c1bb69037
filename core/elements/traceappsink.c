/* tracepipe - app-sink: the application pulls the events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "trace-private.h"
#include "tracebatchqueue.h"
#include "tracecoreelements.h"

#define DEFAULT_MAX_BATCHES 8

/* How long a waiting pull sleeps before it looks again at what it cannot
 * be woken for: an ERROR posted in another thread, a context whose owner
 * let it go. */
#define POLL_INTERVAL_MS 100

/**
 * TraceAppSink:
 *
 * A sink that hands the batches it receives to the application, as
 * GStreamer's appsink hands samples: a bounded queue the application
 * empties with trace_app_sink_pull_batch() or
 * trace_app_sink_try_pull_batch(), one batch at a time.
 *
 * The queue holds at most #TraceAppSink:max-batches batches. While it is
 * full its sink pad says it is not ready, so the sources are not
 * scheduled and memory stays bounded (see `docs/architecture.md`); a push
 * that did not ask (a source's `finish`) is taken anyway when it comes
 * from the thread that runs the pipeline's context, since that thread
 * may be the one that pulls, and blocks until there is room when it
 * comes from another thread (downstream of a `queue`).
 *
 * A pull that finds the queue empty runs the pipeline: when the calling
 * thread can acquire the pipeline's main context (nobody else is
 * iterating it), it iterates the context itself until a batch, EOS or an
 * ERROR arrives, so a program needs no main loop of its own; otherwise it
 * waits for the thread that runs the loop.
 *
 * The sink posts its EOS message once it received EOS *and* the
 * application pulled the last batch: the pipeline's EOS then means the
 * application has everything, and a thread running
 * trace_pipeline_run() does not set the pipeline to NULL (which drops
 * what the queue holds) before that.
 */
struct _TraceAppSink
{
  TraceElement parent_instance;

  TracePad *sinkpad;
  /* closed while not PLAYING and after EOS: pushes get EOS, and a pull
   * that finds it empty returns NULL at once */
  TraceBatchQueue queue;
  gboolean eos; /* EOS received; stays set until PLAYING again */
  gboolean eos_posted;
};

enum
{
  PROP_0,
  PROP_MAX_BATCHES,
  PROP_CURRENT_LEVEL,
  PROP_EOS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SIGNAL_NEW_BATCH,
  SIGNAL_EOS,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const TraceStaticPadTemplate sink_template =
    TRACE_STATIC_PAD_TEMPLATE ("sink", TRACE_PAD_SINK, TRACE_PAD_ALWAYS, TRACE_MEDIA_TYPE_EVENTS);

G_DEFINE_FINAL_TYPE (TraceAppSink, trace_app_sink, TRACE_TYPE_ELEMENT)

/* The thread that iterates the context may be the one that pulls:
 * blocking it would wait for itself. */
static gboolean
may_block_pusher (TraceAppSink *self)
{
  return !g_main_context_is_owner (trace_element_get_main_context (TRACE_ELEMENT (self)));
}

static TraceFlowReturn
trace_app_sink_chain (TracePad *pad,
                      TraceElement *parent,
                      TraceBatch *batch)
{
  TraceAppSink *self = TRACE_APP_SINK (parent);
  TraceFlowReturn ret = _trace_batch_queue_push (&self->queue, batch, may_block_pusher (self));

  if (ret != TRACE_FLOW_OK)
    return ret;
  /* A pull driving the context from this thread sees the batch when the
   * dispatch returns; one in another thread's poll needs waking. */
  g_main_context_wakeup (trace_element_get_main_context (parent));
  g_signal_emit (self, signals[SIGNAL_NEW_BATCH], 0);
  return TRACE_FLOW_OK;
}

static void
post_eos (TraceAppSink *self)
{
  trace_element_post_stats (TRACE_ELEMENT (self));
  trace_element_post_message (TRACE_ELEMENT (self), trace_message_new_eos (G_OBJECT (self)));
}

static gboolean
trace_app_sink_event (TracePad *pad,
                      TraceElement *parent,
                      TraceStreamEvent *event)
{
  TraceAppSink *self = TRACE_APP_SINK (parent);
  gboolean got_eos = FALSE;
  gboolean drained = FALSE;

  if (event->type == TRACE_STREAM_EVENT_EOS)
    {
      g_mutex_lock (&self->queue.lock);
      if (!_trace_batch_queue_is_closed_locked (&self->queue))
        {
          got_eos = self->eos = TRUE;
          drained = self->eos_posted = g_queue_is_empty (&self->queue.items);
        }
      _trace_batch_queue_close_locked (&self->queue);
      g_mutex_unlock (&self->queue.lock);
      g_main_context_wakeup (trace_element_get_main_context (parent));
      if (got_eos)
        g_signal_emit (self, signals[SIGNAL_EOS], 0);
      if (drained)
        post_eos (self);
    }
  trace_stream_event_unref (event);
  return TRUE;
}

static gboolean
trace_app_sink_ready (TracePad *pad,
                      TraceElement *parent)
{
  return _trace_batch_queue_is_ready (&TRACE_APP_SINK (parent)->queue);
}

/* Takes the oldest batch; the caller holds the lock. Posts the sink's
 * EOS (after unlocking) when that was the last one after EOS. */
static TraceBatch *
pop_locked (TraceAppSink *self,
            gboolean *post)
{
  TraceBatchQueueItem item;

  _trace_batch_queue_pop_locked (&self->queue, &item);
  if (self->eos && g_queue_is_empty (&self->queue.items) && !self->eos_posted)
    *post = self->eos_posted = TRUE;
  return item.batch;
}

static gboolean
on_poll_timeout (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

typedef struct
{
  GMainContext *context;
  GSource *timeout; /* wakes an iteration that has nothing to do */
  TraceBus *bus;
  gint64 deadline; /* monotonic µs, -1 for none */
} PullWait;

/* One step of waiting, with the lock held: iterate the context if this
 * thread can, else sleep on the condition. FALSE: give up (an ERROR
 * was posted, or the deadline passed). */
static gboolean
wait_step (TraceAppSink *self,
           PullWait *w)
{
  gint64 now = g_get_monotonic_time ();
  gint64 until = now + POLL_INTERVAL_MS * G_TIME_SPAN_MILLISECOND;

  if (w->bus && _trace_bus_get_n_errors (w->bus) > 0)
    return FALSE;
  if (w->deadline >= 0 && now >= w->deadline)
    return FALSE;
  if (w->deadline >= 0)
    until = MIN (until, w->deadline);
  if (!g_main_context_acquire (w->context))
    {
      g_cond_wait_until (&self->queue.cond, &self->queue.lock, until);
      return TRUE;
    }
  g_mutex_unlock (&self->queue.lock);
  if (w->timeout == NULL)
    {
      w->timeout = g_timeout_source_new (MIN (POLL_INTERVAL_MS, (until - now) / 1000 + 1));
      g_source_set_callback (w->timeout, on_poll_timeout, NULL, NULL);
      g_source_attach (w->timeout, w->context);
    }
  g_main_context_iteration (w->context, TRUE);
  g_main_context_release (w->context);
  g_mutex_lock (&self->queue.lock);
  return TRUE;
}

static TraceBatch *
pull (TraceAppSink *self,
      gint64 timeout_us)
{
  TraceElement *element = TRACE_ELEMENT (self);
  PullWait w = { trace_element_get_main_context (element), NULL, trace_element_get_bus (element), -1 };
  TraceBatch *batch = NULL;
  gboolean post = FALSE;

  if (w.context == NULL)
    w.context = g_main_context_default ();
  if (timeout_us >= 0)
    w.deadline = g_get_monotonic_time () + timeout_us;
  g_mutex_lock (&self->queue.lock);
  for (;;)
    {
      if (!g_queue_is_empty (&self->queue.items))
        {
          batch = pop_locked (self, &post);
          break;
        }
      if (_trace_batch_queue_is_closed_locked (&self->queue) || !wait_step (self, &w))
        break;
    }
  g_mutex_unlock (&self->queue.lock);
  if (w.timeout)
    {
      g_source_destroy (w.timeout);
      g_source_unref (w.timeout);
    }
  /* Room was made: a source that was not ready may run again. */
  if (batch)
    g_main_context_wakeup (w.context);
  if (post)
    post_eos (self);
  return batch;
}

/**
 * trace_app_sink_pull_batch:
 * @sink: a #TraceAppSink
 *
 * Takes the oldest batch the sink holds, waiting for one if there is
 * none. While it waits, it iterates the pipeline's main context itself
 * when no other thread does, so the pipeline runs without a main loop.
 *
 * It returns %NULL at EOS (once every batch was pulled), when the sink is
 * not PLAYING, and, instead of waiting, once an ERROR was posted on the
 * bus since the pipeline started: trace_app_sink_is_eos()
 * tells EOS from the other cases, the bus says what went wrong.
 *
 * Returns: (transfer full) (nullable): a batch, or %NULL
 */
TraceBatch *
trace_app_sink_pull_batch (TraceAppSink *sink)
{
  g_return_val_if_fail (TRACE_IS_APP_SINK (sink), NULL);

  return pull (sink, -1);
}

/**
 * trace_app_sink_try_pull_batch:
 * @sink: a #TraceAppSink
 * @timeout_us: how long to wait at most, in microseconds; 0 does not
 *   wait (nor run the pipeline's context: it only takes what is queued),
 *   a negative value waits as long as trace_app_sink_pull_batch()
 *
 * As trace_app_sink_pull_batch(), but also returns %NULL when no batch
 * came within @timeout_us.
 *
 * Returns: (transfer full) (nullable): a batch, or %NULL
 */
TraceBatch *
trace_app_sink_try_pull_batch (TraceAppSink *sink,
                               gint64 timeout_us)
{
  g_return_val_if_fail (TRACE_IS_APP_SINK (sink), NULL);

  return pull (sink, timeout_us);
}

/**
 * trace_app_sink_is_eos:
 * @sink: a #TraceAppSink
 *
 * Returns: whether the sink received EOS and the application pulled
 *   every batch before it
 */
gboolean
trace_app_sink_is_eos (TraceAppSink *sink)
{
  gboolean eos;

  g_return_val_if_fail (TRACE_IS_APP_SINK (sink), FALSE);

  g_mutex_lock (&sink->queue.lock);
  eos = sink->eos && g_queue_is_empty (&sink->queue.items);
  g_mutex_unlock (&sink->queue.lock);
  return eos;
}

static TraceStateChangeReturn
trace_app_sink_change_state (TraceElement *element,
                             TraceStateChange transition)
{
  TraceAppSink *self = TRACE_APP_SINK (element);

  if (transition == TRACE_STATE_CHANGE_READY_TO_PLAYING)
    {
      g_mutex_lock (&self->queue.lock);
      self->eos = self->eos_posted = FALSE;
      g_mutex_unlock (&self->queue.lock);
      _trace_batch_queue_open (&self->queue);
    }
  else if (transition == TRACE_STATE_CHANGE_PLAYING_TO_READY)
    {
      /* Wakes a pull and a blocked push; what was not pulled is dropped. */
      _trace_batch_queue_close (&self->queue);
      _trace_batch_queue_flush (&self->queue);
    }
  return TRACE_ELEMENT_CLASS (trace_app_sink_parent_class)->change_state (element, transition);
}

static void
trace_app_sink_set_property (GObject *object,
                             guint prop_id,
                             const GValue *value,
                             GParamSpec *pspec)
{
  TraceAppSink *self = TRACE_APP_SINK (object);

  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  switch (prop_id)
    {
    case PROP_MAX_BATCHES:
      /* read at each batch: a waiting producer re-checks */
      _trace_batch_queue_set_max_batches (&self->queue, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_app_sink_get_property (GObject *object,
                             guint prop_id,
                             GValue *value,
                             GParamSpec *pspec)
{
  TraceAppSink *self = TRACE_APP_SINK (object);

  switch (prop_id)
    {
    case PROP_MAX_BATCHES:
      g_value_set_uint (value, self->queue.max_batches);
      break;
    case PROP_CURRENT_LEVEL:
      g_value_set_uint (value, _trace_batch_queue_get_level (&self->queue));
      break;
    case PROP_EOS:
      g_value_set_boolean (value, trace_app_sink_is_eos (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_app_sink_finalize (GObject *object)
{
  TraceAppSink *self = TRACE_APP_SINK (object);

  _trace_batch_queue_clear (&self->queue);
  G_OBJECT_CLASS (trace_app_sink_parent_class)->finalize (object);
}

static void
install_signals (GType type)
{
  /**
   * TraceAppSink::new-batch:
   * @sink: the sink
   *
   * A batch was queued. Emitted in the thread that pushed it (the one
   * running the pipeline's context, or a `queue`'s), so a handler may
   * call trace_app_sink_pull_batch() at once, or tell another thread.
   */
  signals[SIGNAL_NEW_BATCH] = g_signal_new ("new-batch", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 0);
  /**
   * TraceAppSink::eos:
   * @sink: the sink
   *
   * The sink received EOS; batches before it may still be queued.
   */
  signals[SIGNAL_EOS] = g_signal_new ("eos", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
trace_app_sink_class_init (TraceAppSinkClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceElementClass *element_class = TRACE_ELEMENT_CLASS (klass);

  object_class->set_property = trace_app_sink_set_property;
  object_class->get_property = trace_app_sink_get_property;
  object_class->finalize = trace_app_sink_finalize;
  element_class->change_state = trace_app_sink_change_state;

  properties[PROP_MAX_BATCHES] =
      g_param_spec_uint ("max-batches", "Max batches", "Batches held before upstream is held back", 1, G_MAXUINT,
                         DEFAULT_MAX_BATCHES,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | TRACE_PARAM_MUTABLE_PLAYING);
  properties[PROP_CURRENT_LEVEL] =
      g_param_spec_uint ("current-level", "Current level", "Batches held now", 0, G_MAXUINT, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_EOS] = g_param_spec_boolean ("eos", "EOS", "EOS received and every batch pulled", FALSE,
                                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  install_signals (G_TYPE_FROM_CLASS (klass));
  trace_element_class_add_static_pad_template (element_class, &sink_template);
  trace_element_class_set_metadata (element_class, "Application sink", "Sink/Trace",
                                    "Hands the batches to the application (trace_app_sink_pull_batch())",
                                    "tracepipe");
}

static void
trace_app_sink_init (TraceAppSink *self)
{
  TraceElementClass *klass = TRACE_ELEMENT_GET_CLASS (self);

  _trace_batch_queue_init (&self->queue, DEFAULT_MAX_BATCHES);
  _trace_batch_queue_close (&self->queue);
  self->sinkpad = trace_pad_new_from_template (trace_element_class_get_pad_template (klass, "sink"), "sink");
  trace_pad_set_chain_function (self->sinkpad, trace_app_sink_chain);
  trace_pad_set_event_function (self->sinkpad, trace_app_sink_event);
  trace_pad_set_ready_function (self->sinkpad, trace_app_sink_ready);
  trace_element_add_pad (TRACE_ELEMENT (self), self->sinkpad);
}
