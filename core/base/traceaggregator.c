/* tracepipe - base class for N:1 elements
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "trace-private.h"

#define DEFAULT_MAX_QUEUED 4

/* ---- pads ---- */

typedef struct
{
  GQueue queue;
  gboolean eos;
  TraceStreamInfo *info; /* borrowed from the sticky stream-start */
} TraceAggregatorPadPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (TraceAggregatorPad, trace_aggregator_pad, TRACE_TYPE_PAD)

#define PAD_PRIV(p) ((TraceAggregatorPadPrivate *) trace_aggregator_pad_get_instance_private (p))

static void
trace_aggregator_pad_finalize (GObject *object)
{
  g_queue_clear_full (&PAD_PRIV (TRACE_AGGREGATOR_PAD (object))->queue, (GDestroyNotify) trace_batch_unref);
  G_OBJECT_CLASS (trace_aggregator_pad_parent_class)->finalize (object);
}

static void
trace_aggregator_pad_class_init (TraceAggregatorPadClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = trace_aggregator_pad_finalize;
}

static void
trace_aggregator_pad_init (TraceAggregatorPad *self)
{
  g_queue_init (&PAD_PRIV (self)->queue);
}

/**
 * trace_aggregator_pad_peek_batch:
 * @pad: a #TraceAggregatorPad
 *
 * Returns: (transfer none) (nullable): the oldest queued batch
 */
TraceBatch *
trace_aggregator_pad_peek_batch (TraceAggregatorPad *pad)
{
  g_return_val_if_fail (TRACE_IS_AGGREGATOR_PAD (pad), NULL);

  return g_queue_peek_head (&PAD_PRIV (pad)->queue);
}

/**
 * trace_aggregator_pad_pop_batch:
 * @pad: a #TraceAggregatorPad
 *
 * Returns: (transfer full) (nullable): the oldest queued batch
 */
TraceBatch *
trace_aggregator_pad_pop_batch (TraceAggregatorPad *pad)
{
  TraceBatch *batch;
  TraceElement *parent;

  g_return_val_if_fail (TRACE_IS_AGGREGATOR_PAD (pad), NULL);

  batch = g_queue_pop_head (&PAD_PRIV (pad)->queue);
  parent = trace_pad_get_parent_element (TRACE_PAD (pad));
  /* Room was made: a source waiting on this input may go on. */
  if (batch && parent)
    g_main_context_wakeup (trace_element_get_main_context (parent));
  return batch;
}

/**
 * trace_aggregator_pad_get_queued:
 * @pad: a #TraceAggregatorPad
 *
 * Returns: how many batches wait on this input
 */
guint
trace_aggregator_pad_get_queued (TraceAggregatorPad *pad)
{
  g_return_val_if_fail (TRACE_IS_AGGREGATOR_PAD (pad), 0);

  return g_queue_get_length (&PAD_PRIV (pad)->queue);
}

/**
 * trace_aggregator_pad_is_eos:
 * @pad: a #TraceAggregatorPad
 *
 * Returns: whether the input ended (its queue may still hold batches)
 */
gboolean
trace_aggregator_pad_is_eos (TraceAggregatorPad *pad)
{
  g_return_val_if_fail (TRACE_IS_AGGREGATOR_PAD (pad), FALSE);

  return PAD_PRIV (pad)->eos;
}

/**
 * trace_aggregator_pad_get_stream_info:
 * @pad: a #TraceAggregatorPad
 *
 * Returns: (nullable): what this input's stream-start said
 */
const TraceStreamInfo *
trace_aggregator_pad_get_stream_info (TraceAggregatorPad *pad)
{
  TraceStreamEvent *start;

  g_return_val_if_fail (TRACE_IS_AGGREGATOR_PAD (pad), NULL);

  start = trace_pad_get_sticky_stream_start (TRACE_PAD (pad));
  return start ? &start->info : NULL;
}

/* ---- the aggregator ---- */

typedef struct
{
  TracePad *srcpad;
  GRecMutex lock;
  guint max_queued;
  gboolean sent_start;
  gboolean sent_eos;
} TraceAggregatorPrivate;

