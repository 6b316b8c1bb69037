/* tracepipe - base class for sources
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "trace-private.h"

/* At most this many PROGRESS messages a second: a terminal redraws no
 * faster, and the bus stays cheap. */
#define PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 10)

typedef struct
{
  TracePad *srcpad;
  GSource *source;
  gint eos_requested;
  gboolean stream_started;
  gboolean done;
  TraceStreamEvent *stream_start;
  char *metadata;         /* TraceStreamInfo.metadata of the stream-starts */
  TraceStreamFlags flags; /* TraceStreamInfo.flags of the stream-starts */
  guint64 events;
  gint64 last_progress;
  guint64 last_done;
} TraceBaseSrcPrivate;

typedef struct
{
  GSource source;
  TraceBaseSrc *src; /* not owned: the element destroys the source first */
} SrcSource;

static const TraceStaticPadTemplate src_template =
    TRACE_STATIC_PAD_TEMPLATE ("src", TRACE_PAD_SRC, TRACE_PAD_ALWAYS, TRACE_MEDIA_TYPE_EVENTS);

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TraceBaseSrc, trace_base_src, TRACE_TYPE_ELEMENT)

#define PRIV(s) ((TraceBaseSrcPrivate *) trace_base_src_get_instance_private (s))

static gboolean
src_is_ready (TraceBaseSrc *self)
{
  TraceBaseSrcPrivate *priv = PRIV (self);

  if (priv->done)
    return FALSE;
  return g_atomic_int_get (&priv->eos_requested) || trace_pad_peer_is_ready (priv->srcpad);
}

static gboolean
src_source_prepare (GSource *source,
                    gint *timeout)
{
  *timeout = -1;
  return src_is_ready (((SrcSource *) source)->src);
}

static gboolean
src_source_check (GSource *source)
{
  return src_is_ready (((SrcSource *) source)->src);
}

static void
send_stream_start (TraceBaseSrc *self)
{
  TraceBaseSrcPrivate *priv = PRIV (self);

  if (priv->stream_start == NULL)
    priv->stream_start = trace_stream_event_new_stream_start ("unknown", NULL, TRACE_CLOCK_UNKNOWN, NULL);
  trace_pad_push_event (priv->srcpad, trace_stream_event_ref (priv->stream_start));
  priv->stream_started = TRUE;
}

static void
finish_stream (TraceBaseSrc *self)
{
  TraceBaseSrcPrivate *priv = PRIV (self);
  TraceBaseSrcClass *klass = TRACE_BASE_SRC_GET_CLASS (self);

  if (!priv->stream_started)
    send_stream_start (self);
  priv->done = TRUE;
  if (klass->finish)
    klass->finish (self);
  trace_element_post_stats (TRACE_ELEMENT (self));
  trace_pad_push_event (priv->srcpad, trace_stream_event_new_eos ());
}

static gboolean
handle_push_result (TraceBaseSrc *self,
                    TraceFlowReturn ret)
{
  switch (ret)
    {
    case TRACE_FLOW_OK:
      return TRUE;
    case TRACE_FLOW_EOS:
      /* Downstream wants no more: end cleanly. */
      finish_stream (self);
      return FALSE;
    case TRACE_FLOW_NOT_LINKED:
      PRIV (self)->done = TRUE;
      trace_element_post_error (TRACE_ELEMENT (self), TRACE_CORE_ERROR, TRACE_CORE_ERROR_NOT_LINKED, NULL,
                                "streaming stopped: the src pad is not linked");
      return FALSE;
    case TRACE_FLOW_ERROR:
    default:
      /* The element that failed posted the error. */
      PRIV (self)->done = TRUE;
      return FALSE;
    }
}

