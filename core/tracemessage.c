/* tracepipe - bus messages
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"

G_DEFINE_BOXED_TYPE (TraceMessage, trace_message, trace_message_ref, trace_message_unref)

/**
 * trace_message_new:
 * @type: the message type
 * @src: (nullable): the posting object, usually a #TraceElement
 *
 * Returns: (transfer full): an empty message of @type
 */
TraceMessage *
trace_message_new (TraceMessageType type,
                   GObject *src)
{
  TraceMessage *msg;

  g_return_val_if_fail (src == NULL || G_IS_OBJECT (src), NULL);

  msg = g_new0 (TraceMessage, 1);
  msg->ref_count = 1;
  msg->type = type;
  if (src)
    {
      msg->src = g_object_ref (src);
      if (TRACE_IS_ELEMENT (src))
        msg->src_path = trace_element_get_path_string (TRACE_ELEMENT (src));
    }
  return msg;
}

static TraceMessage *
new_with_error (TraceMessageType type,
                GObject *src,
                const GError *error,
                const char *location,
                const char *debug)
{
  TraceMessage *msg = trace_message_new (type, src);

  msg->error = error ? g_error_copy (error) : NULL;
  msg->location = g_strdup (location);
  msg->debug = g_strdup (debug);
  return msg;
}

/**
 * trace_message_new_error:
 * @src: (nullable): the posting object
 * @error: what went wrong
 * @location: (nullable): where in the input
 * @debug: (nullable): details for developers
 *
 * Returns: (transfer full): an ERROR message
 */
TraceMessage *
trace_message_new_error (GObject *src,
                         const GError *error,
                         const char *location,
                         const char *debug)
{
  g_return_val_if_fail (src == NULL || G_IS_OBJECT (src), NULL);
  g_return_val_if_fail (error != NULL, NULL);

  return new_with_error (TRACE_MESSAGE_ERROR, src, error, location, debug);
}

/**
 * trace_message_new_warning:
 * @src: (nullable): the posting object
 * @error: what went wrong
 * @location: (nullable): where in the input
 * @debug: (nullable): details for developers
 *
 * Returns: (transfer full): a WARNING message
 */
TraceMessage *
trace_message_new_warning (GObject *src,
                           const GError *error,
                           const char *location,
                           const char *debug)
{
  g_return_val_if_fail (src == NULL || G_IS_OBJECT (src), NULL);
  g_return_val_if_fail (error != NULL, NULL);

  return new_with_error (TRACE_MESSAGE_WARNING, src, error, location, debug);
}

/**
 * trace_message_new_info:
 * @src: (nullable): the posting object
 * @text: the information
 *
 * Returns: (transfer full): an INFO message
 */
