/* tracepipe - tee: one input, many outputs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "tracecoreelements.h"

/**
 * TraceTee:
 *
 * Pushes every batch to each of its request `src_%u` pads. Batches are
 * shared, not copied: an element downstream that changes events gets its
 * own copy when it asks for a writable batch.
 */
struct _TraceTee
{
  TraceElement parent_instance;

  TracePad *sinkpad;
};

static const TraceStaticPadTemplate sink_template =
    TRACE_STATIC_PAD_TEMPLATE ("sink", TRACE_PAD_SINK, TRACE_PAD_ALWAYS, TRACE_MEDIA_TYPE_EVENTS);
static const TraceStaticPadTemplate src_template =
    TRACE_STATIC_PAD_TEMPLATE ("src_%u", TRACE_PAD_SRC, TRACE_PAD_REQUEST, TRACE_MEDIA_TYPE_EVENTS);

G_DEFINE_FINAL_TYPE (TraceTee, trace_tee, TRACE_TYPE_ELEMENT)

/* OK if any branch took it; EOS or NOT_LINKED only when all say so; an
 * ERROR anywhere stops the stream. */
static TraceFlowReturn
combine (TraceFlowReturn acc,
         TraceFlowReturn ret,
         gboolean first)
{
  if (acc == TRACE_FLOW_ERROR || ret == TRACE_FLOW_ERROR)
    return TRACE_FLOW_ERROR;
  if (first)
    return ret;
  if (acc == TRACE_FLOW_OK || ret == TRACE_FLOW_OK)
    return TRACE_FLOW_OK;
  return acc == ret ? acc : TRACE_FLOW_EOS;
}

static TraceFlowReturn
trace_tee_chain (TracePad *pad,
                 TraceElement *parent,
                 TraceBatch *batch)
{
  TraceFlowReturn result = TRACE_FLOW_NOT_LINKED;
  gboolean first = TRUE;

  for (const GList *l = trace_element_get_pads (parent); l; l = l->next)
    {
      if (trace_pad_get_direction (l->data) != TRACE_PAD_SRC)
        continue;
      result = combine (result, trace_pad_push (l->data, trace_batch_ref (batch)), first);
      first = FALSE;
    }
  trace_batch_unref (batch);
  return result;
}

/* A tee without a branch is an end of the graph, and the bin counts it
 * among its sinks (no src pad): once its input has ended it says EOS as a
 * sink would, or the pipeline waits for it for ever (found by the
 * launch-graph fuzz target: `… tee name=t t. ! funnel ! tee …`, the
 * last tee without a branch, behind a tee whose other branch goes on). */
static gboolean
trace_tee_sink_event (TracePad *pad,
                      TraceElement *parent,
                      TraceStreamEvent *event)
{
  gboolean is_eos = event->type == TRACE_STREAM_EVENT_EOS;
  gboolean ret = trace_pad_event_default (pad, parent, event);

  if (is_eos && trace_element_get_n_src_pads (parent) == 0)
    trace_element_post_message (parent, trace_message_new_eos (G_OBJECT (parent)));
  return ret;
}

static TracePad *
trace_tee_request_new_pad (TraceElement *element,
                           TracePadTemplate *templ,
                           const char *name)
{
  TracePad *pad = TRACE_ELEMENT_CLASS (trace_tee_parent_class)->request_new_pad (element, templ, name);
  TraceStreamEvent *start = trace_pad_get_sticky_stream_start (TRACE_TEE (element)->sinkpad);

  /* A branch added while running still learns what the stream is. */
  if (start)
    trace_pad_push_event (pad, trace_stream_event_ref (start));
  return pad;
}

static void
trace_tee_class_init (TraceTeeClass *klass)
{
  TraceElementClass *element_class = TRACE_ELEMENT_CLASS (klass);

  element_class->request_new_pad = trace_tee_request_new_pad;
  trace_element_class_add_static_pad_template (element_class, &sink_template);
  trace_element_class_add_static_pad_template (element_class, &src_template);
  trace_element_class_set_metadata (element_class, "Tee", "Generic",
                                    "Sends the stream to several branches", "tracepipe");
}

static void
trace_tee_init (TraceTee *self)
{
  TraceElementClass *klass = TRACE_ELEMENT_GET_CLASS (self);

  self->sinkpad = trace_pad_new_from_template (trace_element_class_get_pad_template (klass, "sink"), "sink");
  trace_pad_set_chain_function (self->sinkpad, trace_tee_chain);
  trace_pad_set_event_function (self->sinkpad, trace_tee_sink_event);
  trace_element_add_pad (TRACE_ELEMENT (self), self->sinkpad);
}
