/* tracepipe-check - a test harness for one element
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/check/traceharness.h"

struct _TraceHarness
{
  TraceElement *pipeline;
  TraceElement *element;
  GPtrArray *inputs;  /* TracePad*, harness src pads */
  GPtrArray *started; /* per input: gboolean as pointer */
  TracePad *output;   /* harness sink pad, or NULL */
  GQueue out;
  GQueue messages; /* taken off the bus while running, kept for the test */
  gboolean eos;
  guint n_out;
};

static TraceFlowReturn
harness_chain (TracePad *pad,
               TraceElement *parent,
               TraceBatch *batch)
{
  TraceHarness *h = trace_pad_get_element_private (pad);

  g_queue_push_tail (&h->out, batch);
  h->n_out++;
  return TRACE_FLOW_OK;
}

static gboolean
harness_event (TracePad *pad,
               TraceElement *parent,
               TraceStreamEvent *event)
{
  TraceHarness *h = trace_pad_get_element_private (pad);

  if (event->type == TRACE_STREAM_EVENT_EOS)
    h->eos = TRUE;
  trace_stream_event_unref (event);
  return TRUE;
}

static gboolean
link_output (TraceHarness *h,
             const char *src_pad_name)
{
  TracePad *srcpad = trace_element_get_static_pad (h->element, src_pad_name);
  g_autoptr (GError) error = NULL;

  if (srcpad == NULL)
    srcpad = trace_element_request_pad (h->element, src_pad_name, &error);
  if (srcpad == NULL)
    {
      g_critical ("harness: %s", error->message);
      return FALSE;
    }
  h->output = trace_pad_new ("harness-sink", TRACE_PAD_SINK, trace_pad_get_media_type (srcpad));
  trace_pad_set_element_private (h->output, h);
  trace_pad_set_chain_function (h->output, harness_chain);
  trace_pad_set_event_function (h->output, harness_event);
  return trace_pad_link (srcpad, h->output, NULL);
}

/**
 * trace_harness_new_with_element: (skip)
 * @element: (transfer floating): the element to test
 * @sink_pad_name: (nullable): its sink pad to feed (a REQUEST template
 *   name requests one), or %NULL for none (a source)
 * @src_pad_name: (nullable): its src pad to collect, or %NULL (a sink)
 *
 * Returns: (transfer full): a harness; the element is in a pipeline of
 *   its own, so it has a bus and a string pool
 */
TraceHarness *
trace_harness_new_with_element (TraceElement *element,
                                const char *sink_pad_name,
                                const char *src_pad_name)
{
  TraceHarness *h;

  g_return_val_if_fail (TRACE_IS_ELEMENT (element), NULL);

  h = g_new0 (TraceHarness, 1);
  h->pipeline = g_object_ref_sink (trace_pipeline_new ("harness"));
  h->element = element;
  h->inputs = g_ptr_array_new_with_free_func (g_object_unref);
  h->started = g_ptr_array_new ();
  g_queue_init (&h->out);
  g_queue_init (&h->messages);
  trace_bin_add (TRACE_BIN (h->pipeline), element);
  if (sink_pad_name)
    trace_harness_add_input (h, sink_pad_name);
  if (src_pad_name)
    link_output (h, src_pad_name);
  return h;
}

/**
 * trace_harness_new: (skip)
 * @factory_name: an element factory name
 *
 * Makes the element and links its `sink` and `src` pads where it has
 * them.
 *
 * Returns: (transfer full) (nullable): a harness, %NULL if no such element
 */
TraceHarness *
trace_harness_new (const char *factory_name)
{
  TraceElement *element;

  g_return_val_if_fail (factory_name != NULL, NULL);

  trace_init (NULL, NULL);
  element = trace_element_factory_make (factory_name, NULL);
  if (element == NULL)
    return NULL;
  return trace_harness_new_with_element (element,
                                         trace_element_get_static_pad (element, "sink") ? "sink" : NULL,
                                         trace_element_get_static_pad (element, "src") ? "src" : NULL);
}

