/* tracepipe - plugins and element factories
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "trace-private.h"

/**
 * TracePlugin:
 *
 * A set of elements registered together: the library's core elements,
 * or a loadable module exporting a #TracePluginDesc.
 */
struct _TracePlugin
{
  GObject parent_instance;

  char *name;
  char *description;
  char *filename;
  char *version;
  char *license;
  char *origin;
};

G_DEFINE_FINAL_TYPE (TracePlugin, trace_plugin, G_TYPE_OBJECT)

static void
trace_plugin_finalize (GObject *object)
{
  TracePlugin *self = TRACE_PLUGIN (object);

  g_free (self->name);
  g_free (self->description);
  g_free (self->filename);
  g_free (self->version);
  g_free (self->license);
  g_free (self->origin);
  G_OBJECT_CLASS (trace_plugin_parent_class)->finalize (object);
}

static void
trace_plugin_class_init (TracePluginClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = trace_plugin_finalize;
}

static void
trace_plugin_init (TracePlugin *self)
{
}

TracePlugin *
_trace_plugin_new_static (const TracePluginDesc *desc,
                          const char *filename)
{
  TracePlugin *plugin = g_object_new (TRACE_TYPE_PLUGIN, NULL);

  plugin->name = g_strdup (desc->name);
  plugin->description = g_strdup (desc->description);
  plugin->filename = g_strdup (filename);
  plugin->version = g_strdup (desc->version);
  plugin->license = g_strdup (desc->license);
  plugin->origin = g_strdup (desc->origin);
  return plugin;
}

/**
 * trace_plugin_get_name:
 * @plugin: a #TracePlugin
 *
 * Returns: its name
 */
const char *
trace_plugin_get_name (TracePlugin *plugin)
{
  g_return_val_if_fail (TRACE_IS_PLUGIN (plugin), NULL);

  return plugin->name;
}

/**
 * trace_plugin_get_description:
 * @plugin: a #TracePlugin
 *
 * Returns: one line on what it provides
 */
const char *
trace_plugin_get_description (TracePlugin *plugin)
{
  g_return_val_if_fail (TRACE_IS_PLUGIN (plugin), NULL);

  return plugin->description;
}

/**
 * trace_plugin_get_filename:
 * @plugin: a #TracePlugin
 *
 * Returns: (nullable): the module it was loaded from; %NULL if built in
 */
const char *
trace_plugin_get_filename (TracePlugin *plugin)
{
  g_return_val_if_fail (TRACE_IS_PLUGIN (plugin), NULL);

  return plugin->filename;
}

/**
 * trace_plugin_get_version:
 * @plugin: a #TracePlugin
 *
 * Returns: its version
 */
const char *
trace_plugin_get_version (TracePlugin *plugin)
{
  g_return_val_if_fail (TRACE_IS_PLUGIN (plugin), NULL);

  return plugin->version;
}

/**
 * trace_plugin_get_license:
 * @plugin: a #TracePlugin
 *
 * Returns: its licence
 */
const char *
trace_plugin_get_license (TracePlugin *plugin)
{
  g_return_val_if_fail (TRACE_IS_PLUGIN (plugin), NULL);

  return plugin->license;
}

/* ---- element factories ---- */

/**
 * TraceElementFactory:
 *
 * Makes elements by the name users type. Registered by plugins with
 * trace_element_register().
 */
struct _TraceElementFactory
{
  GObject parent_instance;

  char *name;
  GType type;
  guint rank;
  char *plugin_name;
  gint counter;
};

G_DEFINE_FINAL_TYPE (TraceElementFactory, trace_element_factory, G_TYPE_OBJECT)

static void
trace_element_factory_finalize (GObject *object)
{
  TraceElementFactory *self = TRACE_ELEMENT_FACTORY (object);

  g_free (self->name);
  g_free (self->plugin_name);
  G_OBJECT_CLASS (trace_element_factory_parent_class)->finalize (object);
}

static void
trace_element_factory_class_init (TraceElementFactoryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = trace_element_factory_finalize;
}

static void
trace_element_factory_init (TraceElementFactory *self)
{
}

TraceElementFactory *
_trace_element_factory_new (const char *name,
                            GType type,
                            guint rank,
                            const char *plugin_name)
{
  TraceElementFactory *factory = g_object_new (TRACE_TYPE_ELEMENT_FACTORY, NULL);

  factory->name = g_strdup (name);
  factory->type = type;
  factory->rank = rank;
  factory->plugin_name = g_strdup (plugin_name);
  /* Keep the class alive: metadata and templates are read from it. */
  g_type_class_ref (type);
  return factory;
}

