/* tracepipe - element states, the context elements run in, messages
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdarg.h>

#include "trace/trace.h"
#include "trace-private.h"

/**
 * trace_state_to_string:
 * @state: a #TraceState
 *
 * Returns: `NULL`, `READY` or `PLAYING`
 */
const char *
trace_state_to_string (TraceState state)
{
  switch (state)
    {
    case TRACE_STATE_NULL:
      return "NULL";
    case TRACE_STATE_READY:
      return "READY";
    case TRACE_STATE_PLAYING:
      return "PLAYING";
    }
  return "invalid";
}

#define get_state _trace_element_get_state_field
#define set_state _trace_element_set_state_field

/**
 * trace_element_get_state:
 * @element: a #TraceElement
 *
 * Returns: its current state
 */
TraceState
trace_element_get_state (TraceElement *element)
{
  g_return_val_if_fail (TRACE_IS_ELEMENT (element), TRACE_STATE_NULL);

  return get_state (element);
}

/**
 * trace_element_set_state:
 * @element: a #TraceElement
 * @state: the target state
 *
 * Walks the element through each transition to @state. A bin changes its
 * children sinks first. Each step posts STATE_CHANGED; a failing step
 * stops the walk and the element has posted an ERROR saying why.
 *
 * Returns: %TRACE_STATE_CHANGE_SUCCESS or %TRACE_STATE_CHANGE_FAILURE
 */
TraceStateChangeReturn
trace_element_set_state (TraceElement *element,
                         TraceState state)
{
  g_return_val_if_fail (TRACE_IS_ELEMENT (element), TRACE_STATE_CHANGE_FAILURE);

  while (get_state (element) != state)
    {
      TraceState current = get_state (element);
      TraceState next = current < state ? current + 1 : current - 1;
      TraceStateChange transition = (current << 3) | next;
      TraceStateChangeReturn ret;

      ret = TRACE_ELEMENT_GET_CLASS (element)->change_state (element, transition);
      if (ret == TRACE_STATE_CHANGE_FAILURE)
        return ret;
      set_state (element, next);
      g_debug ("%s: %s -> %s", trace_element_get_name (element), trace_state_to_string (current),
               trace_state_to_string (next));
      trace_element_post_message (element,
                                  trace_message_new_state_changed (G_OBJECT (element), current, next));
    }
  return TRACE_STATE_CHANGE_SUCCESS;
}

/**
 * trace_element_send_eos:
 * @element: a #TraceElement
 *
 * Asks the element to end its stream early: a source stops reading and
 * sends EOS, so downstream sinks complete valid files. A bin asks all its
 * children.
 */
void
trace_element_send_eos (TraceElement *element)
{
  TraceElementClass *klass;

  g_return_if_fail (TRACE_IS_ELEMENT (element));

  klass = TRACE_ELEMENT_GET_CLASS (element);
  if (klass->send_eos)
    klass->send_eos (element);
}

static TraceElement *
get_top (TraceElement *element)
{
  while (trace_element_get_parent (element))
    element = trace_element_get_parent (element);
  return element;
}

/**
 * trace_element_get_string_pool:
 * @element: a #TraceElement
 *
 * Returns: (transfer none): the pool of its pipeline, or the default pool
 *   for an element outside a pipeline
 */
TraceStringPool *
trace_element_get_string_pool (TraceElement *element)
{
  TraceElement *top;

  g_return_val_if_fail (TRACE_IS_ELEMENT (element), NULL);

  top = get_top (element);
  if (TRACE_IS_PIPELINE (top))
    return trace_pipeline_get_string_pool (TRACE_PIPELINE (top));
  return trace_string_pool_get_default ();
}

/**
 * trace_element_get_main_context:
 * @element: a #TraceElement
 *
 * Returns: (transfer none) (nullable): the context its pipeline runs in;
 *   %NULL means the global default context
 */
GMainContext *
trace_element_get_main_context (TraceElement *element)
{
  TraceElement *top;

  g_return_val_if_fail (TRACE_IS_ELEMENT (element), NULL);

  top = get_top (element);
  if (TRACE_IS_PIPELINE (top))
    return trace_pipeline_get_context (TRACE_PIPELINE (top));
  return NULL;
}

/**
 * trace_element_get_bus:
 * @element: a #TraceElement
 *
 * Returns: (transfer none) (nullable): its pipeline's bus
 */
TraceBus *
trace_element_get_bus (TraceElement *element)
{
  TraceElement *top;

  g_return_val_if_fail (TRACE_IS_ELEMENT (element), NULL);

  top = get_top (element);
  if (TRACE_IS_PIPELINE (top))
    return trace_pipeline_get_bus (TRACE_PIPELINE (top));
  return NULL;
}

/**
 * trace_element_post_message:
 * @element: a #TraceElement
 * @message: (transfer full): the message
 *
 * Sends @message up through the bins to the pipeline's bus. Safe from
 * any thread.
 */
void
trace_element_post_message (TraceElement *element,
                            TraceMessage *message)
{
  g_return_if_fail (TRACE_IS_ELEMENT (element));
  g_return_if_fail (message != NULL);

  TRACE_ELEMENT_GET_CLASS (element)->handle_message (element, message);
}