static gboolean
set_property_from_text (TraceElement *element,
                        const char *assignment,
                        GError **error)
{
  g_auto (GStrv) kv = g_strsplit (assignment, "=", 2);
  g_auto (GValue) value = G_VALUE_INIT;
  GParamSpec *pspec;

  if (kv[1] == NULL)
    {
      g_set_error (error, TRACE_PARSE_ERROR, TRACE_PARSE_ERROR_SYNTAX, "expected KEY=VALUE, not \"%s\"", assignment);
      return FALSE;
    }
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (element), kv[0]);
  if (pspec == NULL)
    {
      g_set_error (error, TRACE_PARSE_ERROR, TRACE_PARSE_ERROR_NO_SUCH_PROPERTY, "no property \"%s\"", kv[0]);
      return FALSE;
    }
  if (!trace_value_from_string (pspec, kv[1], &value, error))
    return FALSE;
  g_object_set_property (G_OBJECT (element), kv[0], &value);
  return TRUE;
}

/**
 * trace_harness_new_parse: (skip)
 * @description: one element with properties, in launch syntax
 *   (`filter tid=main`); values may be quoted as a shell would
 *
 * Returns: (transfer full) (nullable): a harness around that element
 */
TraceHarness *
trace_harness_new_parse (const char *description)
{
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) words = NULL;
  TraceElement *element;
  TraceHarness *harness;

  g_return_val_if_fail (description != NULL, NULL);

  trace_init (NULL, NULL);
  if (!g_shell_parse_argv (description, NULL, &words, &error) ||
      (element = trace_element_factory_make_checked (words[0], NULL, &error)) == NULL)
    {
      g_critical ("harness: %s", error->message);
      return NULL;
    }
  g_object_ref_sink (element);
  for (guint i = 1; words[i]; i++)
    if (!set_property_from_text (element, words[i], &error))
      {
        g_critical ("harness: %s: %s", description, error->message);
        g_object_unref (element);
        return NULL;
      }
  harness = trace_harness_new_with_element (element,
                                            trace_element_get_static_pad (element, "sink") ? "sink" : NULL,
                                            trace_element_get_static_pad (element, "src") ? "src" : NULL);
  g_object_unref (element); /* the harness's pipeline holds it */
  return harness;
}

/**
 * trace_harness_free:
 * @harness: a #TraceHarness
 */
void
trace_harness_free (TraceHarness *harness)
{
  g_return_if_fail (harness != NULL);

  trace_element_set_state (harness->pipeline, TRACE_STATE_NULL);
  g_queue_clear_full (&harness->out, (GDestroyNotify) trace_batch_unref);
  g_queue_clear_full (&harness->messages, (GDestroyNotify) trace_message_unref);
  g_object_unref (harness->pipeline);
  g_ptr_array_unref (harness->inputs);
  g_ptr_array_unref (harness->started);
  g_clear_object (&harness->output);
  g_free (harness);
}

/**
 * trace_harness_get_element:
 * @harness: a #TraceHarness
 *
 * Returns: (transfer none): the element under test
 */
TraceElement *
trace_harness_get_element (TraceHarness *harness)
{
  g_return_val_if_fail (harness != NULL, NULL);

  return harness->element;
}

/**
 * trace_harness_get_string_pool:
 * @harness: a #TraceHarness
 *
 * Returns: (transfer none): the pool the element's events use
 */
TraceStringPool *
trace_harness_get_string_pool (TraceHarness *harness)
{
  g_return_val_if_fail (harness != NULL, NULL);

  return trace_pipeline_get_string_pool (TRACE_PIPELINE (harness->pipeline));
}

/**
 * trace_harness_new_batch:
 * @harness: a #TraceHarness
 *
 * Returns: (transfer full): an empty batch in the harness's pool
 */
TraceBatch *
trace_harness_new_batch (TraceHarness *harness)
{
  g_return_val_if_fail (harness != NULL, NULL);

  return trace_batch_new (trace_harness_get_string_pool (harness), 0);
}

