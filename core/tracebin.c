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
  GList *children; /* owned */
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
  while (priv->children)
    trace_bin_remove (self, priv->children->data);
  G_OBJECT_CLASS (trace_bin_parent_class)->dispose (object);
}

static void
trace_bin_finalize (GObject *object)
{
  TraceBinPrivate *priv = PRIV (TRACE_BIN (object));

  g_hash_table_unref (priv->eos_sinks);
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

  for (GList *l = PRIV (bin)->children; l; l = l->next)
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
  for (GList *l = PRIV (TRACE_BIN (element))->children; l; l = l->next)
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

/**
 * trace_bin_add:
 * @bin: a #TraceBin
 * @element: (transfer floating): an element without parent
 *
 * Returns: %FALSE if @bin holds an element of the same name already
 */
gboolean
trace_bin_add (TraceBin *bin,
               TraceElement *element)
{
  TraceBinPrivate *priv = PRIV (bin);

  g_return_val_if_fail (TRACE_IS_BIN (bin), FALSE);
  g_return_val_if_fail (TRACE_IS_ELEMENT (element), FALSE);
  g_return_val_if_fail (trace_element_get_parent (element) == NULL, FALSE);

  g_object_ref_sink (element);
  if (trace_bin_get_by_name (bin, trace_element_get_name (element)))
    {
      g_warning ("%s already holds an element named %s", trace_element_get_name (TRACE_ELEMENT (bin)),
                 trace_element_get_name (element));
      g_object_unref (element);
      return FALSE;
    }
  priv->children = g_list_append (priv->children, element);
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
  TraceBinPrivate *priv = PRIV (bin);

  if (!g_list_find (priv->children, element))
    return FALSE;
  priv->children = g_list_remove (priv->children, element);
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
  for (GList *l = PRIV (bin)->children; l; l = l->next)
    {
      if (g_strcmp0 (trace_element_get_name (l->data), name) == 0)
        return l->data;
      if (TRACE_IS_BIN (l->data))
        {
          TraceElement *found = trace_bin_get_by_name (l->data, name);
          if (found)
            return found;
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
  return PRIV (bin)->children;
}

static gboolean
downstream_placed (TraceElement *element,
                   GHashTable *placed,
                   GList *children)
{
  for (const GList *p = trace_element_get_pads (element); p; p = p->next)
    {
      TracePad *peer;
      TraceElement *down;

      if (trace_pad_get_direction (p->data) != TRACE_PAD_SRC)
        continue;
      peer = trace_pad_get_peer (p->data);
      down = peer ? trace_pad_get_parent_element (peer) : NULL;
      if (down && g_list_find (children, down) && !g_hash_table_contains (placed, down))
        return FALSE;
    }
  return TRUE;
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
  GList *children = PRIV (bin)->children;
  g_autoptr (GHashTable) placed = g_hash_table_new (NULL, NULL);
  GList *sorted = NULL;
  guint n = g_list_length (children);

  while (g_hash_table_size (placed) < n)
    {
      gboolean progress = FALSE;

      for (GList *l = children; l; l = l->next)
        if (!g_hash_table_contains (placed, l->data) && downstream_placed (l->data, placed, children))
          {
            g_hash_table_add (placed, l->data);
            sorted = g_list_append (sorted, l->data);
            progress = TRUE;
          }
      if (!progress)
        {
          /* A cycle: keep the rest in insertion order rather than loop. */
          for (GList *l = children; l; l = l->next)
            if (g_hash_table_add (placed, l->data))
              sorted = g_list_append (sorted, l->data);
        }
    }
  return sorted;
}
