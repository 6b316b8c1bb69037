/* tracepipe - base class for sinks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "trace-private.h"

typedef struct
{
  TracePad *sinkpad;
  TraceStreamInfo info;
  gboolean have_info;
  gint failed; /* atomic: set by the writer thread too */
  guint64 events;
  gboolean threaded;       /* render on a thread of our own */
  TraceSinkThread *thread; /* from READY -> PLAYING (stopped at PLAYING -> READY) to READY -> NULL */
} TraceBaseSinkPrivate;

/* Batches waiting for the writer thread: enough to keep it busy while
 * the source fills the next; every one more is a batch of events with
 * their args held (~1-2 MiB on Chrome JSON with args: 4 cost 8 MiB of
 * peak RSS there, docs/performance.md). */
#define RENDER_THREAD_MAX_BATCHES 2

static const TraceStaticPadTemplate sink_template =
    TRACE_STATIC_PAD_TEMPLATE ("sink", TRACE_PAD_SINK, TRACE_PAD_ALWAYS, TRACE_MEDIA_TYPE_EVENTS);

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TraceBaseSink, trace_base_sink, TRACE_TYPE_ELEMENT)

#define PRIV(s) ((TraceBaseSinkPrivate *) trace_base_sink_get_instance_private (s))

static void
post_failure (TraceBaseSink *self,
              GError *error)
{
  g_atomic_int_set (&PRIV (self)->failed, TRUE);
  if (error == NULL)
    {
      trace_element_post_error (TRACE_ELEMENT (self), TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FAILED, NULL,
                                "the sink failed without saying why");
      return;
    }
  if (TRACE_BASE_SINK_GET_CLASS (self)->explain_error)
    TRACE_BASE_SINK_GET_CLASS (self)->explain_error (self, error);
  trace_element_post_error_literal (TRACE_ELEMENT (self), error, NULL);
  g_error_free (error);
}

static GQuark
keeps_arg_shape_quark (void)
{
  return g_quark_from_static_string ("trace-base-sink-keeps-arg-shape");
}

/**
 * trace_base_sink_class_set_keeps_arg_shape:
 * @klass: a sink class
 * @keeps: whether its render() is given the value-less args
 *   (%TRACE_ARG_NULL, %TRACE_ARG_EMPTY_ARRAY, %TRACE_ARG_EMPTY_OBJECT)
 *
 * By default a sink never sees them: a sink written before they existed
 * would take them for strings.  A sink that can write a JSON args object
 * back as it was (json-sink) asks for them.
 */
void
trace_base_sink_class_set_keeps_arg_shape (TraceBaseSinkClass *klass,
                                           gboolean keeps)
{
  g_return_if_fail (TRACE_IS_BASE_SINK_CLASS (klass));

  g_type_set_qdata (G_TYPE_FROM_CLASS (klass), keeps_arg_shape_quark (), GINT_TO_POINTER (keeps));
}

static GQuark
reads_arg_text_quark (void)
{
  return g_quark_from_static_string ("trace-base-sink-reads-arg-text");
}

/**
 * trace_base_sink_class_set_reads_arg_text:
 * @klass: a sink class
 * @reads: whether its render() is given %TRACE_ARG_TEXT args as they are
 *
 * By default a sink sees every string arg interned (%TRACE_ARG_STRING):
 * a sink written before text args existed would take their value for a
 * pool id. A sink that reads string values through
 * trace_batch_get_arg_string(), and keeps none past its batch, asks for
 * them as they are: interning a value seen once only makes the
 * pipeline's string pool grow with the input.
 */
void
trace_base_sink_class_set_reads_arg_text (TraceBaseSinkClass *klass,
                                          gboolean reads)
{
  g_return_if_fail (TRACE_IS_BASE_SINK_CLASS (klass));

  g_type_set_qdata (G_TYPE_FROM_CLASS (klass), reads_arg_text_quark (), GINT_TO_POINTER (reads));
}