/**
 * trace_element_post_error:
 * @element: a #TraceElement
 * @domain: the error domain
 * @code: the error code
 * @location: (nullable): where in the input (`file:line`)
 * @format: printf-style message
 * @...: its arguments
 *
 * Posts an ERROR. With a @location the message reads
 * `file:line: message`, as compilers write it.
 */
void
trace_element_post_error (TraceElement *element,
                          GQuark domain,
                          gint code,
                          const char *location,
                          const char *format,
                          ...)
{
  va_list args;
  g_autoptr (GError) error = NULL;

  g_return_if_fail (TRACE_IS_ELEMENT (element));
  g_return_if_fail (format != NULL);

  va_start (args, format);
  error = g_error_new_valist (domain, code, format, args);
  va_end (args);
  trace_element_post_error_literal (element, error, location);
}

/**
 * trace_element_post_error_literal:
 * @element: a #TraceElement
 * @error: the error
 * @location: (nullable): where in the input
 *
 * Posts @error as an ERROR message.
 */
void
trace_element_post_error_literal (TraceElement *element,
                                  const GError *error,
                                  const char *location)
{
  g_return_if_fail (TRACE_IS_ELEMENT (element));
  g_return_if_fail (error != NULL);

  trace_element_post_message (element,
                              trace_message_new_error (G_OBJECT (element), error, location, NULL));
}

/**
 * trace_element_post_warning:
 * @element: a #TraceElement
 * @location: (nullable): where in the input
 * @format: printf-style message
 * @...: its arguments
 *
 * Posts a WARNING: something went wrong but the output is still usable.
 */
void
trace_element_post_warning (TraceElement *element,
                            const char *location,
                            const char *format,
                            ...)
{
  va_list args;
  g_autoptr (GError) error = NULL;

  g_return_if_fail (TRACE_IS_ELEMENT (element));
  g_return_if_fail (format != NULL);

  va_start (args, format);
  error = g_error_new_valist (TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT, format, args);
  va_end (args);
  trace_element_post_message (element,
                              trace_message_new_warning (G_OBJECT (element), error, location, NULL));
}

/**
 * trace_element_post_info:
 * @element: a #TraceElement
 * @format: printf-style message
 * @...: its arguments
 *
 * Posts an INFO message.
 */
void
trace_element_post_info (TraceElement *element,
                         const char *format,
                         ...)
{
  va_list args;
  g_autofree char *text = NULL;

  g_return_if_fail (TRACE_IS_ELEMENT (element));
  g_return_if_fail (format != NULL);

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  trace_element_post_message (element, trace_message_new_info (G_OBJECT (element), text));
}

/**
 * trace_element_get_stats:
 * @element: a #TraceElement
 *
 * Returns: (transfer full): an `a{sv}` of the element's counters: at
 *   least `events-in`/`events-out` and batches, plus its own (dropped,
 *   skipped lines by reason, …)
 */
GVariant *
trace_element_get_stats (TraceElement *element)
{
  GVariantDict dict;

  g_return_val_if_fail (TRACE_IS_ELEMENT (element), NULL);

  g_variant_dict_init (&dict, NULL);
  TRACE_ELEMENT_GET_CLASS (element)->collect_stats (element, &dict);
  return g_variant_ref_sink (g_variant_dict_end (&dict));
}

/**
 * trace_element_post_stats:
 * @element: a #TraceElement
 *
 * Posts a STATS message with trace_element_get_stats().
 */
void
trace_element_post_stats (TraceElement *element)
{
  g_autoptr (GVariant) stats = NULL;

  g_return_if_fail (TRACE_IS_ELEMENT (element));

  stats = trace_element_get_stats (element);
  trace_element_post_message (element, trace_message_new_stats (G_OBJECT (element), stats));
}

/**
 * trace_element_may_set_property:
 * @element: a #TraceElement
 * @pspec: the property about to be set
 *
 * Whether @pspec may change in the element's current state: any property
 * in NULL; in READY those flagged %TRACE_PARAM_MUTABLE_READY or
 * %TRACE_PARAM_MUTABLE_PLAYING; while PAUSED or PLAYING only those
 * flagged %TRACE_PARAM_MUTABLE_PLAYING. Elements call it first thing in
 * their set_property, so that a change that would not be honoured is
 * refused with a WARNING instead of ignored in silence.
 *
 * Returns: %TRUE when the element should take the value
 */
gboolean
trace_element_may_set_property (TraceElement *element,
                                GParamSpec *pspec)
{
  TraceState state;
  guint needed;

  g_return_val_if_fail (TRACE_IS_ELEMENT (element), FALSE);
  g_return_val_if_fail (G_IS_PARAM_SPEC (pspec), FALSE);

  state = get_state (element);
  if (state == TRACE_STATE_NULL)
    return TRUE;
  needed = state == TRACE_STATE_READY ? TRACE_PARAM_MUTABLE_READY | TRACE_PARAM_MUTABLE_PLAYING
                                      : TRACE_PARAM_MUTABLE_PLAYING;
  if (pspec->flags & needed)
    return TRUE;
  trace_element_post_warning (element, NULL,
                              "property \"%s\" of %s cannot change in state %s: the new value is ignored "
                              "(set it before the pipeline starts)",
                              pspec->name, trace_element_get_name (element), trace_state_to_string (state));
  return FALSE;
}
