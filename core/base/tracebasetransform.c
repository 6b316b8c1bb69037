/* tracepipe - base class for 1:1 filters
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "trace-private.h"

typedef struct
{
  TracePad *sinkpad;
  TracePad *srcpad;
  gboolean passthrough;
  guint64 dropped;
} TraceBaseTransformPrivate;

static const TraceStaticPadTemplate sink_template =
    TRACE_STATIC_PAD_TEMPLATE ("sink", TRACE_PAD_SINK, TRACE_PAD_ALWAYS, TRACE_MEDIA_TYPE_EVENTS);
static const TraceStaticPadTemplate src_template =
    TRACE_STATIC_PAD_TEMPLATE ("src", TRACE_PAD_SRC, TRACE_PAD_ALWAYS, TRACE_MEDIA_TYPE_EVENTS);

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TraceBaseTransform, trace_base_transform, TRACE_TYPE_ELEMENT)

#define PRIV(t) ((TraceBaseTransformPrivate *) trace_base_transform_get_instance_private (t))

static TraceFlowReturn
trace_base_transform_chain (TracePad *pad,
                            TraceElement *parent,
                            TraceBatch *batch)
{
  TraceBaseTransform *self = TRACE_BASE_TRANSFORM (parent);
  TraceBaseTransformPrivate *priv = PRIV (self);
  TraceBaseTransformClass *klass = TRACE_BASE_TRANSFORM_GET_CLASS (self);
  TraceFlowReturn ret;

  if (priv->passthrough || klass->transform_ip == NULL)
    return trace_pad_push (priv->srcpad, batch);

  batch = trace_batch_make_writable (batch);
  ret = klass->transform_ip (self, batch);
  if (ret != TRACE_FLOW_OK)
    {
      trace_batch_unref (batch);
      return ret == TRACE_BASE_TRANSFORM_FLOW_DROPPED ? TRACE_FLOW_OK : ret;
    }
  return trace_base_transform_push (self, batch);
}

/**
 * trace_base_transform_push:
 * @trans: a #TraceBaseTransform
 * @batch: (transfer full): a writable batch its @transform_ip went over
 *
 * Pushes @batch downstream as the base pushes what @transform_ip
 * returns: without its %TRACE_EVENT_NONE events (counted as dropped),
 * and not at all when none is left.  For a subclass that kept batches
 * (%TRACE_BASE_TRANSFORM_FLOW_DROPPED) and pushes them later, from
 * @transform_ip or @drain.
 *
 * Returns: what downstream returned, %TRACE_FLOW_OK for an empty batch
 */
TraceFlowReturn
trace_base_transform_push (TraceBaseTransform *trans,
                           TraceBatch *batch)
{
  TraceBaseTransformPrivate *priv;
  guint before;

  g_return_val_if_fail (TRACE_IS_BASE_TRANSFORM (trans), TRACE_FLOW_ERROR);
  g_return_val_if_fail (batch != NULL, TRACE_FLOW_ERROR);

  priv = PRIV (trans);
  before = batch->n_events;
  trace_batch_remove_none (batch);
  priv->dropped += before - batch->n_events;
  if (batch->n_events == 0)
    {
      trace_batch_unref (batch);
      return TRACE_FLOW_OK;
    }
  return trace_pad_push (priv->srcpad, batch);
}

static gboolean
trace_base_transform_sink_event (TracePad *pad,
                                 TraceElement *parent,
                                 TraceStreamEvent *event)
{
  TraceBaseTransform *self = TRACE_BASE_TRANSFORM (parent);
  TraceBaseTransformClass *klass = TRACE_BASE_TRANSFORM_GET_CLASS (self);

  if (event->type == TRACE_STREAM_EVENT_STREAM_START && klass->stream_start)
    klass->stream_start (self, &event->info);
  if (event->type == TRACE_STREAM_EVENT_EOS)
    {
      TraceBatch *rest = klass->drain ? klass->drain (self) : NULL;

      if (rest && rest->n_events > 0)
        trace_pad_push (PRIV (self)->srcpad, rest);
      else if (rest)
        trace_batch_unref (rest);
      trace_element_post_stats (parent);
    }
  return trace_pad_push_event (PRIV (self)->srcpad, event);
}

