/* tracepipe - filters plugin: what `filter` and `main-thread-filter` share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Both elements are the same engine with other properties: an abstract
 * base keeps the engine's options (their properties), hands them over at
 * start and again when one changed while playing, and runs the engine on
 * each batch. A subclass installs its properties and reads and writes the
 * options between filter_element_lock_options() and
 * filter_element_unlock_options().
 *
 * `tid=main` in a stream whose main threads are told by name
 * (filters-main-threads.c) is decided only once the names are known: the
 * element holds the batches back, learning the names, until EOS or until
 * it holds FILTER_MAX_HELD_EVENTS events; then it filters and pushes
 * them in order, and streams from there on.
 */
#include "config.h"

#include "filters-private.h"

/* What holding a stream back may cost: about 100 bytes an event with its
 * args, so some 800 MiB (docs/robustness.md). */
#define FILTER_MAX_HELD_EVENTS (8u * 1024 * 1024)

typedef struct
{
  GMutex lock;           /* opts and opts_changed: set_property may come
                          * from another thread than the streaming one */
  FilterOptions opts;    /* the properties */
  gboolean opts_changed; /* since the engine last took them */
  Filter *filter;
  gboolean main_threads_named; /* the stream's TRACE_STREAM_FLAG_MAIN_THREADS_NAMED */
  GQueue held;                 /* TraceBatch*, not filtered yet */
  guint64 n_held;              /* events in `held` */
  gboolean held_enough;        /* held once up to the limit: streams now */
} FilterElementPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (FilterElement, filter_element, TRACE_TYPE_BASE_TRANSFORM)

#define PRIV(s) ((FilterElementPrivate *) filter_element_get_instance_private (s))

static gboolean
filter_element_start (TraceBaseTransform *trans,
                      GError **error)
{
  FilterElementPrivate *priv = PRIV (FILTER_ELEMENT (trans));
  g_autofree char *conditions = NULL;
  Filter *f;

  g_mutex_lock (&priv->lock);
  f = filter_new_with_options (trace_base_transform_get_string_pool (trans), &priv->opts, error);
  priv->opts_changed = FALSE;
  g_mutex_unlock (&priv->lock);
  if (f == NULL)
    return FALSE;
  g_clear_pointer (&priv->filter, filter_free);
  priv->filter = f;
  filter_set_main_threads_named (f, priv->main_threads_named);
  priv->held_enough = FALSE;
  conditions = filter_describe (f);
  g_debug ("%s: %s", trace_element_get_name (TRACE_ELEMENT (trans)), conditions);
  return TRUE;
}

static void
clear_held (FilterElementPrivate *priv)
{
  g_queue_clear_full (&priv->held, (GDestroyNotify) trace_batch_unref);
  priv->n_held = 0;
}

static gboolean
filter_element_stop (TraceBaseTransform *trans,
                     GError **error)
{
  FilterElementPrivate *priv = PRIV (FILTER_ELEMENT (trans));

  clear_held (priv);
  g_clear_pointer (&priv->filter, filter_free);
  return TRUE;
}

static void
filter_element_stream_start (TraceBaseTransform *trans,
                             const TraceStreamInfo *info)
{
  FilterElementPrivate *priv = PRIV (FILTER_ELEMENT (trans));

  priv->main_threads_named = (info->flags & TRACE_STREAM_FLAG_MAIN_THREADS_NAMED) != 0;
  if (priv->filter)
    filter_set_main_threads_named (priv->filter, priv->main_threads_named);
}

/* Filters and pushes the batches held back, in order. */
static TraceFlowReturn
push_held (FilterElement *self)
{
  FilterElementPrivate *priv = PRIV (self);
  TraceFlowReturn ret = TRACE_FLOW_OK;
  TraceBatch *batch;

  while (ret == TRACE_FLOW_OK && (batch = g_queue_pop_head (&priv->held)) != NULL)
    {
      filter_process (priv->filter, batch);
      ret = trace_base_transform_push (TRACE_BASE_TRANSFORM (self), batch);
    }
  clear_held (priv);
  return ret;
}

/* Holds @batch back while the main threads' names may still come. */
static TraceFlowReturn
hold (FilterElement *self,
      TraceBatch *batch)
{
  FilterElementPrivate *priv = PRIV (self);
  TraceFlowReturn ret;

  g_queue_push_tail (&priv->held, trace_batch_ref (batch));
  priv->n_held += batch->n_events;
  if (priv->n_held < FILTER_MAX_HELD_EVENTS)
    return TRACE_BASE_TRANSFORM_FLOW_DROPPED;
  priv->held_enough = TRUE;
  trace_element_post_warning (TRACE_ELEMENT (self), NULL,
                              "main threads told by the names of the first %" G_GUINT64_FORMAT " events: "
                              "a thread named as a main thread later on is not one",
                              priv->n_held);
  ret = push_held (self);
  return ret == TRACE_FLOW_OK ? TRACE_BASE_TRANSFORM_FLOW_DROPPED : ret;
}

