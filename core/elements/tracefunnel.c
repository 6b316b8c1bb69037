/* tracepipe - funnel: many inputs, one output
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "tracecoreelements.h"

/**
 * TraceFunnel:
 *
 * Forwards batches from any of its request `sink_%u` pads as they come,
 * one at a time, and sends EOS once every input has ended. It does not
 * order events: use `clock-sync` to merge streams onto one timeline.
 * When its inputs never meet in time (a stretch between them that none
 * covers), it says so in one WARNING at the end (docs/clocks.md).
 * A funnel with no input when it starts to play sends EOS at once, with
 * a WARNING: request its inputs before then.
 */
struct _TraceFunnel
{
  TraceElement parent_instance;

  TracePad *srcpad;
  GMutex lock; /* inputs may push from different threads */
  gboolean sent_start;
  TraceInputSpans *spans; /* what each input covers */
};

static const TraceStaticPadTemplate sink_template =
    TRACE_STATIC_PAD_TEMPLATE ("sink_%u", TRACE_PAD_SINK, TRACE_PAD_REQUEST, TRACE_MEDIA_TYPE_EVENTS);
static const TraceStaticPadTemplate src_template =
    TRACE_STATIC_PAD_TEMPLATE ("src", TRACE_PAD_SRC, TRACE_PAD_ALWAYS, TRACE_MEDIA_TYPE_EVENTS);

G_DEFINE_FINAL_TYPE (TraceFunnel, trace_funnel, TRACE_TYPE_ELEMENT)

static TraceFlowReturn
trace_funnel_chain (TracePad *pad,
                    TraceElement *parent,
                    TraceBatch *batch)
{
  TraceFunnel *self = TRACE_FUNNEL (parent);
  TraceFlowReturn ret;

  g_mutex_lock (&self->lock);
  trace_input_spans_add_batch (self->spans, pad, batch);
  ret = trace_pad_push (self->srcpad, batch);
  g_mutex_unlock (&self->lock);
  return ret;
}

static gboolean
all_inputs_ended (TraceFunnel *self)
{
  for (const GList *l = trace_element_get_pads (TRACE_ELEMENT (self)); l; l = l->next)
    if (trace_pad_get_direction (l->data) == TRACE_PAD_SINK && !trace_pad_is_eos (l->data))
      return FALSE;
  return TRUE;
}

/* Inputs that never meet in time: a funnel does not move events, so
 * captures on different clocks land far apart. */
static void
warn_if_apart (TraceFunnel *self)
{
  g_autofree char *gaps = trace_input_spans_describe_gaps (self->spans);

  if (gaps)
    trace_element_post_warning (TRACE_ELEMENT (self), NULL,
                                "%s (funnel does not move events: clock-sync puts inputs of different clocks on "
                                "one timeline)",
                                gaps);
}

static gboolean
trace_funnel_sink_event (TracePad *pad,
                         TraceElement *parent,
                         TraceStreamEvent *event)
{
  TraceFunnel *self = TRACE_FUNNEL (parent);
  gboolean forward = FALSE;

  g_mutex_lock (&self->lock);
  if (event->type == TRACE_STREAM_EVENT_STREAM_START)
    {
      /* Downstream sees one stream: the first input describes it. */
      forward = !self->sent_start;
      self->sent_start = TRUE;
    }
  else if (event->type == TRACE_STREAM_EVENT_EOS && (forward = all_inputs_ended (self)))
    warn_if_apart (self);
  if (forward)
    trace_pad_push_event (self->srcpad, trace_stream_event_ref (event));
  g_mutex_unlock (&self->lock);
  trace_stream_event_unref (event);
  return TRUE;
}

static TracePad *
trace_funnel_request_new_pad (TraceElement *element,
                              TracePadTemplate *templ,
                              const char *name)
{
  TracePad *pad = TRACE_ELEMENT_CLASS (trace_funnel_parent_class)->request_new_pad (element, templ, name);

  trace_pad_set_chain_function (pad, trace_funnel_chain);
  trace_pad_set_event_function (pad, trace_funnel_sink_event);
  return pad;
}

/* A funnel nothing feeds would wait for ever, and the pipeline with it
 * (`funnel ! fakesink`): the merge of no input is empty and complete, so
 * its output ends as it starts. Inputs are requested before PLAYING. */
static void
end_if_no_input (TraceFunnel *self)
{
  if (trace_element_get_n_sink_pads (TRACE_ELEMENT (self)) > 0)
    return;
  trace_element_post_warning (TRACE_ELEMENT (self), NULL, "%s has no input: its output ends at once",
                              trace_element_get_name (TRACE_ELEMENT (self)));
  trace_pad_push_event (self->srcpad, trace_stream_event_new_eos ());
}

static TraceStateChangeReturn
trace_funnel_change_state (TraceElement *element,
                           TraceStateChange transition)
{
  TraceStateChangeReturn ret;

  if (transition == TRACE_STATE_CHANGE_NULL_TO_READY)
    {
      TRACE_FUNNEL (element)->sent_start = FALSE;
      trace_input_spans_clear (TRACE_FUNNEL (element)->spans);
    }
  ret = TRACE_ELEMENT_CLASS (trace_funnel_parent_class)->change_state (element, transition);
  if (ret == TRACE_STATE_CHANGE_SUCCESS && transition == TRACE_STATE_CHANGE_READY_TO_PLAYING)
    end_if_no_input (TRACE_FUNNEL (element));
  return ret;
}

static void
trace_funnel_finalize (GObject *object)
{
  g_mutex_clear (&TRACE_FUNNEL (object)->lock);
  trace_input_spans_free (TRACE_FUNNEL (object)->spans);
  G_OBJECT_CLASS (trace_funnel_parent_class)->finalize (object);
}

static void
trace_funnel_class_init (TraceFunnelClass *klass)
{
  TraceElementClass *element_class = TRACE_ELEMENT_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = trace_funnel_finalize;
  element_class->request_new_pad = trace_funnel_request_new_pad;
  element_class->change_state = trace_funnel_change_state;
  trace_element_class_add_static_pad_template (element_class, &sink_template);
  trace_element_class_add_static_pad_template (element_class, &src_template);
  trace_element_class_set_metadata (element_class, "Funnel", "Generic",
                                    "Forwards several streams into one, as they come", "tracepipe");
}

static void
trace_funnel_init (TraceFunnel *self)
{
  TraceElementClass *klass = TRACE_ELEMENT_GET_CLASS (self);

  g_mutex_init (&self->lock);
  self->spans = trace_input_spans_new ();
  self->srcpad = trace_pad_new_from_template (trace_element_class_get_pad_template (klass, "src"), "src");
  trace_element_add_pad (TRACE_ELEMENT (self), self->srcpad);
}