TraceMessage *
trace_message_new_info (GObject *src,
                        const char *text)
{
  g_autoptr (GError) error = NULL;

  g_return_val_if_fail (src == NULL || G_IS_OBJECT (src), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  error = g_error_new_literal (TRACE_CORE_ERROR, TRACE_CORE_ERROR_FAILED, text);
  return new_with_error (TRACE_MESSAGE_INFO, src, error, NULL, NULL);
}

/**
 * trace_message_new_eos:
 * @src: (nullable): the posting object
 *
 * Returns: (transfer full): an EOS message
 */
TraceMessage *
trace_message_new_eos (GObject *src)
{
  g_return_val_if_fail (src == NULL || G_IS_OBJECT (src), NULL);

  return trace_message_new (TRACE_MESSAGE_EOS, src);
}

/**
 * trace_message_new_state_changed:
 * @src: (nullable): the element
 * @old_state: the #TraceState before
 * @new_state: the #TraceState after
 *
 * Returns: (transfer full): a STATE_CHANGED message
 */
TraceMessage *
trace_message_new_state_changed (GObject *src,
                                 gint old_state,
                                 gint new_state)
{
  TraceMessage *msg;

  g_return_val_if_fail (src == NULL || G_IS_OBJECT (src), NULL);

  msg = trace_message_new (TRACE_MESSAGE_STATE_CHANGED, src);
  msg->old_state = old_state;
  msg->new_state = new_state;
  return msg;
}

/**
 * trace_message_new_progress:
 * @src: (nullable): the source
 * @done: bytes read so far
 * @total: bytes in all, 0 when unknown
 *
 * Returns: (transfer full): a PROGRESS message
 */
TraceMessage *
trace_message_new_progress (GObject *src,
                            guint64 done,
                            guint64 total)
{
  TraceMessage *msg;

  g_return_val_if_fail (src == NULL || G_IS_OBJECT (src), NULL);

  msg = trace_message_new (TRACE_MESSAGE_PROGRESS, src);
  msg->done = done;
  msg->total = total;
  return msg;
}

static TraceMessage *
new_with_details (TraceMessageType type,
                  GObject *src,
                  GVariant *details)
{
  TraceMessage *msg = trace_message_new (type, src);

  msg->details = details ? g_variant_ref_sink (details) : NULL;
  return msg;
}

/**
 * trace_message_new_stats:
 * @src: (nullable): the element
 * @details: (transfer floating): an `a{sv}` of counters
 *
 * Returns: (transfer full): a STATS message
 */
TraceMessage *
trace_message_new_stats (GObject *src,
                         GVariant *details)
{
  g_return_val_if_fail (src == NULL || G_IS_OBJECT (src), NULL);
  g_return_val_if_fail (details != NULL, NULL);

  return new_with_details (TRACE_MESSAGE_STATS, src, details);
}

/**
 * trace_message_new_element:
 * @src: (nullable): the element
 * @details: (transfer floating): an `a{sv}` with at least a `name`
 *
 * Returns: (transfer full): an ELEMENT message
 */
TraceMessage *
trace_message_new_element (GObject *src,
                           GVariant *details)
{
  g_return_val_if_fail (src == NULL || G_IS_OBJECT (src), NULL);
  g_return_val_if_fail (details != NULL, NULL);

  return new_with_details (TRACE_MESSAGE_ELEMENT, src, details);
}

/**
 * trace_message_ref:
 * @message: a #TraceMessage
 *
 * Returns: (transfer full): @message
 */
TraceMessage *
trace_message_ref (TraceMessage *message)
{
  g_return_val_if_fail (message != NULL, NULL);

  g_atomic_int_inc (&message->ref_count);
  return message;
}

/**
 * trace_message_unref:
 * @message: (transfer full): a #TraceMessage
 */
void
trace_message_unref (TraceMessage *message)
{
  g_return_if_fail (message != NULL);

  if (!g_atomic_int_dec_and_test (&message->ref_count))
    return;
  g_clear_object (&message->src);
  g_free (message->src_path);
  g_clear_error (&message->error);
  g_free (message->location);
  g_free (message->debug);
  g_clear_pointer (&message->details, g_variant_unref);
  g_free (message);
}

/**
 * trace_message_type_to_string:
 * @type: one #TraceMessageType
 *
 * Returns: its name, such as `error` or `state-changed`
 */
const char *
trace_message_type_to_string (TraceMessageType type)
{
  switch (type)
    {
    case TRACE_MESSAGE_ERROR:
      return "error";
    case TRACE_MESSAGE_WARNING:
      return "warning";
    case TRACE_MESSAGE_INFO:
      return "info";
    case TRACE_MESSAGE_EOS:
      return "eos";
    case TRACE_MESSAGE_STATE_CHANGED:
      return "state-changed";
    case TRACE_MESSAGE_PROGRESS:
      return "progress";
    case TRACE_MESSAGE_STATS:
      return "stats";
    case TRACE_MESSAGE_ELEMENT:
      return "element";
    default:
      return "unknown";
    }
}

/**
 * trace_message_to_string:
 * @message: a #TraceMessage
 *
 * Returns: (transfer full): one line describing the message, for logs and
 *   `trace-launch -m`
 */
char *
trace_message_to_string (TraceMessage *message)
{
  GString *s;

  g_return_val_if_fail (message != NULL, NULL);

  s = g_string_new (NULL);
  g_string_append_printf (s, "%s from %s", trace_message_type_to_string (message->type),
                          message->src_path ? message->src_path : "(none)");
  switch (message->type)
    {
    case TRACE_MESSAGE_ERROR:
    case TRACE_MESSAGE_WARNING:
    case TRACE_MESSAGE_INFO:
      g_string_append (s, ": ");
      if (message->location)
        g_string_append_printf (s, "%s: ", message->location);
      g_string_append (s, message->error ? message->error->message : "");
      break;
    case TRACE_MESSAGE_STATE_CHANGED:
      g_string_append_printf (s, ": %s -> %s", trace_state_to_string (message->old_state),
                              trace_state_to_string (message->new_state));
      break;
    case TRACE_MESSAGE_PROGRESS:
      g_string_append_printf (s, ": %" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT " bytes",
                              message->done, message->total);
      break;
    case TRACE_MESSAGE_STATS:
    case TRACE_MESSAGE_ELEMENT:
      if (message->details)
        {
          g_autofree char *text = g_variant_print (message->details, FALSE);
          g_string_append_printf (s, ": %s", text);
        }
      break;
    default:
      break;
    }
  return g_string_free (s, FALSE);
}
