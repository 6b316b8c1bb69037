/* tracepipe - the element base class
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "trace-private.h"

/**
 * TraceElement:
 *
 * The base of every element: a named object with pads, a state and a
 * parent bin. Subclasses describe themselves with class metadata and pad
 * templates, and react to state changes through `change_state`.
 */
typedef struct
{
  char *name;
  TraceElement *parent;  /* not owned */
  GQueue pads;           /* owned, in the order they were added */
  GHashTable *pad_names; /* name -> pad, so a pad is found in constant time */
  GHashTable *next_free; /* `%u` pattern -> lowest number that may be free */
  TraceState state;
  char *factory_name;
} TraceElementPrivate;

enum
{
  PROP_0,
  PROP_NAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];
static GQuark quark_metadata;
static GQuark quark_templates;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TraceElement, trace_element, G_TYPE_INITIALLY_UNOWNED)

#define PRIV(e) ((TraceElementPrivate *) trace_element_get_instance_private (e))

static void
trace_element_dispose (GObject *object)
{
  TraceElement *self = TRACE_ELEMENT (object);
  TraceElementPrivate *priv = PRIV (self);

  if (priv->state != TRACE_STATE_NULL)
    trace_element_set_state (self, TRACE_STATE_NULL);
  while (priv->pads.head)
    {
      TracePad *pad = priv->pads.head->data;
      TracePad *peer = trace_pad_get_peer (pad);

      if (peer)
        {
          if (trace_pad_get_direction (pad) == TRACE_PAD_SRC)
            trace_pad_unlink (pad, peer);
          else
            trace_pad_unlink (peer, pad);
        }
      _trace_pad_set_parent (pad, NULL);
      g_hash_table_remove (priv->pad_names, trace_pad_get_name (pad));
      g_queue_pop_head (&priv->pads);
      g_object_unref (pad);
    }
  G_OBJECT_CLASS (trace_element_parent_class)->dispose (object);
}

static void
trace_element_finalize (GObject *object)
{
  TraceElementPrivate *priv = PRIV (TRACE_ELEMENT (object));

  g_free (priv->name);
  g_free (priv->factory_name);
  g_hash_table_unref (priv->pad_names);
  g_hash_table_unref (priv->next_free);
  G_OBJECT_CLASS (trace_element_parent_class)->finalize (object);
}

