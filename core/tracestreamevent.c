/* tracepipe - in-band control events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"

G_DEFINE_BOXED_TYPE (TraceStreamEvent, trace_stream_event, trace_stream_event_ref, trace_stream_event_unref)

GType
trace_stream_flags_get_type (void)
{
  static gsize type;
  static const GFlagsValue values[] = {
    { TRACE_STREAM_FLAG_NONE, "TRACE_STREAM_FLAG_NONE", "none" },
    { TRACE_STREAM_FLAG_MAIN_THREADS_NAMED, "TRACE_STREAM_FLAG_MAIN_THREADS_NAMED", "main-threads-named" },
    { TRACE_STREAM_FLAG_JSON_ORDER, "TRACE_STREAM_FLAG_JSON_ORDER", "json-order" },
    { TRACE_STREAM_FLAG_SEQUENCE_ORDER, "TRACE_STREAM_FLAG_SEQUENCE_ORDER", "sequence-order" },
    { TRACE_STREAM_FLAG_TYPED_KERNEL_EVENTS, "TRACE_STREAM_FLAG_TYPED_KERNEL_EVENTS", "typed-kernel-events" },
    { TRACE_STREAM_FLAG_NATIVE_THREAD_TIME, "TRACE_STREAM_FLAG_NATIVE_THREAD_TIME", "native-thread-time" },
    { 0, NULL, NULL },
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_flags_register_static ("TraceStreamFlags", values));
  return type;
}

/**
 * trace_stream_event_new_stream_start:
 * @format: (nullable): the input format; %NULL says `unknown`
 * @location: (nullable): where the stream comes from
 * @domain: the clock of its timestamps
 * @clock_source: (nullable): how @domain was learnt
 *
 * Returns: (transfer full): a stream-start event
 */
TraceStreamEvent *
trace_stream_event_new_stream_start (const char *format,
                                     const char *location,
                                     TraceClockDomain domain,
                                     const char *clock_source)
{
  TraceStreamEvent *event = g_new0 (TraceStreamEvent, 1);

  event->ref_count = 1;
  event->type = TRACE_STREAM_EVENT_STREAM_START;
  event->info.format = g_strdup (format ? format : "unknown");
  event->info.location = g_strdup (location);
  event->info.clock_domain = domain;
  event->info.clock_source = g_strdup (clock_source);
  return event;
}

/**
 * trace_stream_event_new_eos:
 *
 * Returns: (transfer full): an EOS event
 */
TraceStreamEvent *
trace_stream_event_new_eos (void)
{
  TraceStreamEvent *event = g_new0 (TraceStreamEvent, 1);

  event->ref_count = 1;
  event->type = TRACE_STREAM_EVENT_EOS;
  return event;
}

/**
 * trace_stream_event_ref:
 * @event: a #TraceStreamEvent
 *
 * Returns: (transfer full): @event
 */
TraceStreamEvent *
trace_stream_event_ref (TraceStreamEvent *event)
{
  g_return_val_if_fail (event != NULL, NULL);

  g_atomic_int_inc (&event->ref_count);
  return event;
}

/**
 * trace_stream_event_unref:
 * @event: (transfer full): a #TraceStreamEvent
 */
void
trace_stream_event_unref (TraceStreamEvent *event)
{
  g_return_if_fail (event != NULL);

  if (!g_atomic_int_dec_and_test (&event->ref_count))
    return;
  g_free (event->info.format);
  g_free (event->info.location);
  g_free (event->info.clock_source);
  g_free (event->info.metadata);
  g_free (event);
}

/**
 * trace_stream_event_type_to_string:
 * @type: a #TraceStreamEventType
 *
 * Returns: `stream-start` or `eos`
 */
const char *
trace_stream_event_type_to_string (TraceStreamEventType type)
{
  switch (type)
    {
    case TRACE_STREAM_EVENT_STREAM_START:
      return "stream-start";
    case TRACE_STREAM_EVENT_EOS:
      return "eos";
    }
  return "unknown";
}
