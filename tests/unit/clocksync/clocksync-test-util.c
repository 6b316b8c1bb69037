/* Helpers of the clock-sync element tests. */
#include "clocksync-test-util.h"

/* A clock-sync made by its factory (so from the plugin as installed),
 * with @n_inputs request pads fed by the harness. */
TraceHarness *
cs_harness_new (guint n_inputs,
                const char *first_property,
                ...)
{
  TraceElement *element = trace_element_factory_make ("clock-sync", "sync");
  TraceHarness *h;
  va_list args;

  g_assert_nonnull (element);
  va_start (args, first_property);
  if (first_property)
    g_object_set_valist (G_OBJECT (element), first_property, args);
  va_end (args);
  h = trace_harness_new_with_element (element, NULL, "src");
  for (guint i = 0; i < n_inputs; i++)
    trace_harness_add_input (h, "sink_%u");
  return h;
}

/* The harness plays the element on the first push, and NULL→READY
 * forgets what pads were told: a stream-start is sent once playing. */
void
cs_stream_start (TraceHarness *h,
                 guint input,
                 const char *format,
                 TraceClockDomain domain)
{
  if (trace_element_get_state (trace_harness_get_element (h)) != TRACE_STATE_PLAYING)
    g_assert_true (trace_harness_play (h));
  trace_harness_set_stream_start (h, input, format, domain);
}

TracePad *
cs_pad (TraceHarness *h,
        const char *name)
{
  TracePad *pad = trace_element_get_static_pad (trace_harness_get_element (h), name);

  g_assert_nonnull (pad);
  return pad;
}

/* One batch with one 1 ms slice of @pid at @ts. */
TraceBatch *
cs_slices (TraceStringPool *pool,
           gint64 pid,
           gint64 ts)
{
  TraceBatch *batch = trace_batch_new (pool, 1);

  cs_add_slice (batch, pid, ts, 1000000);
  return batch;
}

TraceEvent *
cs_add_slice (TraceBatch *batch,
              gint64 pid,
              gint64 ts,
              gint64 dur)
{
  TraceEvent *ev = trace_batch_append (batch, TRACE_EVENT_SLICE_COMPLETE, ts);

  ev->pid = ev->tid = pid;
  ev->name = trace_string_pool_intern (batch->pool, "work");
  ev->u.slice.dur = dur;
  return ev;
}

void
cs_add_process_name (TraceBatch *batch,
                     gint64 pid,
                     const char *name)
{
  TraceEvent *ev = trace_batch_append (batch, TRACE_EVENT_PROCESS_NAME, 0);

  ev->pid = pid;
  ev->name = trace_string_pool_intern (batch->pool, name);
}

TraceEvent *
cs_add_pair (TraceBatch *batch,
             TraceClockMarkerKind kind,
             gint64 ts,
             TraceClockDomain domain,
             gint64 other_ts)
{
  TraceEvent *ev = trace_batch_append (batch, TRACE_EVENT_CLOCK_MARKER, ts);

  ev->u.clock.marker = kind;
  ev->u.clock.domain = domain;
  ev->u.clock.other_ts = other_ts;
  return ev;
}

TraceEvent *
cs_add_sync (TraceBatch *batch,
             const char *sync_id,
             gint64 ts,
             gint64 issue_ts)
{
  TraceEvent *ev = trace_batch_append (batch, TRACE_EVENT_CLOCK_MARKER, ts);

  ev->u.clock.marker = TRACE_CLOCK_MARKER_SYNC_ID;
  ev->u.clock.sync_id = trace_string_pool_intern (batch->pool, sync_id);
  ev->u.clock.issue_ts = issue_ts;
  return ev;
}

/* The @nth event (from 0) of @kind and @pid; any pid for TRACE_ID_UNKNOWN. */
const TraceEvent *
cs_find (TraceBatch *all,
         TraceEventKind kind,
         gint64 pid,
         guint nth)
{
  for (guint i = 0; i < all->n_events; i++)
    if (all->events[i].kind == kind && (pid == TRACE_ID_UNKNOWN || all->events[i].pid == pid) && nth-- == 0)
      return &all->events[i];
  return NULL;
}

/* The bus drops the messages a filtered pop skips over: every message is
 * taken at once, in order, and looked through afterwards. */
GPtrArray *
cs_collect (TraceHarness *h)
{
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify) trace_message_unref);
  TraceMessage *msg;

  while ((msg = trace_harness_pop_message (h, TRACE_MESSAGE_ANY)) != NULL)
    g_ptr_array_add (all, msg);
  return all;
}

/* The details of the ELEMENT message that says what was decided for @pad. */
GVariant *
cs_decision (GPtrArray *messages,
             const char *pad)
{
  for (guint i = 0; i < messages->len; i++)
    {
      TraceMessage *msg = g_ptr_array_index (messages, i);
      const char *name = NULL, *which = NULL;

      if (msg->type == TRACE_MESSAGE_ELEMENT && msg->details &&
          g_variant_lookup (msg->details, "name", "&s", &name) && g_str_equal (name, "clock-sync") &&
          g_variant_lookup (msg->details, "pad", "&s", &which) && g_str_equal (which, pad))
        return g_variant_ref (msg->details);
    }
  return NULL;
}

/* The texts of the messages of @type (WARNING, INFO, ERROR). */
GPtrArray *
cs_texts (GPtrArray *messages,
          TraceMessageType type)
{
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < messages->len; i++)
    {
      TraceMessage *msg = g_ptr_array_index (messages, i);

      if (msg->type == type)
        g_ptr_array_add (texts, g_strdup (msg->error ? msg->error->message : ""));
    }
  return texts;
}

gboolean
cs_texts_contain (GPtrArray *texts,
                  const char *text)
{
  for (guint i = 0; i < texts->len; i++)
    if (g_str_equal (g_ptr_array_index (texts, i), text))
      return TRUE;
  for (guint i = 0; i < texts->len; i++)
    g_test_message ("posted: %s", (const char *) g_ptr_array_index (texts, i));
  return FALSE;
}