enum
{
  PROP_0,
  PROP_MAX_QUEUED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const TraceStaticPadTemplate sink_template =
    TRACE_STATIC_PAD_TEMPLATE ("sink_%u", TRACE_PAD_SINK, TRACE_PAD_REQUEST, TRACE_MEDIA_TYPE_EVENTS);
static const TraceStaticPadTemplate src_template =
    TRACE_STATIC_PAD_TEMPLATE ("src", TRACE_PAD_SRC, TRACE_PAD_ALWAYS, TRACE_MEDIA_TYPE_EVENTS);

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TraceAggregator, trace_aggregator, TRACE_TYPE_ELEMENT)

#define PRIV(a) ((TraceAggregatorPrivate *) trace_aggregator_get_instance_private (a))

/**
 * trace_aggregator_get_sink_pads:
 * @agg: a #TraceAggregator
 *
 * Returns: (transfer container) (element-type TraceAggregatorPad): its
 *   inputs, in the order they were requested
 */
GList *
trace_aggregator_get_sink_pads (TraceAggregator *agg)
{
  GList *list = NULL;

  g_return_val_if_fail (TRACE_IS_AGGREGATOR (agg), NULL);

  for (const GList *l = trace_element_get_pads (TRACE_ELEMENT (agg)); l; l = l->next)
    if (TRACE_IS_AGGREGATOR_PAD (l->data))
      list = g_list_append (list, l->data);
  return list;
}

/**
 * trace_aggregator_get_oldest_pad:
 * @agg: a #TraceAggregator
 *
 * Returns: (transfer none) (nullable): the input whose queued head batch
 *   starts earliest, for a merge in time order
 */
TraceAggregatorPad *
trace_aggregator_get_oldest_pad (TraceAggregator *agg)
{
  g_autoptr (GList) pads = NULL;
  TraceAggregatorPad *best = NULL;
  gint64 best_ts = G_MAXINT64;

  g_return_val_if_fail (TRACE_IS_AGGREGATOR (agg), NULL);

  pads = trace_aggregator_get_sink_pads (agg);
  for (GList *l = pads; l; l = l->next)
    {
      TraceBatch *head = trace_aggregator_pad_peek_batch (l->data);
      gint64 ts;

      if (head && trace_batch_get_time_range (head, &ts, NULL) && ts < best_ts)
        best = l->data, best_ts = ts;
      else if (head && best == NULL)
        best = l->data;
    }
  return best;
}

/* Every input that has not ended has data: the subclass can decide. */
static gboolean
all_inputs_have_data (GList *pads,
                      gboolean *any_queued,
                      gboolean *all_at_eos)
{
  gboolean ready = TRUE;

  *any_queued = FALSE;
  *all_at_eos = TRUE;
  for (GList *l = pads; l; l = l->next)
    {
      TraceAggregatorPadPrivate *p = PAD_PRIV (l->data);

      *any_queued |= !g_queue_is_empty (&p->queue);
      *all_at_eos &= p->eos;
      if (!p->eos && g_queue_is_empty (&p->queue))
        ready = FALSE;
    }
  return ready;
}

static TraceFlowReturn
send_eos_if_done (TraceAggregator *self,
                  gboolean all_at_eos,
                  gboolean any_queued)
{
  TraceAggregatorPrivate *priv = PRIV (self);
  TraceAggregatorClass *klass = TRACE_AGGREGATOR_GET_CLASS (self);
  TraceBatch *rest;

  if (!all_at_eos || any_queued || priv->sent_eos)
    return TRACE_FLOW_OK;
  priv->sent_eos = TRUE;
  rest = klass->drain ? klass->drain (self) : NULL;
  if (rest && rest->n_events > 0)
    trace_aggregator_finish_batch (self, rest);
  else if (rest)
    trace_batch_unref (rest);
  trace_element_post_stats (TRACE_ELEMENT (self));
  trace_pad_push_event (priv->srcpad, trace_stream_event_new_eos ());
  return TRACE_FLOW_EOS;
}

