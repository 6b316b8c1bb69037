/* tracepipe tools - trace-inspect --json
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "inspect.h"
#include "tool-util.h"

static char *
to_json (JsonBuilder *builder)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = json_builder_get_root (builder);

  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, root);
  return trace_json_text_escape_controls (json_generator_to_data (gen, NULL));
}

static void
add_string (JsonBuilder *b,
            const char *key,
            const char *value)
{
  json_builder_set_member_name (b, key);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_plugin (JsonBuilder *b,
            TracePlugin *plugin)
{
  json_builder_begin_object (b);
  add_string (b, "name", trace_plugin_get_name (plugin));
  add_string (b, "description", trace_plugin_get_description (plugin));
  add_string (b, "filename", trace_plugin_get_filename (plugin));
  add_string (b, "version", trace_plugin_get_version (plugin));
  add_string (b, "license", trace_plugin_get_license (plugin));
}

static void
add_factory_summary (JsonBuilder *b,
                     TraceElementFactory *f)
{
  add_string (b, "name", trace_element_factory_get_name (f));
  add_string (b, "long-name", trace_element_factory_get_metadata (f, TRACE_ELEMENT_METADATA_LONGNAME));
  add_string (b, "klass", trace_element_factory_get_metadata (f, TRACE_ELEMENT_METADATA_KLASS));
  add_string (b, "description", trace_element_factory_get_metadata (f, TRACE_ELEMENT_METADATA_DESCRIPTION));
  json_builder_set_member_name (b, "rank");
  json_builder_add_int_value (b, trace_element_factory_get_rank (f));
}

static void
add_failed (JsonBuilder *b)
{
  g_autoptr (GHashTable) failed = trace_registry_get_failed_plugins ();
  g_autoptr (GList) files = g_list_sort (g_hash_table_get_keys (failed), (GCompareFunc) g_strcmp0);

  json_builder_set_member_name (b, "failed");
  json_builder_begin_array (b);
  for (GList *l = files; l; l = l->next)
    {
      json_builder_begin_object (b);
      add_string (b, "filename", l->data);
      add_string (b, "reason", g_hash_table_lookup (failed, l->data));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/**
 * inspect_json_list:
 *
 * Returns: `{"plugins": [{…, "elements": [{name, long-name, klass,
 *   description, rank}]}], "failed": [{filename, reason}]}`
 */
char *
inspect_json_list (void)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (GList) plugins = trace_registry_get_plugins ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "plugins");
  json_builder_begin_array (b);
  for (GList *p = plugins; p; p = p->next)
    {
      g_autoptr (GList) factories = inspect_factories_of_plugin (trace_plugin_get_name (p->data));

      add_plugin (b, p->data);
      json_builder_set_member_name (b, "elements");
      json_builder_begin_array (b);
      for (GList *l = factories; l; l = l->next)
        {
          json_builder_begin_object (b);
          add_factory_summary (b, l->data);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_failed (b);
  json_builder_end_object (b);
  return to_json (b);
}

/**
 * inspect_json_failed:
 *
 * Returns: `{"failed": [{filename, reason}]}`
 */
char *
inspect_json_failed (void)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  add_failed (b);
  json_builder_end_object (b);
  return to_json (b);
}

/* A value as typed JSON: numbers as numbers (a 64-bit unsigned too large
 * for JSON's integers as a string), enums by nick, flags as "a+b". */
static void
add_value (JsonBuilder *b,
           const GValue *value)
{
  switch (G_TYPE_FUNDAMENTAL (G_VALUE_TYPE (value)))
    {
    case G_TYPE_BOOLEAN:
      json_builder_add_boolean_value (b, g_value_get_boolean (value));
      return;
    case G_TYPE_INT:
      json_builder_add_int_value (b, g_value_get_int (value));
      return;
    case G_TYPE_UINT:
      json_builder_add_int_value (b, g_value_get_uint (value));
      return;
    case G_TYPE_LONG:
      json_builder_add_int_value (b, g_value_get_long (value));
      return;
    case G_TYPE_INT64:
      json_builder_add_int_value (b, g_value_get_int64 (value));
      return;
    case G_TYPE_DOUBLE:
      json_builder_add_double_value (b, g_value_get_double (value));
      return;
    case G_TYPE_FLOAT:
      json_builder_add_double_value (b, g_value_get_float (value));
      return;
    case G_TYPE_STRING:
      if (g_value_get_string (value) == NULL)
        json_builder_add_null_value (b);
      else
        json_builder_add_string_value (b, g_value_get_string (value));
      return;
    default:
      break;
    }
  if (G_VALUE_HOLDS_UINT64 (value) && g_value_get_uint64 (value) <= G_MAXINT64)
    json_builder_add_int_value (b, (gint64) g_value_get_uint64 (value));
  else if (G_VALUE_HOLDS_ULONG (value) && g_value_get_ulong (value) <= G_MAXINT64)
    json_builder_add_int_value (b, (gint64) g_value_get_ulong (value));
  else if (G_VALUE_HOLDS_ENUM (value) || G_VALUE_HOLDS_FLAGS (value) || G_VALUE_HOLDS_UINT64 (value) ||
           G_VALUE_HOLDS_ULONG (value))
    {
      g_autofree char *text = tool_value_to_string (value);

      json_builder_add_string_value (b, text);
    }
  else
    json_builder_add_null_value (b);
}