/**
 * trace_element_factory_create:
 * @factory: a #TraceElementFactory
 * @name: (nullable): the element's name; the factory name and a number
 *   (`ftrace-src0`) if %NULL
 *
 * Returns: (transfer floating): a new element
 */
TraceElement *
trace_element_factory_create (TraceElementFactory *factory,
                              const char *name)
{
  g_return_val_if_fail (TRACE_IS_ELEMENT_FACTORY (factory), NULL);

  g_autofree char *generated = NULL;
  TraceElement *element;

  if (name == NULL)
    name = generated = g_strdup_printf ("%s%d", factory->name, g_atomic_int_add (&factory->counter, 1));
  element = g_object_new (factory->type, "name", name, NULL);
  _trace_element_set_factory_name (element, factory->name);
  return element;
}

/**
 * trace_element_factory_make_checked:
 * @factory_name: the name of a factory (`ftrace-src`)
 * @name: (nullable): the element's name
 * @error: where to say that no such element exists, with a suggestion
 *
 * Returns: (transfer floating) (nullable): a new element
 */
TraceElement *
trace_element_factory_make_checked (const char *factory_name,
                                    const char *name,
                                    GError **error)
{
  TraceElementFactory *factory;
  g_autofree char *suggestion = NULL, *quoted = NULL;

  g_return_val_if_fail (factory_name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  factory = trace_element_factory_find (factory_name);
  if (factory)
    return trace_element_factory_create (factory, name);
  suggestion = trace_registry_suggest_element (factory_name);
  quoted = _trace_quote_value (factory_name);
  if (suggestion)
    g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_NO_SUCH_ELEMENT,
                 "no element %s (did you mean \"%s\"?)", quoted, suggestion);
  else
    g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_NO_SUCH_ELEMENT,
                 "no element %s (trace-inspect lists the elements there are)", quoted);
  return NULL;
}

/**
 * trace_element_factory_make:
 * @factory_name: the name of a factory
 * @name: (nullable): the element's name
 *
 * Returns: (transfer floating) (nullable): a new element, or %NULL if no
 *   factory has that name
 */
TraceElement *
trace_element_factory_make (const char *factory_name,
                            const char *name)
{
  g_return_val_if_fail (factory_name != NULL, NULL);

  return trace_element_factory_make_checked (factory_name, name, NULL);
}

/**
 * trace_element_factory_get_name:
 * @factory: a #TraceElementFactory
 *
 * Returns: the name users type
 */
const char *
trace_element_factory_get_name (TraceElementFactory *factory)
{
  g_return_val_if_fail (TRACE_IS_ELEMENT_FACTORY (factory), NULL);

  return factory->name;
}

/**
 * trace_element_factory_get_element_type:
 * @factory: a #TraceElementFactory
 *
 * Returns: the #GType of its elements
 */
GType
trace_element_factory_get_element_type (TraceElementFactory *factory)
{
  g_return_val_if_fail (TRACE_IS_ELEMENT_FACTORY (factory), G_TYPE_INVALID);

  return factory->type;
}

/**
 * trace_element_factory_get_rank:
 * @factory: a #TraceElementFactory
 *
 * Returns: its #TraceRank
 */
guint
trace_element_factory_get_rank (TraceElementFactory *factory)
{
  g_return_val_if_fail (TRACE_IS_ELEMENT_FACTORY (factory), 0);

  return factory->rank;
}

/**
 * trace_element_factory_get_plugin_name:
 * @factory: a #TraceElementFactory
 *
 * Returns: the plugin that registered it
 */
const char *
trace_element_factory_get_plugin_name (TraceElementFactory *factory)
{
  g_return_val_if_fail (TRACE_IS_ELEMENT_FACTORY (factory), NULL);

  return factory->plugin_name;
}

/**
 * trace_element_factory_get_metadata:
 * @factory: a #TraceElementFactory
 * @key: a `TRACE_ELEMENT_METADATA_*` key
 *
 * Returns: (nullable): the element class's metadata
 */
const char *
trace_element_factory_get_metadata (TraceElementFactory *factory,
                                    const char *key)
{
  TraceElementClass *klass;

  g_return_val_if_fail (TRACE_IS_ELEMENT_FACTORY (factory), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  klass = g_type_class_peek (factory->type);
  return klass ? trace_element_class_get_metadata (klass, key) : NULL;
}

/**
 * trace_element_factory_get_pad_templates:
 * @factory: a #TraceElementFactory
 *
 * Returns: (transfer container) (element-type TracePadTemplate): the pad
 *   templates of its elements
 */
GList *
trace_element_factory_get_pad_templates (TraceElementFactory *factory)
{
  g_return_val_if_fail (TRACE_IS_ELEMENT_FACTORY (factory), NULL);

  return trace_element_class_get_pad_template_list (g_type_class_peek (factory->type));
}
