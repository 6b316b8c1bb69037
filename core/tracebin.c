/* tracepipe - bins: elements that contain elements
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdarg.h>

#include "trace/trace.h"
#include "trace-private.h"

/**
 * TraceBin:
 *
 * Holds elements, changes their states sinks first, and posts EOS only
 * when every sink it holds has finished, so EOS on the pipeline's bus
 * means every output is complete.
 */
typedef struct
{
  GQueue children;     /* owned, in the order they were added */
  GHashTable *by_name; /* name -> child: adding n elements stays linear */
  guint n_child_bins;  /* get_by_name() looks into those */
  GMutex eos_lock;
  GHashTable *eos_sinks; /* TraceElement* that posted EOS */
  gboolean eos_posted;
} TraceBinPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (TraceBin, trace_bin, TRACE_TYPE_ELEMENT)

#define PRIV(b) ((TraceBinPrivate *) trace_bin_get_instance_private (b))

static void
trace_bin_dispose (GObject *object)
{
  TraceBin *self = TRACE_BIN (object);
  TraceBinPrivate *priv = PRIV (self);

  if (trace_element_get_state (TRACE_ELEMENT (self)) != TRACE_STATE_NULL)
    trace_element_set_state (TRACE_ELEMENT (self), TRACE_STATE_NULL);
  while (priv->children.head)
    trace_bin_remove (self, priv->children.head->data);
  G_OBJECT_CLASS (trace_bin_parent_class)->dispose (object);
}

static void
trace_bin_finalize (GObject *object)
{
  TraceBinPrivate *priv = PRIV (TRACE_BIN (object));

  g_hash_table_unref (priv->eos_sinks);
  g_hash_table_unref (priv->by_name);
  g_mutex_clear (&priv->eos_lock);
  G_OBJECT_CLASS (trace_bin_parent_class)->finalize (object);
}

static gboolean
is_sink (TraceElement *element)
{
  return trace_element_get_n_src_pads (element) == 0 && !TRACE_IS_BIN (element);
}

static guint
count_sinks (TraceBin *bin)
{
  guint n = 0;

  for (GList *l = PRIV (bin)->children.head; l; l = l->next)
    n += is_sink (l->data);
  return n;
}

static TraceStateChangeReturn
trace_bin_change_state (TraceElement *element,
                        TraceStateChange transition)
{
  TraceBin *self = TRACE_BIN (element);
  TraceState next = TRACE_STATE_TRANSITION_NEXT (transition);
  g_autoptr (GList) sorted = trace_bin_get_sorted (self);

  if (transition == TRACE_STATE_CHANGE_NULL_TO_READY)
    {
      g_mutex_lock (&PRIV (self)->eos_lock);
      g_hash_table_remove_all (PRIV (self)->eos_sinks);
      PRIV (self)->eos_posted = FALSE;
      g_mutex_unlock (&PRIV (self)->eos_lock);
    }
  for (GList *l = sorted; l; l = l->next)
    {
      if (trace_element_set_state (l->data, next) == TRACE_STATE_CHANGE_FAILURE)
        {
          /* Leave nothing half-started: take the others back down. */
          if (next > TRACE_STATE_TRANSITION_CURRENT (transition))
            for (GList *u = sorted; u != l; u = u->next)
              trace_element_set_state (u->data, TRACE_STATE_TRANSITION_CURRENT (transition));
          return TRACE_STATE_CHANGE_FAILURE;
        }
    }
  return TRACE_ELEMENT_CLASS (trace_bin_parent_class)->change_state (element, transition);
}