/**
 * trace_harness_intern:
 * @harness: a #TraceHarness
 * @str: a string
 *
 * Returns: its id in the harness's pool
 */
guint32
trace_harness_intern (TraceHarness *harness,
                      const char *str)
{
  g_return_val_if_fail (harness != NULL, 0);

  return trace_string_pool_intern (trace_harness_get_string_pool (harness), str);
}

/**
 * trace_harness_string:
 * @harness: a #TraceHarness
 * @id: a string id
 *
 * Returns: the string
 */
const char *
trace_harness_string (TraceHarness *harness,
                      guint32 id)
{
  g_return_val_if_fail (harness != NULL, NULL);

  return trace_string_pool_get (trace_harness_get_string_pool (harness), id);
}

/**
 * trace_harness_play:
 * @harness: a #TraceHarness
 *
 * Returns: whether the element reached PLAYING
 */
gboolean
trace_harness_play (TraceHarness *harness)
{
  g_return_val_if_fail (harness != NULL, FALSE);

  return trace_element_set_state (harness->pipeline, TRACE_STATE_PLAYING) == TRACE_STATE_CHANGE_SUCCESS;
}

/**
 * trace_harness_add_input:
 * @harness: a #TraceHarness
 * @pad_name: a sink pad name or REQUEST template (`sink_%u`)
 *
 * Returns: the index of the new input, for trace_harness_push_to();
 *   %G_MAXUINT (no input) when called wrongly
 */
guint
trace_harness_add_input (TraceHarness *harness,
                         const char *pad_name)
{
  TracePad *sinkpad;
  TracePad *input;
  g_autoptr (GError) error = NULL;

  g_return_val_if_fail (harness != NULL, G_MAXUINT);
  g_return_val_if_fail (pad_name != NULL, G_MAXUINT);

  sinkpad = trace_element_get_static_pad (harness->element, pad_name);
  if (sinkpad == NULL || trace_pad_is_linked (sinkpad))
    sinkpad = trace_element_request_pad (harness->element, pad_name, &error);
  g_assert_no_error (error);
  input = trace_pad_new ("harness-src", TRACE_PAD_SRC, trace_pad_get_media_type (sinkpad));
  trace_pad_link (input, sinkpad, &error);
  g_assert_no_error (error);
  g_ptr_array_add (harness->inputs, input);
  g_ptr_array_add (harness->started, GINT_TO_POINTER (FALSE));
  return harness->inputs->len - 1;
}

/**
 * trace_harness_set_stream_start:
 * @harness: a #TraceHarness
 * @input: an input index
 * @format: (nullable): the stream's format; %NULL says `unknown`
 * @domain: its clock domain
 *
 * Sends a stream-start on @input (otherwise the first push sends a
 * default one).
 */
void
trace_harness_set_stream_start (TraceHarness *harness,
                                guint input,
                                const char *format,
                                TraceClockDomain domain)
{
  TraceStreamInfo info = { .format = (char *) format, .clock_domain = domain, .clock_source = "harness" };

  trace_harness_set_stream_info (harness, input, &info);
}

/**
 * trace_harness_set_stream_info:
 * @harness: a #TraceHarness
 * @input: an input index
 * @info: what the stream is: its format, location, clock, metadata and
 *   flags
 *
 * Sends a stream-start describing @info on @input.
 */
void
trace_harness_set_stream_info (TraceHarness *harness,
                               guint input,
                               const TraceStreamInfo *info)
{
  TraceStreamEvent *start;
  TracePad *pad;

  g_return_if_fail (harness != NULL);
  g_return_if_fail (input < harness->inputs->len);
  g_return_if_fail (info != NULL);

  pad = harness->inputs->pdata[input];
  /* Going to READY clears the pads' stream-starts: play first. */
  if (trace_element_get_state (harness->pipeline) != TRACE_STATE_PLAYING)
    trace_harness_play (harness);
  start = trace_stream_event_new_stream_start (info->format, info->location, info->clock_domain, info->clock_source);
  start->info.metadata = g_strdup (info->metadata);
  start->info.flags = info->flags;
  trace_pad_push_event (pad, start);
  harness->started->pdata[input] = GINT_TO_POINTER (TRUE);
}