static gboolean
src_source_dispatch (GSource *source,
                     GSourceFunc callback,
                     gpointer user_data)
{
  TraceBaseSrc *self = ((SrcSource *) source)->src;
  TraceBaseSrcPrivate *priv = PRIV (self);
  TraceBatch *batch = NULL;
  g_autoptr (GError) error = NULL;
  TraceFlowReturn ret;

  if (g_atomic_int_get (&priv->eos_requested))
    {
      finish_stream (self);
      return G_SOURCE_REMOVE;
    }
  ret = TRACE_BASE_SRC_GET_CLASS (self)->create (self, &batch, &error);
  /* After the first create: a reader knows its format and clock by then. */
  if (!priv->stream_started)
    send_stream_start (self);
  if (ret == TRACE_FLOW_OK && batch != NULL)
    {
      priv->events += batch->n_events;
      if (batch->n_events == 0)
        trace_batch_unref (batch);
      else if (!handle_push_result (self, trace_pad_push (priv->srcpad, batch)))
        return G_SOURCE_REMOVE;
      return G_SOURCE_CONTINUE;
    }
  if (batch)
    trace_batch_unref (batch);
  if (ret == TRACE_FLOW_EOS)
    {
      finish_stream (self);
      return G_SOURCE_REMOVE;
    }
  priv->done = TRUE;
  if (error)
    trace_element_post_error_literal (TRACE_ELEMENT (self), error, NULL);
  else if (ret != TRACE_FLOW_OK)
    trace_element_post_error (TRACE_ELEMENT (self), TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FAILED, NULL,
                              "streaming stopped, reason %s", trace_flow_return_to_string (ret));
  return G_SOURCE_REMOVE;
}

static GSourceFuncs src_source_funcs = {
  .prepare = src_source_prepare,
  .check = src_source_check,
  .dispatch = src_source_dispatch,
};

static void
start_scheduling (TraceBaseSrc *self)
{
  TraceBaseSrcPrivate *priv = PRIV (self);
  g_autofree char *name = g_strdup_printf ("%s streaming", trace_element_get_name (TRACE_ELEMENT (self)));

  priv->source = g_source_new (&src_source_funcs, sizeof (SrcSource));
  ((SrcSource *) priv->source)->src = self;
  g_source_set_name (priv->source, name);
  g_source_attach (priv->source, trace_element_get_main_context (TRACE_ELEMENT (self)));
}

static void
stop_scheduling (TraceBaseSrc *self)
{
  TraceBaseSrcPrivate *priv = PRIV (self);

  if (priv->source)
    {
      g_source_destroy (priv->source);
      g_clear_pointer (&priv->source, g_source_unref);
    }
}

static TraceStateChangeReturn
start_or_stop (TraceBaseSrc *self,
               gboolean start)
{
  TraceBaseSrcClass *klass = TRACE_BASE_SRC_GET_CLASS (self);
  g_autoptr (GError) error = NULL;
  gboolean ok = TRUE;

  if (start && klass->start)
    ok = klass->start (self, &error);
  else if (!start && klass->stop)
    ok = klass->stop (self, &error);
  if (!ok)
    {
      if (error)
        trace_element_post_error_literal (TRACE_ELEMENT (self), error, NULL);
      return TRACE_STATE_CHANGE_FAILURE;
    }
  return TRACE_STATE_CHANGE_SUCCESS;
}

static TraceStateChangeReturn
trace_base_src_change_state (TraceElement *element,
                             TraceStateChange transition)
{
  TraceBaseSrc *self = TRACE_BASE_SRC (element);
  TraceBaseSrcPrivate *priv = PRIV (self);

  switch (transition)
    {
    case TRACE_STATE_CHANGE_NULL_TO_READY:
      priv->done = priv->stream_started = FALSE;
      priv->events = 0;
      priv->last_progress = 0;
      priv->last_done = 0;
      g_atomic_int_set (&priv->eos_requested, 0);
      if (start_or_stop (self, TRUE) == TRACE_STATE_CHANGE_FAILURE)
        return TRACE_STATE_CHANGE_FAILURE;
      break;
    case TRACE_STATE_CHANGE_READY_TO_PLAYING:
      start_scheduling (self);
      break;
    case TRACE_STATE_CHANGE_PLAYING_TO_READY:
      stop_scheduling (self);
      break;
    case TRACE_STATE_CHANGE_READY_TO_NULL:
      start_or_stop (self, FALSE);
      g_clear_pointer (&priv->stream_start, trace_stream_event_unref);
      g_clear_pointer (&priv->metadata, g_free);
      priv->flags = TRACE_STREAM_FLAG_NONE;
      break;
    }
  return TRACE_ELEMENT_CLASS (trace_base_src_parent_class)->change_state (element, transition);
}