/* Renders @batch (taken) on whichever thread renders; posts the error. */
static TraceFlowReturn
render_batch (TraceBaseSink *self,
              TraceBatch *batch)
{
  TraceBaseSinkClass *klass = TRACE_BASE_SINK_GET_CLASS (self);
  g_autoptr (GError) error = NULL;
  TraceFlowReturn ret = TRACE_FLOW_OK;

  if (!g_type_get_qdata (G_TYPE_FROM_CLASS (klass), keeps_arg_shape_quark ()))
    batch = trace_batch_drop_shape_args (batch);
  if (!g_type_get_qdata (G_TYPE_FROM_CLASS (klass), reads_arg_text_quark ()))
    batch = trace_batch_intern_text_args (batch);
  if (klass->render)
    ret = klass->render (self, batch, &error);
  trace_batch_unref (batch);
  if (ret == TRACE_FLOW_ERROR)
    post_failure (self, g_steal_pointer (&error));
  return ret;
}

static TraceFlowReturn
trace_base_sink_chain (TracePad *pad,
                       TraceElement *parent,
                       TraceBatch *batch)
{
  TraceBaseSink *self = TRACE_BASE_SINK (parent);
  TraceBaseSinkPrivate *priv = PRIV (self);

  if (g_atomic_int_get (&priv->failed))
    {
      trace_batch_unref (batch);
      return TRACE_FLOW_ERROR;
    }
  priv->events += batch->n_events;
  if (priv->thread)
    return _trace_sink_thread_push (priv->thread, batch);
  return render_batch (self, batch);
}

static gboolean
trace_base_sink_ready (TracePad *pad,
                       TraceElement *parent)
{
  TraceBaseSinkPrivate *priv = PRIV (TRACE_BASE_SINK (parent));

  return priv->thread == NULL || _trace_sink_thread_is_ready (priv->thread);
}

/* The writer thread is started with the flow, so that a sink that fails
 * to start never had one; without a thread, render() runs in the
 * pushing thread as before. */
static gboolean
start_render_thread (TraceBaseSink *self)
{
  TraceBaseSinkPrivate *priv = PRIV (self);
  g_autoptr (GError) error = NULL;

  /* one stopped at the last PLAYING -> READY */
  g_clear_pointer (&priv->thread, _trace_sink_thread_free);
  if (!priv->threaded)
    return TRUE;
  priv->thread = _trace_sink_thread_new (self, render_batch, RENDER_THREAD_MAX_BATCHES, &error);
  if (priv->thread == NULL)
    {
      trace_element_post_error (TRACE_ELEMENT (self), TRACE_CORE_ERROR, TRACE_CORE_ERROR_STATE_CHANGE, NULL,
                                "could not start the sink's writer thread: %s", error->message);
      return FALSE;
    }
  return TRUE;
}

static void
store_info (TraceBaseSink *self,
            const TraceStreamInfo *info)
{
  TraceBaseSinkPrivate *priv = PRIV (self);

  g_free (priv->info.format);
  g_free (priv->info.location);
  g_free (priv->info.clock_source);
  g_free (priv->info.metadata);
  priv->info.format = g_strdup (info->format);
  priv->info.location = g_strdup (info->location);
  priv->info.clock_domain = info->clock_domain;
  priv->info.clock_source = g_strdup (info->clock_source);
  priv->info.metadata = g_strdup (info->metadata);
  priv->info.flags = info->flags;
  priv->have_info = TRUE;
}

static gboolean
trace_base_sink_event (TracePad *pad,
                       TraceElement *parent,
                       TraceStreamEvent *event)
{
  TraceBaseSink *self = TRACE_BASE_SINK (parent);
  TraceBaseSinkClass *klass = TRACE_BASE_SINK_GET_CLASS (self);
  g_autoptr (GError) error = NULL;

  /* Events keep their place between batches: what was handed to the
   * writer thread is rendered before the sink hears of the event. */
  if (PRIV (self)->thread)
    _trace_sink_thread_drain (PRIV (self)->thread);
  if (event->type == TRACE_STREAM_EVENT_STREAM_START)
    {
      store_info (self, &event->info);
      if (klass->stream_start)
        klass->stream_start (self, &event->info);
    }
  else if (event->type == TRACE_STREAM_EVENT_EOS && !g_atomic_int_get (&PRIV (self)->failed))
    {
      if (klass->finish && !klass->finish (self, &error))
        post_failure (self, g_steal_pointer (&error));
      else
        {
          trace_element_post_stats (parent);
          trace_element_post_message (parent, trace_message_new_eos (G_OBJECT (parent)));
        }
    }
  trace_stream_event_unref (event);
  return TRUE;
}