static void
ensure_started (TraceHarness *harness,
                guint input)
{
  if (trace_element_get_state (harness->pipeline) != TRACE_STATE_PLAYING)
    trace_harness_play (harness);
  if (!GPOINTER_TO_INT (harness->started->pdata[input]))
    trace_harness_set_stream_start (harness, input, "harness", TRACE_CLOCK_BOOTTIME);
}

/**
 * trace_harness_push_to:
 * @harness: a #TraceHarness
 * @input: an input index
 * @batch: (transfer full): the batch
 *
 * Returns: what the element returned
 */
TraceFlowReturn
trace_harness_push_to (TraceHarness *harness,
                       guint input,
                       TraceBatch *batch)
{
  g_return_val_if_fail (harness != NULL, TRACE_FLOW_ERROR);
  g_return_val_if_fail (input < harness->inputs->len, TRACE_FLOW_ERROR);
  g_return_val_if_fail (batch != NULL, TRACE_FLOW_ERROR);

  ensure_started (harness, input);
  return trace_pad_push (harness->inputs->pdata[input], batch);
}

/**
 * trace_harness_push:
 * @harness: a #TraceHarness
 * @batch: (transfer full): the batch
 *
 * Returns: what the element returned
 */
TraceFlowReturn
trace_harness_push (TraceHarness *harness,
                    TraceBatch *batch)
{
  g_return_val_if_fail (harness != NULL, TRACE_FLOW_ERROR);

  return trace_harness_push_to (harness, 0, batch);
}

/**
 * trace_harness_push_eos_to:
 * @harness: a #TraceHarness
 * @input: an input index
 *
 * Returns: whether the element handled it
 */
gboolean
trace_harness_push_eos_to (TraceHarness *harness,
                           guint input)
{
  g_return_val_if_fail (harness != NULL, FALSE);
  g_return_val_if_fail (input < harness->inputs->len, FALSE);

  ensure_started (harness, input);
  return trace_pad_push_event (harness->inputs->pdata[input], trace_stream_event_new_eos ());
}

/**
 * trace_harness_push_eos:
 * @harness: a #TraceHarness
 *
 * Returns: whether the element handled it
 */
gboolean
trace_harness_push_eos (TraceHarness *harness)
{
  g_return_val_if_fail (harness != NULL, FALSE);

  return trace_harness_push_eos_to (harness, 0);
}

/**
 * trace_harness_input_is_ready:
 * @harness: a #TraceHarness
 * @input: an input index
 *
 * Returns: whether the element would take a batch on @input now
 */
gboolean
trace_harness_input_is_ready (TraceHarness *harness,
                              guint input)
{
  g_return_val_if_fail (harness != NULL, FALSE);
  g_return_val_if_fail (input < harness->inputs->len, FALSE);

  return trace_pad_peer_is_ready (harness->inputs->pdata[input]);
}

/* Moves the bus's messages to the harness's own queue, where
 * trace_harness_pop_message() finds them; says whether one is an ERROR
 * (the run stops there, the error left for the test to read). */
static gboolean
take_messages (TraceHarness *harness)
{
  TraceBus *bus = trace_pipeline_get_bus (TRACE_PIPELINE (harness->pipeline));
  TraceMessage *msg;
  gboolean error = FALSE;

  while ((msg = trace_bus_pop (bus)) != NULL)
    {
      error |= msg->type == TRACE_MESSAGE_ERROR;
      g_queue_push_tail (&harness->messages, msg);
    }
  return error;
}

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/**
 * trace_harness_run_until_eos:
 * @harness: a #TraceHarness
 * @timeout_ms: give up after this long
 *
 * For a source: plays it and runs its main context until EOS reaches the
 * harness (or an ERROR is posted, or the timeout).
 *
 * Returns: whether EOS arrived
 */