/* A property changed while playing: the engine takes the new conditions
 * before this batch. */
static void
take_changed_options (FilterElement *self)
{
  FilterElementPrivate *priv = PRIV (self);
  g_autofree char *conditions = NULL;

  g_mutex_lock (&priv->lock);
  if (priv->opts_changed)
    {
      filter_set_conditions (priv->filter, &priv->opts);
      priv->opts_changed = FALSE;
      conditions = filter_describe (priv->filter);
    }
  g_mutex_unlock (&priv->lock);
  if (conditions)
    g_debug ("%s: conditions changed while playing: %s", trace_element_get_name (TRACE_ELEMENT (self)),
             conditions);
}

static TraceFlowReturn
filter_element_transform_ip (TraceBaseTransform *trans,
                             TraceBatch *batch)
{
  FilterElement *self = FILTER_ELEMENT (trans);

  FilterElementPrivate *priv = PRIV (self);

  take_changed_options (self);
  filter_learn_main_threads (priv->filter, batch);
  if (!priv->held_enough && filter_waits_for_main_threads (priv->filter))
    return hold (self, batch);
  if (!g_queue_is_empty (&priv->held))
    {
      /* tid=main changed while holding: what was held goes first */
      TraceFlowReturn ret = push_held (self);

      if (ret != TRACE_FLOW_OK)
        return ret;
    }
  filter_process (priv->filter, batch);
  return TRACE_FLOW_OK;
}

static TraceBatch *
filter_element_drain (TraceBaseTransform *trans)
{
  FilterElementPrivate *priv = PRIV (FILTER_ELEMENT (trans));
  gboolean keep_unknown;

  g_mutex_lock (&priv->lock);
  keep_unknown = priv->opts.keep_unknown;
  g_mutex_unlock (&priv->lock);
  push_held (FILTER_ELEMENT (trans));
  filter_warn_at_eos (TRACE_ELEMENT (trans), priv->filter, keep_unknown);
  return filter_drain (priv->filter);
}

static void
filter_element_collect_stats (TraceElement *element,
                              GVariantDict *dict)
{
  TRACE_ELEMENT_CLASS (filter_element_parent_class)->collect_stats (element, dict);
  filter_collect_stats (PRIV (FILTER_ELEMENT (element))->filter, dict);
}

static void
filter_element_finalize (GObject *object)
{
  FilterElementPrivate *priv = PRIV (FILTER_ELEMENT (object));

  clear_held (priv);
  g_clear_pointer (&priv->filter, filter_free);
  filter_options_clear (&priv->opts);
  g_mutex_clear (&priv->lock);
  G_OBJECT_CLASS (filter_element_parent_class)->finalize (object);
}

static void
filter_element_class_init (FilterElementClass *klass)
{
  TraceBaseTransformClass *trans_class = TRACE_BASE_TRANSFORM_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = filter_element_finalize;
  trans_class->start = filter_element_start;
  trans_class->stop = filter_element_stop;
  trans_class->transform_ip = filter_element_transform_ip;
  trans_class->drain = filter_element_drain;
  trans_class->stream_start = filter_element_stream_start;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = filter_element_collect_stats;
}

static void
filter_element_init (FilterElement *self)
{
  g_mutex_init (&PRIV (self)->lock);
}

/**
 * filter_element_lock_options:
 * @self: a #FilterElement
 *
 * Returns: (transfer none): the element's options, locked until
 *   filter_element_unlock_options(): for set_property, get_property and
 *   init
 */
FilterOptions *
filter_element_lock_options (FilterElement *self)
{
  g_return_val_if_fail (FILTER_IS_ELEMENT (self), NULL);

  g_mutex_lock (&PRIV (self)->lock);
  return &PRIV (self)->opts;
}

/**
 * filter_element_unlock_options:
 * @self: a #FilterElement
 * @changed: whether the options were written: the engine takes them
 *   before its next batch
 */
void
filter_element_unlock_options (FilterElement *self,
                               gboolean changed)
{
  g_return_if_fail (FILTER_IS_ELEMENT (self));

  PRIV (self)->opts_changed |= changed;
  g_mutex_unlock (&PRIV (self)->lock);
}