static TraceFlowReturn
run_aggregate (TraceAggregator *self)
{
  TraceAggregatorClass *klass = TRACE_AGGREGATOR_GET_CLASS (self);
  g_autoptr (GList) pads = trace_aggregator_get_sink_pads (TRACE_AGGREGATOR (self));
  TraceFlowReturn ret = TRACE_FLOW_OK;
  gboolean any_queued, all_at_eos;

  while (ret == TRACE_FLOW_OK)
    {
      gboolean ready = all_inputs_have_data (pads, &any_queued, &all_at_eos);

      if (!any_queued || !ready)
        break;
      ret = klass->aggregate (self, all_at_eos);
    }
  if (ret == TRACE_FLOW_OK)
    send_eos_if_done (self, all_at_eos, any_queued);
  return ret == TRACE_FLOW_EOS ? TRACE_FLOW_OK : ret;
}

static TraceFlowReturn
trace_aggregator_chain (TracePad *pad,
                        TraceElement *parent,
                        TraceBatch *batch)
{
  TraceAggregator *self = TRACE_AGGREGATOR (parent);
  TraceFlowReturn ret;

  g_rec_mutex_lock (&PRIV (self)->lock);
  g_queue_push_tail (&PAD_PRIV (TRACE_AGGREGATOR_PAD (pad))->queue, batch);
  ret = run_aggregate (self);
  g_rec_mutex_unlock (&PRIV (self)->lock);
  return ret;
}

static gboolean
trace_aggregator_sink_event (TracePad *pad,
                             TraceElement *parent,
                             TraceStreamEvent *event)
{
  TraceAggregator *self = TRACE_AGGREGATOR (parent);
  TraceAggregatorPrivate *priv = PRIV (self);
  TraceAggregatorClass *klass = TRACE_AGGREGATOR_GET_CLASS (self);

  g_rec_mutex_lock (&priv->lock);
  if (event->type == TRACE_STREAM_EVENT_STREAM_START)
    {
      TraceStreamEvent *out = klass->sink_stream_start
                                  ? klass->sink_stream_start (self, TRACE_AGGREGATOR_PAD (pad), event)
                                  : (priv->sent_start ? NULL : trace_stream_event_ref (event));
      if (out)
        {
          priv->sent_start = TRUE;
          trace_pad_push_event (priv->srcpad, out);
        }
    }
  else if (event->type == TRACE_STREAM_EVENT_EOS)
    {
      PAD_PRIV (TRACE_AGGREGATOR_PAD (pad))->eos = TRUE;
      run_aggregate (self);
    }
  g_rec_mutex_unlock (&priv->lock);
  trace_stream_event_unref (event);
  return TRUE;
}

static gboolean
trace_aggregator_pad_ready (TracePad *pad,
                            TraceElement *parent)
{
  TraceAggregator *self = TRACE_AGGREGATOR (parent);
  gboolean ready;

  g_rec_mutex_lock (&PRIV (self)->lock);
  ready = g_queue_get_length (&PAD_PRIV (TRACE_AGGREGATOR_PAD (pad))->queue) < PRIV (self)->max_queued;
  g_rec_mutex_unlock (&PRIV (self)->lock);
  return ready;
}

static TracePad *
trace_aggregator_request_new_pad (TraceElement *element,
                                  TracePadTemplate *templ,
                                  const char *name)
{
  TracePad *pad = TRACE_ELEMENT_CLASS (trace_aggregator_parent_class)->request_new_pad (element, templ, name);

  trace_pad_set_chain_function (pad, trace_aggregator_chain);
  trace_pad_set_event_function (pad, trace_aggregator_sink_event);
  trace_pad_set_ready_function (pad, trace_aggregator_pad_ready);
  return pad;
}

/**
 * trace_aggregator_finish_batch:
 * @agg: a #TraceAggregator
 * @batch: (transfer full): a result
 *
 * Pushes a result downstream.
 *
 * Returns: what downstream returned
 */
TraceFlowReturn
trace_aggregator_finish_batch (TraceAggregator *agg,
                               TraceBatch *batch)
{
  g_return_val_if_fail (TRACE_IS_AGGREGATOR (agg), TRACE_FLOW_ERROR);
  g_return_val_if_fail (batch != NULL, TRACE_FLOW_ERROR);

  return trace_pad_push (PRIV (agg)->srcpad, batch);
}

/* An aggregator nothing feeds would wait for ever, and the pipeline with
 * it (`clock-sync ! fakesink`): with no input every input has ended, so
 * it drains and sends EOS as it starts. Inputs are requested before
 * PLAYING. */