gboolean
trace_harness_run_until_eos (TraceHarness *harness,
                             guint timeout_ms)
{
  GMainContext *ctx;
  gboolean timed_out = FALSE;
  GSource *timer;

  g_return_val_if_fail (harness != NULL, FALSE);

  ctx = trace_pipeline_get_context (TRACE_PIPELINE (harness->pipeline));
  timer = g_timeout_source_new (timeout_ms);
  g_source_set_callback (timer, timeout_cb, &timed_out, NULL);
  g_source_attach (timer, ctx);
  if (trace_element_get_state (harness->pipeline) != TRACE_STATE_PLAYING && !trace_harness_play (harness))
    {
      g_source_destroy (timer);
      g_source_unref (timer);
      return FALSE;
    }
  while (!harness->eos && !timed_out && !take_messages (harness))
    g_main_context_iteration (ctx, TRUE);
  take_messages (harness);
  g_source_destroy (timer);
  g_source_unref (timer);
  return harness->eos;
}

/**
 * trace_harness_pull:
 * @harness: a #TraceHarness
 *
 * Returns: (transfer full) (nullable): the oldest batch the element
 *   pushed out, %NULL if none is waiting
 */
TraceBatch *
trace_harness_pull (TraceHarness *harness)
{
  g_return_val_if_fail (harness != NULL, NULL);

  return g_queue_pop_head (&harness->out);
}

/**
 * trace_harness_take_all:
 * @harness: a #TraceHarness
 *
 * Returns: (transfer full): every event pushed out so far, in order, in
 *   one batch (empty if none)
 */
TraceBatch *
trace_harness_take_all (TraceHarness *harness)
{
  TraceBatch *all;
  TraceBatch *b;

  g_return_val_if_fail (harness != NULL, NULL);

  all = trace_harness_new_batch (harness);
  while ((b = g_queue_pop_head (&harness->out)) != NULL)
    {
      for (guint i = 0; i < b->n_events; i++)
        trace_batch_append_event (all, &b->events[i], b);
      trace_batch_unref (b);
    }
  return all;
}

/**
 * trace_harness_get_n_batches_out:
 * @harness: a #TraceHarness
 *
 * Returns: how many batches the element pushed out in all
 */
guint
trace_harness_get_n_batches_out (TraceHarness *harness)
{
  g_return_val_if_fail (harness != NULL, 0);

  return harness->n_out;
}

/**
 * trace_harness_got_eos:
 * @harness: a #TraceHarness
 *
 * Returns: whether EOS came out of the element
 */
gboolean
trace_harness_got_eos (TraceHarness *harness)
{
  g_return_val_if_fail (harness != NULL, FALSE);

  return harness->eos;
}

/**
 * trace_harness_get_stream_info:
 * @harness: a #TraceHarness
 *
 * Returns: (nullable): what the element's stream-start said
 */
const TraceStreamInfo *
trace_harness_get_stream_info (TraceHarness *harness)
{
  TraceStreamEvent *start;

  g_return_val_if_fail (harness != NULL, NULL);

  start = harness->output ? trace_pad_get_sticky_stream_start (harness->output) : NULL;
  return start ? &start->info : NULL;
}

/**
 * trace_harness_pop_message:
 * @harness: a #TraceHarness
 * @types: the message types wanted
 *
 * Messages of other types stay for later calls.
 *
 * Returns: (transfer full) (nullable): the oldest such message the
 *   element posted
 */
TraceMessage *
trace_harness_pop_message (TraceHarness *harness,
                           TraceMessageType types)
{
  g_return_val_if_fail (harness != NULL, NULL);

  take_messages (harness);
  for (GList *l = harness->messages.head; l; l = l->next)
    {
      TraceMessage *msg = l->data;

      if (msg->type & types)
        {
          g_queue_delete_link (&harness->messages, l);
          return msg;
        }
    }
  return NULL;
}