static void
trace_base_src_send_eos (TraceElement *element)
{
  TraceBaseSrcPrivate *priv = PRIV (TRACE_BASE_SRC (element));

  g_atomic_int_set (&priv->eos_requested, 1);
  g_main_context_wakeup (trace_element_get_main_context (element));
}

static void
trace_base_src_collect_stats (TraceElement *element,
                              GVariantDict *stats)
{
  TRACE_ELEMENT_CLASS (trace_base_src_parent_class)->collect_stats (element, stats);
  g_variant_dict_insert (stats, "events-produced", "t", PRIV (TRACE_BASE_SRC (element))->events);
}

static void
trace_base_src_dispose (GObject *object)
{
  stop_scheduling (TRACE_BASE_SRC (object));
  G_OBJECT_CLASS (trace_base_src_parent_class)->dispose (object);
}

static void
trace_base_src_finalize (GObject *object)
{
  TraceBaseSrcPrivate *priv = PRIV (TRACE_BASE_SRC (object));

  g_clear_pointer (&priv->stream_start, trace_stream_event_unref);
  g_clear_pointer (&priv->metadata, g_free);
  G_OBJECT_CLASS (trace_base_src_parent_class)->finalize (object);
}

static void
trace_base_src_class_init (TraceBaseSrcClass *klass)
{
  TraceElementClass *element_class = TRACE_ELEMENT_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = trace_base_src_dispose;
  G_OBJECT_CLASS (klass)->finalize = trace_base_src_finalize;
  element_class->change_state = trace_base_src_change_state;
  element_class->send_eos = trace_base_src_send_eos;
  element_class->collect_stats = trace_base_src_collect_stats;
  trace_element_class_add_static_pad_template (element_class, &src_template);
}

static void
trace_base_src_init (TraceBaseSrc *self)
{
  TraceElementClass *klass = TRACE_ELEMENT_GET_CLASS (self);
  TracePadTemplate *templ = trace_element_class_get_pad_template (klass, "src");

  PRIV (self)->srcpad = trace_pad_new_from_template (templ, "src");
  trace_element_add_pad (TRACE_ELEMENT (self), PRIV (self)->srcpad);
}

/**
 * trace_base_src_new_batch:
 * @src: a #TraceBaseSrc
 *
 * Returns: (transfer full): an empty batch in the pipeline's string pool
 */
TraceBatch *
trace_base_src_new_batch (TraceBaseSrc *src)
{
  g_return_val_if_fail (TRACE_IS_BASE_SRC (src), NULL);

  return trace_batch_new (trace_element_get_string_pool (TRACE_ELEMENT (src)), 0);
}

/**
 * trace_base_src_push_batch:
 * @src: a #TraceBaseSrc
 * @batch: (transfer full): events to push now, outside create (in
 *   finish, for example)
 *
 * Returns: what downstream returned
 */
TraceFlowReturn
trace_base_src_push_batch (TraceBaseSrc *src,
                           TraceBatch *batch)
{
  TraceBaseSrcPrivate *priv;

  g_return_val_if_fail (TRACE_IS_BASE_SRC (src), TRACE_FLOW_ERROR);
  g_return_val_if_fail (batch != NULL, TRACE_FLOW_ERROR);

  priv = PRIV (src);

  if (!priv->stream_started)
    send_stream_start (src);
  priv->events += batch->n_events;
  return trace_pad_push (priv->srcpad, batch);
}

/**
 * trace_base_src_set_stream_info:
 * @src: a #TraceBaseSrc
 * @format: (nullable): the input's format; %NULL says `unknown`
 * @location: (nullable): where it comes from
 * @domain: its clock domain
 * @clock_source: (nullable): how the domain was learnt
 *
 * Describes the stream. Before the first batch it becomes the
 * stream-start; later (a clock domain found at the end of a JSON file)
 * it is sent again at once, replacing the sticky one.
 */