static void
trace_bin_handle_message (TraceElement *element,
                          TraceMessage *message)
{
  TraceBin *self = TRACE_BIN (element);
  TraceBinPrivate *priv = PRIV (self);
  gboolean post_eos = FALSE;

  if (message->type == TRACE_MESSAGE_EOS && message->src != G_OBJECT (self))
    {
      g_mutex_lock (&priv->eos_lock);
      g_hash_table_add (priv->eos_sinks, message->src);
      if (!priv->eos_posted && g_hash_table_size (priv->eos_sinks) >= count_sinks (self))
        post_eos = priv->eos_posted = TRUE;
      g_mutex_unlock (&priv->eos_lock);
      trace_message_unref (message);
      if (post_eos)
        TRACE_ELEMENT_CLASS (trace_bin_parent_class)->handle_message (element, trace_message_new_eos (G_OBJECT (self)));
      return;
    }
  TRACE_ELEMENT_CLASS (trace_bin_parent_class)->handle_message (element, message);
}

static void
trace_bin_send_eos (TraceElement *element)
{
  for (GList *l = PRIV (TRACE_BIN (element))->children.head; l; l = l->next)
    trace_element_send_eos (l->data);
}

static void
trace_bin_class_init (TraceBinClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceElementClass *element_class = TRACE_ELEMENT_CLASS (klass);

  object_class->dispose = trace_bin_dispose;
  object_class->finalize = trace_bin_finalize;
  element_class->change_state = trace_bin_change_state;
  element_class->handle_message = trace_bin_handle_message;
  element_class->send_eos = trace_bin_send_eos;
  trace_element_class_set_metadata (element_class, "Bin", "Generic/Bin",
                                    "Holds elements and runs them together", "tracepipe");
}

static void
trace_bin_init (TraceBin *self)
{
  g_mutex_init (&PRIV (self)->eos_lock);
  PRIV (self)->eos_sinks = g_hash_table_new (NULL, NULL);
  PRIV (self)->by_name = g_hash_table_new (g_str_hash, g_str_equal);
}

/**
 * trace_bin_new:
 * @name: (nullable): its name
 *
 * Returns: (transfer floating): a new bin
 */
TraceElement *
trace_bin_new (const char *name)
{
  return g_object_new (TRACE_TYPE_BIN, "name", name, NULL);
}

/* Whether @element is @bin or holds it: adding it would make the bin
 * its own ancestor, and every walk up or down the tree would loop. */
static gboolean
is_self_or_ancestor (TraceElement *element,
                     TraceBin *bin)
{
  for (TraceElement *e = TRACE_ELEMENT (bin); e; e = trace_element_get_parent (e))
    if (e == element)
      return TRUE;
  return FALSE;
}

/**
 * trace_bin_add:
 * @bin: a #TraceBin
 * @element: (transfer floating): an element without parent
 *
 * Adds @element to @bin. A bin cannot hold itself or a bin that holds
 * it (directly or not).
 *
 * Returns: %FALSE if @bin holds an element of the same name already, or
 *   @element is @bin or one of the bins that hold it
 */
gboolean
trace_bin_add (TraceBin *bin,
               TraceElement *element)
{
  TraceBinPrivate *priv;

  g_return_val_if_fail (TRACE_IS_BIN (bin), FALSE);
  g_return_val_if_fail (TRACE_IS_ELEMENT (element), FALSE);
  g_return_val_if_fail (trace_element_get_parent (element) == NULL, FALSE);

  priv = PRIV (bin);

  g_object_ref_sink (element);
  if (is_self_or_ancestor (element, bin))
    {
      g_warning ("%s cannot be added to %s: a bin cannot hold itself or a bin that holds it",
                 trace_element_get_name (element), trace_element_get_name (TRACE_ELEMENT (bin)));
      g_object_unref (element);
      return FALSE;
    }
  if (trace_bin_get_by_name (bin, trace_element_get_name (element)))
    {
      g_warning ("%s already holds an element named %s", trace_element_get_name (TRACE_ELEMENT (bin)),
                 trace_element_get_name (element));
      g_object_unref (element);
      return FALSE;
    }
  g_queue_push_tail (&priv->children, element);
  g_hash_table_insert (priv->by_name, (gpointer) trace_element_get_name (element), element);
  priv->n_child_bins += TRACE_IS_BIN (element);
  _trace_element_set_parent (element, TRACE_ELEMENT (bin));
  return TRUE;
}