static TraceStateChangeReturn
trace_base_transform_change_state (TraceElement *element,
                                   TraceStateChange transition)
{
  TraceBaseTransform *self = TRACE_BASE_TRANSFORM (element);
  TraceBaseTransformClass *klass = TRACE_BASE_TRANSFORM_GET_CLASS (self);
  g_autoptr (GError) error = NULL;

  if (transition == TRACE_STATE_CHANGE_NULL_TO_READY)
    {
      PRIV (self)->dropped = 0;
      if (klass->start && !klass->start (self, &error))
        {
          if (error)
            trace_element_post_error_literal (element, error, NULL);
          return TRACE_STATE_CHANGE_FAILURE;
        }
    }
  else if (transition == TRACE_STATE_CHANGE_READY_TO_NULL && klass->stop)
    klass->stop (self, NULL);
  return TRACE_ELEMENT_CLASS (trace_base_transform_parent_class)->change_state (element, transition);
}

static void
trace_base_transform_collect_stats (TraceElement *element,
                                    GVariantDict *stats)
{
  TRACE_ELEMENT_CLASS (trace_base_transform_parent_class)->collect_stats (element, stats);
  g_variant_dict_insert (stats, "dropped", "t", PRIV (TRACE_BASE_TRANSFORM (element))->dropped);
}

static void
trace_base_transform_class_init (TraceBaseTransformClass *klass)
{
  TraceElementClass *element_class = TRACE_ELEMENT_CLASS (klass);

  element_class->change_state = trace_base_transform_change_state;
  element_class->collect_stats = trace_base_transform_collect_stats;
  trace_element_class_add_static_pad_template (element_class, &sink_template);
  trace_element_class_add_static_pad_template (element_class, &src_template);
}

static void
trace_base_transform_init (TraceBaseTransform *self)
{
  TraceElementClass *klass = TRACE_ELEMENT_GET_CLASS (self);
  TraceBaseTransformPrivate *priv = PRIV (self);

  priv->sinkpad = trace_pad_new_from_template (trace_element_class_get_pad_template (klass, "sink"), "sink");
  trace_pad_set_chain_function (priv->sinkpad, trace_base_transform_chain);
  trace_pad_set_event_function (priv->sinkpad, trace_base_transform_sink_event);
  trace_element_add_pad (TRACE_ELEMENT (self), priv->sinkpad);
  priv->srcpad = trace_pad_new_from_template (trace_element_class_get_pad_template (klass, "src"), "src");
  trace_element_add_pad (TRACE_ELEMENT (self), priv->srcpad);
}

/**
 * trace_base_transform_set_passthrough:
 * @trans: a #TraceBaseTransform
 * @passthrough: whether to forward batches untouched
 *
 * In passthrough the batches are pushed as they came, not even made
 * writable: what a filter with no condition set should do.
 */
void
trace_base_transform_set_passthrough (TraceBaseTransform *trans,
                                      gboolean passthrough)
{
  g_return_if_fail (TRACE_IS_BASE_TRANSFORM (trans));

  PRIV (trans)->passthrough = passthrough;
}

/**
 * trace_base_transform_is_passthrough:
 * @trans: a #TraceBaseTransform
 *
 * Returns: whether batches go through untouched
 */
gboolean
trace_base_transform_is_passthrough (TraceBaseTransform *trans)
{
  g_return_val_if_fail (TRACE_IS_BASE_TRANSFORM (trans), FALSE);

  return PRIV (trans)->passthrough;
}

/**
 * trace_base_transform_get_string_pool:
 * @trans: a #TraceBaseTransform
 *
 * Returns: (transfer none): the pipeline's string pool
 */
TraceStringPool *
trace_base_transform_get_string_pool (TraceBaseTransform *trans)
{
  g_return_val_if_fail (TRACE_IS_BASE_TRANSFORM (trans), NULL);

  return trace_element_get_string_pool (TRACE_ELEMENT (trans));
}

/**
 * trace_base_transform_get_dropped:
 * @trans: a #TraceBaseTransform
 *
 * Returns: how many events it dropped
 */
guint64
trace_base_transform_get_dropped (TraceBaseTransform *trans)
{
  g_return_val_if_fail (TRACE_IS_BASE_TRANSFORM (trans), 0);

  return PRIV (trans)->dropped;
}