static void
trace_element_set_property (GObject *object,
                            guint prop_id,
                            const GValue *value,
                            GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_NAME:
      trace_element_set_name (TRACE_ELEMENT (object), g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_element_get_property (GObject *object,
                            guint prop_id,
                            GValue *value,
                            GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, PRIV (TRACE_ELEMENT (object))->name);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_element_constructed (GObject *object)
{
  TraceElementPrivate *priv = PRIV (TRACE_ELEMENT (object));

  G_OBJECT_CLASS (trace_element_parent_class)->constructed (object);
  if (priv->name == NULL)
    {
      /* The same rule as GStreamer: the lowercase type name and a number. */
      static gint counter;
      g_autofree char *lower = g_ascii_strdown (G_OBJECT_TYPE_NAME (object), -1);
      const char *base = g_str_has_prefix (lower, "trace") ? lower + 5 : lower;
      priv->name = g_strdup_printf ("%s%d", base, g_atomic_int_add (&counter, 1));
    }
}

static TraceStateChangeReturn
trace_element_change_state_default (TraceElement *element,
                                    TraceStateChange transition)
{
  if (transition == TRACE_STATE_CHANGE_NULL_TO_READY)
    {
      for (GList *l = PRIV (element)->pads.head; l; l = l->next)
        _trace_pad_reset (l->data);
    }
  return TRACE_STATE_CHANGE_SUCCESS;
}

static TracePad *
trace_element_request_new_pad_default (TraceElement *element,
                                       TracePadTemplate *templ,
                                       const char *name)
{
  TracePad *pad = trace_pad_new_from_template (templ, name);

  trace_element_add_pad (element, pad);
  return pad;
}

static void
trace_element_release_pad_default (TraceElement *element,
                                   TracePad *pad)
{
  trace_element_remove_pad (element, pad);
}

static void
trace_element_handle_message_default (TraceElement *element,
                                      TraceMessage *message)
{
  TraceElement *parent = PRIV (element)->parent;

  TraceBus *bus;

  if (parent)
    TRACE_ELEMENT_GET_CLASS (parent)->handle_message (parent, message);
  else if ((bus = trace_element_get_bus (element)) != NULL)
    trace_bus_post (bus, message); /* the top: a pipeline */
  else
    trace_message_unref (message);
}

static void
trace_element_collect_stats_default (TraceElement *element,
                                     GVariantDict *stats)
{
  guint64 in = 0, out = 0, bin = 0, bout = 0;

  for (GList *l = PRIV (element)->pads.head; l; l = l->next)
    {
      TracePadStats ps;

      trace_pad_get_stats (l->data, &ps);
      if (trace_pad_get_direction (l->data) == TRACE_PAD_SINK)
        in += ps.events, bin += ps.batches;
      else
        out += ps.events, bout += ps.batches;
    }
  if (trace_element_get_n_sink_pads (element) > 0)
    {
      g_variant_dict_insert (stats, "events-in", "t", in);
      g_variant_dict_insert (stats, "batches-in", "t", bin);
    }
  if (trace_element_get_n_src_pads (element) > 0)
    {
      g_variant_dict_insert (stats, "events-out", "t", out);
      g_variant_dict_insert (stats, "batches-out", "t", bout);
    }
}

static void
trace_element_class_init (TraceElementClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = trace_element_dispose;
  object_class->finalize = trace_element_finalize;
  object_class->set_property = trace_element_set_property;
  object_class->get_property = trace_element_get_property;
  object_class->constructed = trace_element_constructed;

  klass->change_state = trace_element_change_state_default;
  klass->request_new_pad = trace_element_request_new_pad_default;
  klass->release_pad = trace_element_release_pad_default;
  klass->handle_message = trace_element_handle_message_default;
  klass->collect_stats = trace_element_collect_stats_default;

  /**
   * TraceElement:name:
   *
   * The element's name, unique in its bin; used in paths and references.
   */
  properties[PROP_NAME] =
      g_param_spec_string ("name", "Name", "The name of the element", NULL,
                           G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  quark_metadata = g_quark_from_static_string ("trace-element-metadata");
  quark_templates = g_quark_from_static_string ("trace-element-templates");
}

static void
trace_element_init (TraceElement *self)
{
  PRIV (self)->state = TRACE_STATE_NULL;
  PRIV (self)->pad_names = g_hash_table_new (g_str_hash, g_str_equal);
  PRIV (self)->next_free = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/* ---- class setup ---- */

/**
 * trace_element_class_set_metadata:
 * @klass: the element class
 * @long_name: a human-readable name
 * @classification: such as `Source/Trace` or `Filter/Trace`
 * @description: one line on what it does
 * @author: who wrote it
 *
 * Describes the element for `trace-inspect`.
 */
void
trace_element_class_set_metadata (TraceElementClass *klass,
                                  const char *long_name,
                                  const char *classification,
                                  const char *description,
                                  const char *author)
{
  GType type;
  GHashTable *md;

  g_return_if_fail (TRACE_IS_ELEMENT_CLASS (klass));

  type = G_TYPE_FROM_CLASS (klass);
  md = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_hash_table_insert (md, TRACE_ELEMENT_METADATA_LONGNAME, g_strdup (long_name));
  g_hash_table_insert (md, TRACE_ELEMENT_METADATA_KLASS, g_strdup (classification));
  g_hash_table_insert (md, TRACE_ELEMENT_METADATA_DESCRIPTION, g_strdup (description));
  g_hash_table_insert (md, TRACE_ELEMENT_METADATA_AUTHOR, g_strdup (author));
  /* Class data lives as long as the type: never freed, by design. */
  g_type_set_qdata (type, quark_metadata, md);
}

/**
 * trace_element_class_get_metadata:
 * @klass: the element class
 * @key: a `TRACE_ELEMENT_METADATA_*` key
 *
 * Returns: (nullable): the value, inherited from a parent class if unset
 */
const char *
trace_element_class_get_metadata (TraceElementClass *klass,
                                  const char *key)
{
  g_return_val_if_fail (TRACE_IS_ELEMENT_CLASS (klass), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  for (GType t = G_TYPE_FROM_CLASS (klass); t != 0; t = g_type_parent (t))
    {
      GHashTable *md = g_type_get_qdata (t, quark_metadata);
      if (md)
        return g_hash_table_lookup (md, key);
    }
  return NULL;
}

/**
 * trace_element_class_add_pad_template:
 * @klass: the element class
 * @templ: (transfer full): the template; one of the same name replaces
 *   an inherited one
 */
void
trace_element_class_add_pad_template (TraceElementClass *klass,
                                      TracePadTemplate *templ)
{
  GType type;
  GList *list;

  g_return_if_fail (TRACE_IS_ELEMENT_CLASS (klass));
  g_return_if_fail (TRACE_IS_PAD_TEMPLATE (templ));

  type = G_TYPE_FROM_CLASS (klass);
  list = g_type_get_qdata (type, quark_templates);
  g_object_ref_sink (templ);
  list = g_list_append (list, templ);
  g_type_set_qdata (type, quark_templates, list);
}

/**
 * trace_element_class_add_static_pad_template_with_type:
 * @klass: the element class
 * @templ: a static template
 * @pad_type: the #TracePad subtype of its pads
 */
void
trace_element_class_add_static_pad_template_with_type (TraceElementClass *klass,
                                                       const TraceStaticPadTemplate *templ,
                                                       GType pad_type)
{
  g_return_if_fail (TRACE_IS_ELEMENT_CLASS (klass));
  g_return_if_fail (templ != NULL);

  trace_element_class_add_pad_template (klass,
                                        trace_pad_template_new (templ->name_template, templ->direction,
                                                                templ->presence, templ->media_type,
                                                                pad_type));
}

/**
 * trace_element_class_add_static_pad_template:
 * @klass: the element class
 * @templ: a static template
 */
void
trace_element_class_add_static_pad_template (TraceElementClass *klass,
                                             const TraceStaticPadTemplate *templ)
{
  g_return_if_fail (TRACE_IS_ELEMENT_CLASS (klass));
  g_return_if_fail (templ != NULL);

  trace_element_class_add_static_pad_template_with_type (klass, templ, TRACE_TYPE_PAD);
}

/**
 * trace_element_class_get_pad_template_list:
 * @klass: the element class
 *
 * Returns: (transfer container) (element-type TracePadTemplate): the
 *   templates of the class and its parents, a subclass's first; a parent's
 *   template hidden by one of the same name is left out
 */
GList *
trace_element_class_get_pad_template_list (TraceElementClass *klass)
{
  GList *result = NULL;

  g_return_val_if_fail (TRACE_IS_ELEMENT_CLASS (klass), NULL);

  for (GType t = G_TYPE_FROM_CLASS (klass); t != 0; t = g_type_parent (t))
    {
      for (GList *l = g_type_get_qdata (t, quark_templates); l; l = l->next)
        {
          const char *name = trace_pad_template_get_name_template (l->data);
          gboolean hidden = FALSE;

          for (GList *r = result; r && !hidden; r = r->next)
            hidden = g_str_equal (name, trace_pad_template_get_name_template (r->data));
          if (!hidden)
            result = g_list_append (result, l->data);
        }
    }
  return result;
}

/**
 * trace_element_class_get_pad_template:
 * @klass: the element class
 * @name: the template's name
 *
 * Returns: (transfer none) (nullable): the template
 */
TracePadTemplate *
trace_element_class_get_pad_template (TraceElementClass *klass,
                                      const char *name)
{
  g_autoptr (GList) list = NULL;

  g_return_val_if_fail (TRACE_IS_ELEMENT_CLASS (klass), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  list = trace_element_class_get_pad_template_list (klass);
  for (GList *l = list; l; l = l->next)
    if (g_str_equal (name, trace_pad_template_get_name_template (l->data)))
      return l->data;
  return NULL;
}

/* ---- identity ---- */

/**
 * trace_element_get_name:
 * @element: a #TraceElement
 *
 * Returns: its name
 */
const char *
trace_element_get_name (TraceElement *element)
{
  g_return_val_if_fail (TRACE_IS_ELEMENT (element), NULL);
  return PRIV (element)->name;
}

/**
 * trace_element_set_name:
 * @element: a #TraceElement
 * @name: (nullable): a new name; %NULL keeps a generated one
 */
void
trace_element_set_name (TraceElement *element,
                        const char *name)
{
  TraceElementPrivate *priv;
  g_autofree char *old_name = NULL;

  g_return_if_fail (TRACE_IS_ELEMENT (element));

  priv = PRIV (element);

  if (name == NULL || g_strcmp0 (priv->name, name) == 0)
    return;
  old_name = g_steal_pointer (&priv->name);
  priv->name = g_strdup (name);
  if (priv->parent && TRACE_IS_BIN (priv->parent))
    _trace_bin_child_renamed (TRACE_BIN (priv->parent), element, old_name);
  g_object_notify_by_pspec (G_OBJECT (element), properties[PROP_NAME]);
}

/**
 * trace_element_get_parent:
 * @element: a #TraceElement
 *
 * Returns: (transfer none) (nullable): the bin that holds it
 */
TraceElement *
trace_element_get_parent (TraceElement *element)
{
  g_return_val_if_fail (TRACE_IS_ELEMENT (element), NULL);

  return PRIV (element)->parent;
}

TraceState
_trace_element_get_state_field (TraceElement *element)
{
  return PRIV (element)->state;
}

void
_trace_element_set_state_field (TraceElement *element,
                                TraceState state)
{
  PRIV (element)->state = state;
}

void
_trace_element_set_parent (TraceElement *element,
                           TraceElement *parent)
{
  PRIV (element)->parent = parent;
}

/**
 * trace_element_get_path_string:
 * @element: a #TraceElement
 *
 * Returns: (transfer full): its path from the top, `/pipeline0/ftrace-src0`
 */
char *
trace_element_get_path_string (TraceElement *element)
{
  GString *path;

  g_return_val_if_fail (TRACE_IS_ELEMENT (element), NULL);

  path = g_string_new (NULL);
  for (TraceElement *e = element; e; e = PRIV (e)->parent)
    {
      g_string_prepend (path, PRIV (e)->name);
      g_string_prepend_c (path, '/');
    }
  return g_string_free (path, FALSE);
}

/**
 * trace_element_get_factory_name:
 * @element: a #TraceElement
 *
 * Returns: (nullable): the name of the factory that made it
 */
const char *
trace_element_get_factory_name (TraceElement *element)
{
  g_return_val_if_fail (TRACE_IS_ELEMENT (element), NULL);

  return PRIV (element)->factory_name;
}

void
_trace_element_set_factory_name (TraceElement *element,
                                 const char *factory_name)
{
  g_free (PRIV (element)->factory_name);
  PRIV (element)->factory_name = g_strdup (factory_name);
}

/* ---- pads ---- */

/**
 * trace_element_add_pad:
 * @element: a #TraceElement
 * @pad: (transfer full): a pad without parent, named uniquely
 *
 * Returns: %FALSE if the element already has a pad of that name
 */
gboolean
trace_element_add_pad (TraceElement *element,
                       TracePad *pad)
{
  TraceElementPrivate *priv;

  g_return_val_if_fail (TRACE_IS_ELEMENT (element), FALSE);
  g_return_val_if_fail (TRACE_IS_PAD (pad), FALSE);

  priv = PRIV (element);

  if (trace_element_get_static_pad (element, trace_pad_get_name (pad)))
    {
      g_warning ("%s already has a pad named %s", priv->name, trace_pad_get_name (pad));
      g_object_unref (pad);
      return FALSE;
    }
  _trace_pad_set_parent (pad, element);
  g_queue_push_tail (&priv->pads, pad);
  g_hash_table_insert (priv->pad_names, (gpointer) trace_pad_get_name (pad), pad);
  return TRUE;
}

static void note_number_freed (TraceElement *element,
                               const char *pad_name);

/**
 * trace_element_remove_pad:
 * @element: a #TraceElement
 * @pad: one of its pads
 *
 * Unlinks and drops the pad.
 *
 * Returns: %FALSE if @pad is not the element's
 */
gboolean
trace_element_remove_pad (TraceElement *element,
                          TracePad *pad)
{
  TraceElementPrivate *priv;
  TracePad *peer;

  g_return_val_if_fail (TRACE_IS_ELEMENT (element), FALSE);
  g_return_val_if_fail (TRACE_IS_PAD (pad), FALSE);

  priv = PRIV (element);

  if (trace_pad_get_parent_element (pad) != element)
    return FALSE;
  peer = trace_pad_get_peer (pad);
  if (peer)
    {
      if (trace_pad_get_direction (pad) == TRACE_PAD_SRC)
        trace_pad_unlink (pad, peer);
      else
        trace_pad_unlink (peer, pad);
    }
  g_queue_remove (&priv->pads, pad);
  g_hash_table_remove (priv->pad_names, trace_pad_get_name (pad));
  note_number_freed (element, trace_pad_get_name (pad));
  _trace_pad_set_parent (pad, NULL);
  g_object_unref (pad);
  return TRUE;
}

/**
 * trace_element_get_static_pad:
 * @element: a #TraceElement
 * @name: a pad name
 *
 * Returns: (transfer none) (nullable): the pad of that name, requested
 *   pads included
 */
TracePad *
trace_element_get_static_pad (TraceElement *element,
                              const char *name)
{
  g_return_val_if_fail (TRACE_IS_ELEMENT (element), NULL);

  return name ? g_hash_table_lookup (PRIV (element)->pad_names, name) : NULL;
}

/**
 * trace_element_get_pads:
 * @element: a #TraceElement
 *
 * Returns: (transfer none) (element-type TracePad): its pads
 */
const GList *
trace_element_get_pads (TraceElement *element)
{
  g_return_val_if_fail (TRACE_IS_ELEMENT (element), NULL);

  return PRIV (element)->pads.head;
}

static guint
count_pads (TraceElement *element,
            TracePadDirection direction)
{
  guint n = 0;

  for (GList *l = PRIV (element)->pads.head; l; l = l->next)
    n += trace_pad_get_direction (l->data) == direction;
  return n;
}

/**
 * trace_element_get_n_sink_pads:
 * @element: a #TraceElement
 *
 * Returns: how many sink pads it has now
 */
guint
trace_element_get_n_sink_pads (TraceElement *element)
{
  g_return_val_if_fail (TRACE_IS_ELEMENT (element), 0);

  return count_pads (element, TRACE_PAD_SINK);
}

/**
 * trace_element_get_n_src_pads:
 * @element: a #TraceElement
 *
 * Returns: how many src pads it has now
 */
guint
trace_element_get_n_src_pads (TraceElement *element)
{
  g_return_val_if_fail (TRACE_IS_ELEMENT (element), 0);

  return count_pads (element, TRACE_PAD_SRC);
}

/* `sink_%u` matches `sink_12`; the number is returned in @index. */
static gboolean
template_matches (const char *pattern,
                  const char *name,
                  guint64 *index)
{
  const char *pct = strstr (pattern, "%u");
  gsize prefix;
  char *end;

  if (pct == NULL)
    return g_str_equal (pattern, name);
  prefix = pct - pattern;
  if (strncmp (pattern, name, prefix) != 0 || !g_ascii_isdigit (name[prefix]))
    return FALSE;
  *index = g_ascii_strtoull (name + prefix, &end, 10);
  return g_str_equal (end, pct + 2);
}

/* The lowest free number of a `%u` pattern, the way GStreamer numbers
 * request pads. Probing from 0 each time made n requests cost n² lookups
 * (3 000 funnel inputs took 43 s); the lowest number that may be free is
 * kept per pattern instead, and moved back when a pad is released. */
static char *
next_pad_name (TraceElement *element,
               const char *pattern)
{
  TraceElementPrivate *priv = PRIV (element);
  const char *pct = strstr (pattern, "%u");
  g_autofree char *prefix = NULL;
  guint i;

  if (pct == NULL)
    return g_strdup (pattern);
  prefix = g_strndup (pattern, pct - pattern);
  for (i = GPOINTER_TO_UINT (g_hash_table_lookup (priv->next_free, pattern));; i++)
    {
      char *name = g_strdup_printf ("%s%u%s", prefix, i, pct + 2);

      if (trace_element_get_static_pad (element, name) == NULL)
        {
          g_hash_table_insert (priv->next_free, g_strdup (pattern), GUINT_TO_POINTER (i + 1));
          return name;
        }
      g_free (name);
    }
}

/* A released pad's number is free again: let the next request find it. */
static void
note_number_freed (TraceElement *element,
                   const char *pad_name)
{
  TraceElementPrivate *priv = PRIV (element);
  GHashTableIter iter;
  gpointer pattern, next;

  g_hash_table_iter_init (&iter, priv->next_free);
  while (g_hash_table_iter_next (&iter, &pattern, &next))
    {
      guint64 index;

      if (template_matches (pattern, pad_name, &index) && index < GPOINTER_TO_UINT (next))
        g_hash_table_iter_replace (&iter, GUINT_TO_POINTER ((guint) index));
    }
}

/**
 * trace_element_request_pad:
 * @element: a #TraceElement
 * @name: a REQUEST template's name (`sink_%u`: the next free number is
 *   used) or a name it matches (`sink_3`)
 * @error: where to say why no pad was made
 *
 * Returns: (transfer none) (nullable): the new pad, owned by @element
 */
TracePad *
trace_element_request_pad (TraceElement *element,
                           const char *name,
                           GError **error)
{
  TraceElementClass *klass;
  g_autoptr (GList) templates = NULL;

  g_return_val_if_fail (TRACE_IS_ELEMENT (element), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  klass = TRACE_ELEMENT_GET_CLASS (element);
  templates = trace_element_class_get_pad_template_list (klass);
  for (GList *l = templates; l; l = l->next)
    {
      TracePadTemplate *templ = l->data;
      const char *pattern = trace_pad_template_get_name_template (templ);
      g_autofree char *pad_name = NULL;
      guint64 index;

      if (trace_pad_template_get_presence (templ) != TRACE_PAD_REQUEST)
        continue;
      if (g_str_equal (pattern, name))
        pad_name = next_pad_name (element, pattern);
      else if (template_matches (pattern, name, &index))
        pad_name = g_strdup (name);
      else
        continue;
      if (trace_element_get_static_pad (element, pad_name))
        {
          g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_PAD,
                       "%s already has a pad named %s", PRIV (element)->name, pad_name);
          return NULL;
        }
      return klass->request_new_pad (element, templ, pad_name);
    }
  g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_PAD,
               "%s has no pad template for a pad named %s", PRIV (element)->name, name);
  return NULL;
}

/**
 * trace_element_release_request_pad:
 * @element: a #TraceElement
 * @pad: a pad it made on request
 */
void
trace_element_release_request_pad (TraceElement *element,
                                   TracePad *pad)
{
  g_return_if_fail (TRACE_IS_ELEMENT (element));
  g_return_if_fail (TRACE_IS_PAD (pad));

  TRACE_ELEMENT_GET_CLASS (element)->release_pad (element, pad);
}

/**
 * trace_element_get_compatible_pad:
 * @element: a #TraceElement
 * @pad: a pad of another element
 * @error: where to say why there is none
 *
 * Finds a pad of @element that @pad could link to: an unlinked pad of the
 * opposite direction and a compatible media type, or a new one requested
 * from a REQUEST template.
 *
 * Returns: (transfer none) (nullable): the pad
 */
TracePad *
trace_element_get_compatible_pad (TraceElement *element,
                                  TracePad *pad,
                                  GError **error)
{
  TracePadDirection want;
  g_autoptr (GList) templates = NULL;

  g_return_val_if_fail (TRACE_IS_ELEMENT (element), NULL);
  g_return_val_if_fail (TRACE_IS_PAD (pad), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  want = trace_pad_get_direction (pad) == TRACE_PAD_SRC ? TRACE_PAD_SINK : TRACE_PAD_SRC;
  for (GList *l = PRIV (element)->pads.head; l; l = l->next)
    {
      TracePad *candidate = l->data;

      if (trace_pad_get_direction (candidate) != want || trace_pad_is_linked (candidate))
        continue;
      return candidate;
    }
  templates = trace_element_class_get_pad_template_list (TRACE_ELEMENT_GET_CLASS (element));
  for (GList *l = templates; l; l = l->next)
    if (trace_pad_template_get_direction (l->data) == want &&
        trace_pad_template_get_presence (l->data) == TRACE_PAD_REQUEST)
      return trace_element_request_pad (element, trace_pad_template_get_name_template (l->data), error);

  if (count_pads (element, want) == 0)
    g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_PAD,
                 "%s has no %s pad: it is a %s", PRIV (element)->name,
                 want == TRACE_PAD_SINK ? "sink" : "src",
                 want == TRACE_PAD_SINK ? "source and takes no input" : "sink and produces no output");
  else
    g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_PAD,
                 "every %s pad of %s is already linked", want == TRACE_PAD_SINK ? "sink" : "src",
                 PRIV (element)->name);
  return NULL;
}