/**
 * trace_bin_add_many:
 * @bin: a #TraceBin
 * @first: (transfer floating): an element
 * @...: more elements, %NULL-terminated
 */
void
trace_bin_add_many (TraceBin *bin,
                    TraceElement *first,
                    ...)
{
  va_list args;

  g_return_if_fail (TRACE_IS_BIN (bin));
  g_return_if_fail (TRACE_IS_ELEMENT (first));

  va_start (args, first);
  for (TraceElement *e = first; e; e = va_arg (args, TraceElement *))
    trace_bin_add (bin, e);
  va_end (args);
}

/**
 * trace_bin_remove:
 * @bin: a #TraceBin
 * @element: one of its children
 *
 * Returns: %FALSE if @element is not a child of @bin
 */
gboolean
trace_bin_remove (TraceBin *bin,
                  TraceElement *element)
{
  TraceBinPrivate *priv;

  g_return_val_if_fail (TRACE_IS_BIN (bin), FALSE);
  g_return_val_if_fail (TRACE_IS_ELEMENT (element), FALSE);

  priv = PRIV (bin);

  if (trace_element_get_parent (element) != TRACE_ELEMENT (bin))
    return FALSE;
  g_queue_remove (&priv->children, element);
  g_hash_table_remove (priv->by_name, trace_element_get_name (element));
  priv->n_child_bins -= TRACE_IS_BIN (element);
  trace_element_set_state (element, TRACE_STATE_NULL);
  _trace_element_set_parent (element, NULL);
  g_object_unref (element);
  return TRUE;
}

/**
 * trace_bin_get_by_name:
 * @bin: a #TraceBin
 * @name: an element name
 *
 * Returns: (transfer none) (nullable): the child of that name, looked for
 *   in nested bins too
 */
TraceElement *
trace_bin_get_by_name (TraceBin *bin,
                       const char *name)
{
  TraceBinPrivate *priv;
  TraceElement *found;

  g_return_val_if_fail (TRACE_IS_BIN (bin), NULL);

  priv = PRIV (bin);

  found = name ? g_hash_table_lookup (priv->by_name, name) : NULL;
  if (found || priv->n_child_bins == 0)
    return found;
  for (GList *l = priv->children.head; l; l = l->next)
    {
      if (TRACE_IS_BIN (l->data))
        {
          TraceElement *nested = trace_bin_get_by_name (l->data, name);
          if (nested)
            return nested;
        }
    }
  return NULL;
}

/**
 * trace_bin_get_children:
 * @bin: a #TraceBin
 *
 * Returns: (transfer none) (element-type TraceElement): its children, in
 *   the order they were added
 */
const GList *
trace_bin_get_children (TraceBin *bin)
{
  g_return_val_if_fail (TRACE_IS_BIN (bin), NULL);

  return PRIV (bin)->children.head;
}

/* The names of children are keys of by_name: a child renamed must move. */
void
_trace_bin_child_renamed (TraceBin *bin,
                          TraceElement *child,
                          const char *old_name)
{
  TraceBinPrivate *priv = PRIV (bin);

  if (g_hash_table_lookup (priv->by_name, old_name) == child)
    g_hash_table_remove (priv->by_name, old_name);
  g_hash_table_insert (priv->by_name, (gpointer) trace_element_get_name (child), child);
}

/**
 * trace_bin_get_sorted:
 * @bin: a #TraceBin
 *
 * Orders the children sinks first: each element comes after every element
 * downstream of it. That is the order states change in, so a source only
 * starts pushing once everything below it is ready.
 *
 * Returns: (transfer container) (element-type TraceElement): the children
 */
GList *
trace_bin_get_sorted (TraceBin *bin)
{
  g_return_val_if_fail (TRACE_IS_BIN (bin), NULL);

  return _trace_graph_sort_sinks_first (PRIV (bin)->children.head);
}
