/* tracepipe - queue: the thread boundary
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "tracebatchqueue.h"
#include "tracecoreelements.h"

#define DEFAULT_MAX_BATCHES 8

/**
 * TraceQueue:
 *
 * A bounded queue with a streaming thread behind it: everything
 * downstream runs in that thread, so parsing and writing use two cores.
 * When the queue is full the upstream thread blocks (and a source in the
 * main loop is not scheduled): memory stays bounded.
 */
struct _TraceQueue
{
  TraceElement parent_instance;

  TracePad *sinkpad;
  TracePad *srcpad;
  TraceBatchQueue queue; /* closed: stopped, or downstream refused */
  GThread *thread;
};

enum
{
  PROP_0,
  PROP_MAX_BATCHES,
  PROP_CURRENT_LEVEL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const TraceStaticPadTemplate sink_template =
    TRACE_STATIC_PAD_TEMPLATE ("sink", TRACE_PAD_SINK, TRACE_PAD_ALWAYS, TRACE_MEDIA_TYPE_EVENTS);
static const TraceStaticPadTemplate src_template =
    TRACE_STATIC_PAD_TEMPLATE ("src", TRACE_PAD_SRC, TRACE_PAD_ALWAYS, TRACE_MEDIA_TYPE_EVENTS);

G_DEFINE_FINAL_TYPE (TraceQueue, trace_queue, TRACE_TYPE_ELEMENT)

static TraceFlowReturn
trace_queue_chain (TracePad *pad,
                   TraceElement *parent,
                   TraceBatch *batch)
{
  return _trace_batch_queue_push (&TRACE_QUEUE (parent)->queue, batch, TRUE);
}

static gboolean
trace_queue_sink_event (TracePad *pad,
                        TraceElement *parent,
                        TraceStreamEvent *event)
{
  _trace_batch_queue_push_event (&TRACE_QUEUE (parent)->queue, event);
  return TRUE;
}

static gboolean
trace_queue_sink_ready (TracePad *pad,
                        TraceElement *parent)
{
  return _trace_batch_queue_is_ready (&TRACE_QUEUE (parent)->queue);
}

/* Downstream may itself be bounded (a merge); wait for it without
 * holding the queue's lock, so upstream can keep filling the queue. */
static void
wait_downstream_ready (TraceQueue *self)
{
  TraceBatchQueue *queue = &self->queue;

  while (!trace_pad_peer_is_ready (self->srcpad))
    {
      g_mutex_lock (&queue->lock);
      if (!_trace_batch_queue_is_closed_locked (queue))
        g_cond_wait_until (&queue->cond, &queue->lock, g_get_monotonic_time () + 5 * G_TIME_SPAN_MILLISECOND);
      gboolean stop = _trace_batch_queue_is_closed_locked (queue);
      g_mutex_unlock (&queue->lock);
      if (stop)
        return;
    }
}

static gboolean
push_item (TraceQueue *self,
           const TraceBatchQueueItem *item)
{
  TraceFlowReturn ret;

  if (item->event)
    {
      gboolean eos = item->event->type == TRACE_STREAM_EVENT_EOS;

      trace_pad_push_event (self->srcpad, item->event);
      return !eos;
    }
  wait_downstream_ready (self);
  ret = trace_pad_push (self->srcpad, item->batch);
  if (ret == TRACE_FLOW_OK)
    return TRUE;
  /* Who returns NOT_LINKED (a tee without branches) posts nothing: the
   * pusher does. Upstream only learns ERROR from us, so say it here, or
   * the pipeline would wait for an EOS that never comes. */
  if (ret == TRACE_FLOW_NOT_LINKED)
    trace_element_post_error (TRACE_ELEMENT (self), TRACE_CORE_ERROR, TRACE_CORE_ERROR_NOT_LINKED, NULL,
                              "streaming stopped: the stream after the queue reaches an element with nowhere to "
                              "send it (not linked)");
  /* Tell upstream on its next push; an error is now on the bus. */
  _trace_batch_queue_fail (&self->queue, ret == TRACE_FLOW_NOT_LINKED ? TRACE_FLOW_ERROR : ret);
  return FALSE;
}

static gpointer
trace_queue_loop (gpointer data)
{
  TraceQueue *self = data;
  TraceBatchQueueItem item;

  while (_trace_batch_queue_take (&self->queue, NULL, &item))
    if (!push_item (self, &item))
      break;
  return NULL;
}

/* Upstream may still push while the queue stops: another queue's thread
 * is stopped after this one, since a state change goes downstream first.
 * A stopped queue takes nothing more (EOS, unless an error is already
 * what upstream hears), and drops what it holds. */
static void
stop_thread (TraceQueue *self)
{
  _trace_batch_queue_close (&self->queue);
  if (self->thread)
    g_thread_join (g_steal_pointer (&self->thread));
  _trace_batch_queue_flush (&self->queue);
}

/* g_thread_new() aborts the process when the system refuses a thread
 * (too many threads, no address space for the stack): that would leave
 * the sinks' temporaries behind and say nothing useful. An ERROR stops
 * the pipeline like any other failed start. */
static gboolean
start_thread (TraceQueue *self)
{
  TraceElement *element = TRACE_ELEMENT (self);
  g_autofree char *name = g_strdup_printf ("%.15s", trace_element_get_name (element));
  g_autoptr (GError) error = NULL;

  _trace_batch_queue_open (&self->queue);
  self->queue.context = trace_element_get_main_context (element);
  self->thread = g_thread_try_new (name, trace_queue_loop, self, &error);
  if (self->thread == NULL)
    {
      trace_element_post_error (element, TRACE_CORE_ERROR, TRACE_CORE_ERROR_STATE_CHANGE, NULL,
                                "could not start the queue's streaming thread: %s", error->message);
      return FALSE;
    }
  return TRUE;
}

static TraceStateChangeReturn
trace_queue_change_state (TraceElement *element,
                          TraceStateChange transition)
{
  TraceQueue *self = TRACE_QUEUE (element);

  switch (transition)
    {
    case TRACE_STATE_CHANGE_READY_TO_PLAYING:
      if (!start_thread (self))
        return TRACE_STATE_CHANGE_FAILURE;
      break;
    case TRACE_STATE_CHANGE_PLAYING_TO_READY:
      stop_thread (self);
      break;
    default:
      break;
    }
  return TRACE_ELEMENT_CLASS (trace_queue_parent_class)->change_state (element, transition);
}

static void
trace_queue_set_property (GObject *object,
                          guint prop_id,
                          const GValue *value,
                          GParamSpec *pspec)
{
  TraceQueue *self = TRACE_QUEUE (object);

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
trace_queue_get_property (GObject *object,
                          guint prop_id,
                          GValue *value,
                          GParamSpec *pspec)
{
  TraceQueue *self = TRACE_QUEUE (object);

  switch (prop_id)
    {
    case PROP_MAX_BATCHES:
      g_value_set_uint (value, self->queue.max_batches);
      break;
    case PROP_CURRENT_LEVEL:
      g_value_set_uint (value, _trace_batch_queue_get_level (&self->queue));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_queue_finalize (GObject *object)
{
  TraceQueue *self = TRACE_QUEUE (object);

  stop_thread (self);
  _trace_batch_queue_clear (&self->queue);
  G_OBJECT_CLASS (trace_queue_parent_class)->finalize (object);
}

static void
trace_queue_class_init (TraceQueueClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceElementClass *element_class = TRACE_ELEMENT_CLASS (klass);

  object_class->set_property = trace_queue_set_property;
  object_class->get_property = trace_queue_get_property;
  object_class->finalize = trace_queue_finalize;
  element_class->change_state = trace_queue_change_state;

  properties[PROP_MAX_BATCHES] =
      g_param_spec_uint ("max-batches", "Max batches", "Batches held before upstream waits",
                         1, 4096, DEFAULT_MAX_BATCHES,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | TRACE_PARAM_MUTABLE_PLAYING);
  properties[PROP_CURRENT_LEVEL] =
      g_param_spec_uint ("current-level", "Current level", "Batches held now",
                         0, G_MAXUINT, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_add_static_pad_template (element_class, &sink_template);
  trace_element_class_add_static_pad_template (element_class, &src_template);
  trace_element_class_set_metadata (element_class, "Queue", "Generic",
                                    "A bounded queue and a thread: the rest of the pipeline runs on another core",
                                    "tracepipe");
}

static void
trace_queue_init (TraceQueue *self)
{
  TraceElementClass *klass = TRACE_ELEMENT_GET_CLASS (self);

  _trace_batch_queue_init (&self->queue, DEFAULT_MAX_BATCHES);
  self->sinkpad = trace_pad_new_from_template (trace_element_class_get_pad_template (klass, "sink"), "sink");
  trace_pad_set_chain_function (self->sinkpad, trace_queue_chain);
  trace_pad_set_event_function (self->sinkpad, trace_queue_sink_event);
  trace_pad_set_ready_function (self->sinkpad, trace_queue_sink_ready);
  trace_element_add_pad (TRACE_ELEMENT (self), self->sinkpad);
  self->srcpad = trace_pad_new_from_template (trace_element_class_get_pad_template (klass, "src"), "src");
  trace_element_add_pad (TRACE_ELEMENT (self), self->srcpad);
}