static TraceStateChangeReturn
trace_base_sink_change_state (TraceElement *element,
                              TraceStateChange transition)
{
  TraceBaseSink *self = TRACE_BASE_SINK (element);
  TraceBaseSinkClass *klass = TRACE_BASE_SINK_GET_CLASS (self);
  g_autoptr (GError) error = NULL;

  if (transition == TRACE_STATE_CHANGE_NULL_TO_READY)
    {
      g_atomic_int_set (&PRIV (self)->failed, FALSE);
      PRIV (self)->events = 0;
      if (klass->start && !klass->start (self, &error))
        {
          post_failure (self, g_steal_pointer (&error));
          return TRACE_STATE_CHANGE_FAILURE;
        }
    }
  else if (transition == TRACE_STATE_CHANGE_READY_TO_PLAYING && !start_render_thread (self))
    return TRACE_STATE_CHANGE_FAILURE;
  else if (transition == TRACE_STATE_CHANGE_PLAYING_TO_READY && PRIV (self)->thread)
    _trace_sink_thread_stop (PRIV (self)->thread);
  else if (transition == TRACE_STATE_CHANGE_READY_TO_NULL)
    {
      /* upstream threads were stopped at their PLAYING -> READY */
      g_clear_pointer (&PRIV (self)->thread, _trace_sink_thread_free);
      if (klass->stop)
        klass->stop (self, NULL);
    }
  return TRACE_ELEMENT_CLASS (trace_base_sink_parent_class)->change_state (element, transition);
}

/* Before the subclass frees what render() uses. */
static void
trace_base_sink_dispose (GObject *object)
{
  g_clear_pointer (&PRIV (TRACE_BASE_SINK (object))->thread, _trace_sink_thread_free);
  G_OBJECT_CLASS (trace_base_sink_parent_class)->dispose (object);
}

static void
trace_base_sink_finalize (GObject *object)
{
  TraceBaseSinkPrivate *priv = PRIV (TRACE_BASE_SINK (object));

  g_free (priv->info.format);
  g_free (priv->info.location);
  g_free (priv->info.clock_source);
  g_free (priv->info.metadata);
  G_OBJECT_CLASS (trace_base_sink_parent_class)->finalize (object);
}

static void
trace_base_sink_class_init (TraceBaseSinkClass *klass)
{
  TraceElementClass *element_class = TRACE_ELEMENT_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = trace_base_sink_dispose;
  G_OBJECT_CLASS (klass)->finalize = trace_base_sink_finalize;
  element_class->change_state = trace_base_sink_change_state;
  trace_element_class_add_static_pad_template (element_class, &sink_template);
}

static void
trace_base_sink_init (TraceBaseSink *self)
{
  TraceElementClass *klass = TRACE_ELEMENT_GET_CLASS (self);
  TraceBaseSinkPrivate *priv = PRIV (self);

  priv->sinkpad = trace_pad_new_from_template (trace_element_class_get_pad_template (klass, "sink"), "sink");
  trace_pad_set_chain_function (priv->sinkpad, trace_base_sink_chain);
  trace_pad_set_event_function (priv->sinkpad, trace_base_sink_event);
  trace_pad_set_ready_function (priv->sinkpad, trace_base_sink_ready);
  trace_element_add_pad (TRACE_ELEMENT (self), priv->sinkpad);
}

/**
 * trace_base_sink_get_events_rendered:
 * @sink: a #TraceBaseSink
 *
 * Returns: how many events it received
 */
guint64
trace_base_sink_get_events_rendered (TraceBaseSink *sink)
{
  g_return_val_if_fail (TRACE_IS_BASE_SINK (sink), 0);

  return PRIV (sink)->events;
}

/**
 * trace_base_sink_get_stream_info:
 * @sink: a #TraceBaseSink
 *
 * Returns: (nullable): the last stream-start's description
 */
const TraceStreamInfo *
trace_base_sink_get_stream_info (TraceBaseSink *sink)
{
  g_return_val_if_fail (TRACE_IS_BASE_SINK (sink), NULL);

  return PRIV (sink)->have_info ? &PRIV (sink)->info : NULL;
}