static void
end_if_no_input (TraceAggregator *self)
{
  if (trace_element_get_n_sink_pads (TRACE_ELEMENT (self)) > 0)
    return;
  trace_element_post_warning (TRACE_ELEMENT (self), NULL, "%s has no input: its output ends at once",
                              trace_element_get_name (TRACE_ELEMENT (self)));
  g_rec_mutex_lock (&PRIV (self)->lock);
  run_aggregate (self);
  g_rec_mutex_unlock (&PRIV (self)->lock);
}

static TraceStateChangeReturn
trace_aggregator_change_state (TraceElement *element,
                               TraceStateChange transition)
{
  TraceAggregator *self = TRACE_AGGREGATOR (element);
  TraceAggregatorClass *klass = TRACE_AGGREGATOR_GET_CLASS (self);
  g_autoptr (GError) error = NULL;
  TraceStateChangeReturn ret;

  if (transition == TRACE_STATE_CHANGE_NULL_TO_READY)
    {
      g_autoptr (GList) pads = trace_aggregator_get_sink_pads (self);

      PRIV (self)->sent_start = PRIV (self)->sent_eos = FALSE;
      for (GList *l = pads; l; l = l->next)
        {
          PAD_PRIV (l->data)->eos = FALSE;
          g_queue_clear_full (&PAD_PRIV (l->data)->queue, (GDestroyNotify) trace_batch_unref);
        }
      if (klass->start && !klass->start (self, &error))
        {
          if (error)
            trace_element_post_error_literal (element, error, NULL);
          return TRACE_STATE_CHANGE_FAILURE;
        }
    }
  else if (transition == TRACE_STATE_CHANGE_READY_TO_NULL && klass->stop)
    klass->stop (self, NULL);
  ret = TRACE_ELEMENT_CLASS (trace_aggregator_parent_class)->change_state (element, transition);
  if (ret == TRACE_STATE_CHANGE_SUCCESS && transition == TRACE_STATE_CHANGE_READY_TO_PLAYING)
    end_if_no_input (self);
  return ret;
}

static void
trace_aggregator_set_property (GObject *object,
                               guint prop_id,
                               const GValue *value,
                               GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_MAX_QUEUED:
      PRIV (TRACE_AGGREGATOR (object))->max_queued = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_aggregator_get_property (GObject *object,
                               guint prop_id,
                               GValue *value,
                               GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_MAX_QUEUED:
      g_value_set_uint (value, PRIV (TRACE_AGGREGATOR (object))->max_queued);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_aggregator_finalize (GObject *object)
{
  g_rec_mutex_clear (&PRIV (TRACE_AGGREGATOR (object))->lock);
  G_OBJECT_CLASS (trace_aggregator_parent_class)->finalize (object);
}

static void
trace_aggregator_class_init (TraceAggregatorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceElementClass *element_class = TRACE_ELEMENT_CLASS (klass);

  object_class->set_property = trace_aggregator_set_property;
  object_class->get_property = trace_aggregator_get_property;
  object_class->finalize = trace_aggregator_finalize;
  element_class->change_state = trace_aggregator_change_state;
  element_class->request_new_pad = trace_aggregator_request_new_pad;

  /**
   * TraceAggregator:max-queued:
   *
   * How many batches an input may hold before its source must wait:
   * what bounds memory when one input runs ahead of another.
   */
  properties[PROP_MAX_QUEUED] =
      g_param_spec_uint ("max-queued", "Max queued", "Batches an input may hold before its source waits",
                         1, 1024, DEFAULT_MAX_QUEUED, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_add_static_pad_template_with_type (element_class, &sink_template,
                                                         TRACE_TYPE_AGGREGATOR_PAD);
  trace_element_class_add_static_pad_template (element_class, &src_template);
}

static void
trace_aggregator_init (TraceAggregator *self)
{
  TraceElementClass *klass = TRACE_ELEMENT_GET_CLASS (self);
  TraceAggregatorPrivate *priv = PRIV (self);

  g_rec_mutex_init (&priv->lock);
  priv->max_queued = DEFAULT_MAX_QUEUED;
  priv->srcpad = trace_pad_new_from_template (trace_element_class_get_pad_template (klass, "src"), "src");
  trace_element_add_pad (TRACE_ELEMENT (self), priv->srcpad);
}