void
trace_base_src_set_stream_info (TraceBaseSrc *src,
                                const char *format,
                                const char *location,
                                TraceClockDomain domain,
                                const char *clock_source)
{
  TraceBaseSrcPrivate *priv;
  TraceStreamEvent *old;

  g_return_if_fail (TRACE_IS_BASE_SRC (src));

  priv = PRIV (src);

  old = priv->stream_start;

  /* made before the old one goes: the arguments may be its own strings */
  priv->stream_start = trace_stream_event_new_stream_start (format, location, domain, clock_source);
  priv->stream_start->info.metadata = g_strdup (priv->metadata);
  priv->stream_start->info.flags = priv->flags;
  g_clear_pointer (&old, trace_stream_event_unref);
  if (priv->stream_started)
    send_stream_start (src);
}

/**
 * trace_base_src_set_stream_metadata:
 * @src: a #TraceBaseSrc
 * @metadata: (nullable): what the input says of the whole trace, as the
 *   text of a JSON object
 *
 * Sets #TraceStreamInfo.metadata of the stream-start, sent again at once
 * when the stream has started (metadata may come at the end of a file).
 */
void
trace_base_src_set_stream_metadata (TraceBaseSrc *src,
                                    const char *metadata)
{
  TraceBaseSrcPrivate *priv;
  TraceStreamInfo *info;

  g_return_if_fail (TRACE_IS_BASE_SRC (src));

  priv = PRIV (src);

  if (g_strcmp0 (priv->metadata, metadata) == 0)
    return;
  g_free (priv->metadata);
  priv->metadata = g_strdup (metadata);
  if (priv->stream_start == NULL)
    return;
  info = &priv->stream_start->info;
  trace_base_src_set_stream_info (src, info->format, info->location, info->clock_domain, info->clock_source);
}

/**
 * trace_base_src_set_stream_flags:
 * @src: a #TraceBaseSrc
 * @flags: facts about the stream
 *
 * Sets #TraceStreamInfo.flags of the stream-start, sent again at once
 * when the stream has started and the flags changed.
 */
void
trace_base_src_set_stream_flags (TraceBaseSrc *src,
                                 TraceStreamFlags flags)
{
  TraceBaseSrcPrivate *priv;
  TraceStreamInfo *info;

  g_return_if_fail (TRACE_IS_BASE_SRC (src));

  priv = PRIV (src);

  if (priv->flags == flags)
    return;
  priv->flags = flags;
  if (priv->stream_start == NULL)
    return;
  info = &priv->stream_start->info;
  trace_base_src_set_stream_info (src, info->format, info->location, info->clock_domain, info->clock_source);
}

/**
 * trace_base_src_set_progress:
 * @src: a #TraceBaseSrc
 * @done: bytes read
 * @total: bytes in all, 0 when unknown
 *
 * Posts a PROGRESS message, at most ten a second, and always the one
 * that says the input is complete.
 */
void
trace_base_src_set_progress (TraceBaseSrc *src,
                             guint64 done,
                             guint64 total)
{
  TraceBaseSrcPrivate *priv;
  gint64 now = g_get_monotonic_time ();

  g_return_if_fail (TRACE_IS_BASE_SRC (src));

  priv = PRIV (src);

  if (done == priv->last_done && priv->last_progress != 0)
    return;
  if (now - priv->last_progress < PROGRESS_INTERVAL_US && !(total > 0 && done >= total))
    return;
  priv->last_progress = now;
  priv->last_done = done;
  trace_element_post_message (TRACE_ELEMENT (src), trace_message_new_progress (G_OBJECT (src), done, total));
}

/**
 * trace_base_src_get_events_produced:
 * @src: a #TraceBaseSrc
 *
 * Returns: how many events it produced so far
 */
guint64
trace_base_src_get_events_produced (TraceBaseSrc *src)
{
  g_return_val_if_fail (TRACE_IS_BASE_SRC (src), 0);

  return PRIV (src)->events;
}