/**
 * trace_base_sink_report_drops:
 * @sink: a #TraceBaseSink
 * @drops: (array length=n_drops): every reason the sink can drop for,
 *   with its count (those at 0 are left out)
 * @n_drops: how many
 *
 * Posts one WARNING naming every reason with its count, after the name
 * of the output (#TraceBaseSinkClass.get_output_name: a #TraceFileSink
 * names its file), as in `out.pftrace: dropped 3 events: slice ends
 * without an open slice: 2; clock markers with nothing to map to: 1`, or
 * nothing when no event was dropped. The reasons are plural nouns and
 * the count follows, so the text reads right for any count. Sinks call
 * it once, at the end of their `finish` (a #TraceFileSink does it for
 * its writer's drops), so it comes before their STATS: a user who reads
 * only the warnings still learns that the output lacks events, and why.
 */
void
trace_base_sink_report_drops (TraceBaseSink *sink,
                              const TraceSinkDrop *drops,
                              guint n_drops)
{
  g_autoptr (GString) reasons = g_string_new (NULL);
  const char *location = NULL;
  guint64 total = 0;

  g_return_if_fail (TRACE_IS_BASE_SINK (sink));
  g_return_if_fail (drops != NULL || n_drops == 0);

  for (guint i = 0; i < n_drops; i++)
    {
      if (drops[i].count == 0)
        continue;
      total += drops[i].count;
      g_string_append_printf (reasons, "%s%s: %" G_GUINT64_FORMAT, reasons->len ? "; " : "", drops[i].what,
                              drops[i].count);
    }
  if (total == 0)
    return;
  if (TRACE_BASE_SINK_GET_CLASS (sink)->get_output_name)
    location = TRACE_BASE_SINK_GET_CLASS (sink)->get_output_name (sink);
  trace_element_post_warning (TRACE_ELEMENT (sink), NULL, "%s%sdropped %" G_GUINT64_FORMAT " event%s: %s",
                              location ? location : "", location ? ": " : "", total, total == 1 ? "" : "s",
                              reasons->str);
}

/**
 * trace_base_sink_add_drop_stats:
 * @dict: the element's stats
 * @drops: (array length=n_drops): the reasons with their counts
 * @n_drops: how many
 *
 * Adds `dropped` (the total) and `dropped-KEY` for every reason with a
 * count, the keys of the WARNING trace_base_sink_report_drops() posts.
 */
void
trace_base_sink_add_drop_stats (GVariantDict *dict,
                                const TraceSinkDrop *drops,
                                guint n_drops)
{
  guint64 total = 0;

  g_return_if_fail (dict != NULL);
  g_return_if_fail (drops != NULL || n_drops == 0);

  for (guint i = 0; i < n_drops; i++)
    {
      g_autofree char *key = NULL;

      if (drops[i].count == 0)
        continue;
      total += drops[i].count;
      key = g_strdup_printf ("dropped-%s", drops[i].key);
      g_variant_dict_insert (dict, key, "t", drops[i].count);
    }
  if (total)
    g_variant_dict_insert (dict, "dropped", "t", total);
}

/**
 * trace_base_sink_handle_drops:
 * @sink: a #TraceBaseSink
 * @dict: (nullable): the element's stats, or %NULL for the WARNING
 * @drops: (array length=n_drops): the reasons with their counts
 * @n_drops: how many
 *
 * With @dict, adds the drops to the stats (trace_base_sink_add_drop_stats());
 * without, posts the WARNING (trace_base_sink_report_drops()). A sink
 * names its reasons once, in one function that fills @drops from its
 * writer's counters and calls this, from its `collect_stats` with the
 * dict and at the end of its output without: the stats and the WARNING
 * then always say the same.
 */
void
trace_base_sink_handle_drops (TraceBaseSink *sink,
                              GVariantDict *dict,
                              const TraceSinkDrop *drops,
                              guint n_drops)
{
  g_return_if_fail (TRACE_IS_BASE_SINK (sink));
  g_return_if_fail (drops != NULL || n_drops == 0);

  if (dict)
    trace_base_sink_add_drop_stats (dict, drops, n_drops);
  else
    trace_base_sink_report_drops (sink, drops, n_drops);
}

void
_trace_base_sink_set_render_thread (TraceBaseSink *sink,
                                    gboolean threaded)
{
  g_return_if_fail (TRACE_IS_BASE_SINK (sink));

  PRIV (sink)->threaded = threaded;
}