/* Range of a numeric property, as "minimum" and "maximum" members. */
static void
add_range (JsonBuilder *b,
           GParamSpec *pspec)
{
  g_auto (GValue) min = G_VALUE_INIT;
  g_auto (GValue) max = G_VALUE_INIT;

#define RANGE(TYPE, SETTER)                                \
  if (G_IS_PARAM_SPEC_##TYPE (pspec))                      \
    {                                                      \
      g_value_init (&min, pspec->value_type);              \
      g_value_init (&max, pspec->value_type);              \
      SETTER (&min, G_PARAM_SPEC_##TYPE (pspec)->minimum); \
      SETTER (&max, G_PARAM_SPEC_##TYPE (pspec)->maximum); \
    }
  RANGE (INT, g_value_set_int)
  else RANGE (UINT, g_value_set_uint) else RANGE (LONG, g_value_set_long) else RANGE (ULONG, g_value_set_ulong) else RANGE (INT64, g_value_set_int64) else RANGE (UINT64, g_value_set_uint64) else RANGE (DOUBLE, g_value_set_double) else RANGE (FLOAT, g_value_set_float) else return;
#undef RANGE
  json_builder_set_member_name (b, "minimum");
  add_value (b, &min);
  json_builder_set_member_name (b, "maximum");
  add_value (b, &max);
}

static void
add_choices (JsonBuilder *b,
             GParamSpec *pspec)
{
  GEnumValue *ev = NULL;
  GFlagsValue *fv = NULL;
  const char *const *strings = trace_param_spec_get_choices (pspec);
  guint n;

  if (strings != NULL)
    {
      /* A string with a fixed set of values: as an enum's, by nick. */
      json_builder_set_member_name (b, "values");
      json_builder_begin_array (b);
      for (guint i = 0; strings[i]; i++)
        {
          json_builder_begin_object (b);
          add_string (b, "nick", strings[i]);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      return;
    }
  if (G_IS_PARAM_SPEC_ENUM (pspec))
    ev = G_PARAM_SPEC_ENUM (pspec)->enum_class->values, n = G_PARAM_SPEC_ENUM (pspec)->enum_class->n_values;
  else if (G_IS_PARAM_SPEC_FLAGS (pspec))
    fv = G_PARAM_SPEC_FLAGS (pspec)->flags_class->values, n = G_PARAM_SPEC_FLAGS (pspec)->flags_class->n_values;
  else
    return;
  json_builder_set_member_name (b, "values");
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      json_builder_begin_object (b);
      add_string (b, "nick", ev ? ev[i].value_nick : fv[i].value_nick);
      add_string (b, "name", ev ? ev[i].value_name : fv[i].value_name);
      json_builder_set_member_name (b, "value");
      json_builder_add_int_value (b, ev ? ev[i].value : (gint64) fv[i].value);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_property (JsonBuilder *b,
              GParamSpec *pspec)
{
  g_autofree char *described = trace_describe_param_type (pspec);

  json_builder_begin_object (b);
  add_string (b, "name", pspec->name);
  add_string (b, "blurb", g_param_spec_get_blurb (pspec));
  add_string (b, "type", g_type_name (pspec->value_type));
  add_string (b, "accepts", described);
  json_builder_set_member_name (b, "readable");
  json_builder_add_boolean_value (b, (pspec->flags & G_PARAM_READABLE) != 0);
  json_builder_set_member_name (b, "writable");
  json_builder_add_boolean_value (b, (pspec->flags & G_PARAM_WRITABLE) != 0);
  add_string (b, "mutable-in", tool_mutability (pspec));
  json_builder_set_member_name (b, "default");
  add_value (b, g_param_spec_get_default_value (pspec));
  add_range (b, pspec);
  add_choices (b, pspec);
  json_builder_end_object (b);
}

static void
add_pad_templates (JsonBuilder *b,
                   TraceElementFactory *factory)
{
  g_autoptr (GList) templates = trace_element_factory_get_pad_templates (factory);

  json_builder_set_member_name (b, "pad-templates");
  json_builder_begin_array (b);
  for (GList *l = templates; l; l = l->next)
    {
      json_builder_begin_object (b);
      add_string (b, "name", trace_pad_template_get_name_template (l->data));
      add_string (b, "direction", tool_direction_name (trace_pad_template_get_direction (l->data)));
      add_string (b, "presence", tool_presence_name (trace_pad_template_get_presence (l->data)));
      add_string (b, "media-type", trace_pad_template_get_media_type (l->data));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_signals (JsonBuilder *b,
             TraceElementFactory *factory)
{
  g_autoptr (GArray) ids = inspect_element_signals (factory);

  json_builder_set_member_name (b, "signals");
  json_builder_begin_array (b);
  for (guint i = 0; i < ids->len; i++)
    {
      GSignalQuery q;

      g_signal_query (g_array_index (ids, guint, i), &q);
      json_builder_begin_object (b);
      add_string (b, "name", q.signal_name);
      add_string (b, "return-type", g_type_name (q.return_type));
      json_builder_set_member_name (b, "parameters");
      json_builder_begin_array (b);
      for (guint p = 0; p < q.n_params; p++)
        json_builder_add_string_value (b, g_type_name (q.param_types[p] & ~G_SIGNAL_TYPE_STATIC_SCOPE));
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_type_finders (JsonBuilder *b,
                  TraceElementFactory *factory)
{
  GList *formats = inspect_type_finder_formats (trace_element_factory_get_name (factory));

  json_builder_set_member_name (b, "type-finders");
  json_builder_begin_array (b);
  for (GList *l = formats; l; l = l->next)
    json_builder_add_string_value (b, l->data);
  json_builder_end_array (b);
  g_list_free_full (formats, g_free);
}

/**
 * inspect_json_element:
 * @factory: an element factory
 *
 * Returns: `{name, long-name, klass, description, author, rank, plugin,
 *   type-finders, pad-templates, properties, signals}`
 */
char *
inspect_json_element (TraceElementFactory *factory)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (GList) props = inspect_element_properties (factory);
  TracePlugin *plugin = inspect_find_plugin (trace_element_factory_get_plugin_name (factory));

  json_builder_begin_object (b);
  add_factory_summary (b, factory);
  add_string (b, "author", trace_element_factory_get_metadata (factory, TRACE_ELEMENT_METADATA_AUTHOR));
  json_builder_set_member_name (b, "plugin");
  if (plugin != NULL)
    {
      add_plugin (b, plugin);
      json_builder_end_object (b);
    }
  else
    json_builder_add_string_value (b, trace_element_factory_get_plugin_name (factory));
  add_type_finders (b, factory);
  add_pad_templates (b, factory);
  json_builder_set_member_name (b, "properties");
  json_builder_begin_array (b);
  for (GList *l = props; l; l = l->next)
    add_property (b, l->data);
  json_builder_end_array (b);
  add_signals (b, factory);
  json_builder_end_object (b);
  return to_json (b);
}

static void
add_format (JsonBuilder *b,
            InspectFormat *f)
{
  json_builder_begin_object (b);
  add_string (b, "format", f->format);
  add_string (b, "element", f->element);
  add_string (b, "plugin", f->plugin);
  json_builder_end_object (b);
}

/**
 * inspect_json_plugin:
 * @plugin: a plugin
 *
 * Returns: `{name, description, filename, version, license, elements:
 *   [{name, long-name, klass, description, rank}], formats: [{format,
 *   element, plugin}]}`
 */
char *
inspect_json_plugin (TracePlugin *plugin)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (GList) factories = inspect_factories_of_plugin (trace_plugin_get_name (plugin));
  GList *formats = inspect_formats ();

  add_plugin (b, plugin);
  json_builder_set_member_name (b, "elements");
  json_builder_begin_array (b);
  for (GList *l = factories; l; l = l->next)
    {
      json_builder_begin_object (b);
      add_factory_summary (b, l->data);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "formats");
  json_builder_begin_array (b);
  for (GList *l = formats; l; l = l->next)
    if (g_strcmp0 (((InspectFormat *) l->data)->plugin, trace_plugin_get_name (plugin)) == 0)
      add_format (b, l->data);
  json_builder_end_array (b);
  json_builder_end_object (b);
  g_list_free_full (formats, (GDestroyNotify) inspect_format_free);
  return to_json (b);
}

/**
 * inspect_json_formats:
 *
 * Returns: `{"formats": [{format, element, plugin}]}`, in the order
 *   auto-src asks the detectors
 */
char *
inspect_json_formats (void)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  GList *formats = inspect_formats ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "formats");
  json_builder_begin_array (b);
  for (GList *l = formats; l; l = l->next)
    add_format (b, l->data);
  json_builder_end_array (b);
  json_builder_end_object (b);
  g_list_free_full (formats, (GDestroyNotify) inspect_format_free);
  return to_json (b);
}
