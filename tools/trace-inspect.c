/* tracepipe tools - trace-inspect: what plugins and elements there are
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "inspect.h"
#include "tool-util.h"

#define SUMMARY                                                                \
  "Without an argument, lists every plugin and its elements. With the name\n"  \
  "of an element, shows its plugin, pads, properties (type, range, default,\n" \
  "values, when they may change) and signals; with the name of a plugin,\n"    \
  "its details, elements and type finders."

#define DESCRIPTION                                                              \
  "Examples:\n"                                                                  \
  "  trace-inspect                  every element, one line each\n"              \
  "  trace-inspect ftrace-src       one element in detail\n"                     \
  "  trace-inspect ftrace           one plugin: its elements and formats\n"      \
  "  trace-inspect --formats        the formats auto-src detects\n"              \
  "  trace-inspect --failed         plugins that could not be loaded, and why\n" \
  "  trace-inspect --json fakesrc   the same, as JSON for scripts\n"             \
  "\n"                                                                           \
  "Exit status: 0 on success, 1 when no element or plugin has the name, 2 on\n"  \
  "bad usage."

/* --- queries shared with the JSON output --- */

TracePlugin *
inspect_find_plugin (const char *name)
{
  g_autoptr (GList) plugins = trace_registry_get_plugins ();

  for (GList *l = plugins; l; l = l->next)
    if (g_strcmp0 (trace_plugin_get_name (l->data), name) == 0)
      return l->data;
  return NULL;
}

/* Returns: (transfer container): the factories of a plugin, by name */
GList *
inspect_factories_of_plugin (const char *plugin_name)
{
  GList *factories = trace_registry_get_element_factories (), *out = NULL;

  for (GList *l = factories; l; l = l->next)
    if (g_strcmp0 (trace_element_factory_get_plugin_name (l->data), plugin_name) == 0)
      out = g_list_prepend (out, l->data);
  g_list_free (factories);
  return g_list_reverse (out);
}

/* Returns: (transfer full): the formats whose detector picks the element */
GList *
inspect_type_finder_formats (const char *element_name)
{
  GList *finders = trace_registry_get_type_finders (), *out = NULL;

  for (GList *l = finders; l; l = l->next)
    {
      const char *entry = l->data, *space = strrchr (entry, ' ');

      if (space != NULL && strcmp (space + 1, element_name) == 0)
        out = g_list_append (out, g_strndup (entry, space - entry));
    }
  g_list_free_full (finders, g_free);
  return out;
}

/* Returns: (transfer full): the type finders as #InspectFormat, in the
 * order auto-src tries them */
GList *
inspect_formats (void)
{
  GList *finders = trace_registry_get_type_finders (), *out = NULL;

  for (GList *l = finders; l; l = l->next)
    {
      const char *entry = l->data, *space = strrchr (entry, ' ');
      InspectFormat *f;
      TraceElementFactory *factory;

      if (space == NULL)
        continue;
      f = g_new0 (InspectFormat, 1);
      f->format = g_strndup (entry, space - entry);
      f->element = g_strdup (space + 1);
      factory = trace_element_factory_find (f->element);
      f->plugin = g_strdup (factory ? trace_element_factory_get_plugin_name (factory) : NULL);
      out = g_list_prepend (out, f);
    }
  g_list_free_full (finders, g_free);
  return g_list_reverse (out);
}

void
inspect_format_free (InspectFormat *f)
{
  g_free (f->format);
  g_free (f->element);
  g_free (f->plugin);
  g_free (f);
}

/* Returns: (transfer container): the element's properties, parents' first */
GList *
inspect_element_properties (TraceElementFactory *factory)
{
  GObjectClass *klass = g_type_class_peek (trace_element_factory_get_element_type (factory));
  guint n = 0;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (klass, &n);
  GList *out = NULL;

  for (guint i = 0; i < n; i++)
    out = g_list_append (out, pspecs[i]);
  return out;
}

/* Returns: the ids of the signals of the element's type and its parents up
 * to TraceElement */
GArray *
inspect_element_signals (TraceElementFactory *factory)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint));

  for (GType t = trace_element_factory_get_element_type (factory); t != 0 && g_type_is_a (t, TRACE_TYPE_ELEMENT);
       t = g_type_parent (t))
    {
      guint n = 0;
      g_autofree guint *ids = g_signal_list_ids (t, &n);

      g_array_append_vals (out, ids, n);
    }
  return out;
}

/* --- text output --- */

static const char *
or_dash (const char *s)
{
  return s && *s ? s : "-";
}

static int
print_list (void)
{
  g_autoptr (GList) plugins = trace_registry_get_plugins ();
  g_autoptr (GHashTable) failed = trace_registry_get_failed_plugins ();
  guint n_elements = 0;

  for (GList *p = plugins; p; p = p->next)
    {
      const char *plugin = trace_plugin_get_name (p->data);
      g_autoptr (GList) factories = inspect_factories_of_plugin (plugin);

      for (GList *l = factories; l; l = l->next, n_elements++)
        g_print ("%s:  %s: %s\n", plugin, trace_element_factory_get_name (l->data),
                 or_dash (trace_element_factory_get_metadata (l->data, TRACE_ELEMENT_METADATA_DESCRIPTION)));
    }
  g_print ("\nTotal: %u plugin%s, %u element%s\n", g_list_length (plugins), g_list_length (plugins) == 1 ? "" : "s",
           n_elements, n_elements == 1 ? "" : "s");
  if (g_hash_table_size (failed) > 0)
    g_print ("%u plugin%s could not be loaded; see trace-inspect --failed\n", g_hash_table_size (failed),
             g_hash_table_size (failed) == 1 ? "" : "s");
  return INSPECT_EXIT_OK;
}

static int
print_failed (void)
{
  g_autoptr (GHashTable) failed = trace_registry_get_failed_plugins ();
  g_autoptr (GList) files = g_list_sort (g_hash_table_get_keys (failed), (GCompareFunc) g_strcmp0);

  if (files == NULL)
    g_print ("Every plugin was loaded.\n");
  for (GList *l = files; l; l = l->next)
    g_print ("%s: %s\n", (char *) l->data, (char *) g_hash_table_lookup (failed, l->data));
  return INSPECT_EXIT_OK;
}

static void
print_plugin_details (TracePlugin *plugin)
{
  g_print ("  %-16s%s\n", "Name", trace_plugin_get_name (plugin));
  g_print ("  %-16s%s\n", "Description", or_dash (trace_plugin_get_description (plugin)));
  g_print ("  %-16s%s\n", "Filename",
           trace_plugin_get_filename (plugin) ? trace_plugin_get_filename (plugin) : "(built into the library)");
  g_print ("  %-16s%s\n", "Version", or_dash (trace_plugin_get_version (plugin)));
  g_print ("  %-16s%s\n", "License", or_dash (trace_plugin_get_license (plugin)));
}

static void
print_factory_details (TraceElementFactory *factory)
{
  TracePlugin *plugin = inspect_find_plugin (trace_element_factory_get_plugin_name (factory));
  GList *formats = inspect_type_finder_formats (trace_element_factory_get_name (factory));

  g_print ("Factory Details:\n");
  g_print ("  %-16s%s\n", "Name", trace_element_factory_get_name (factory));
  g_print ("  %-16s%s\n", "Long name", or_dash (trace_element_factory_get_metadata (factory, TRACE_ELEMENT_METADATA_LONGNAME)));
  g_print ("  %-16s%s\n", "Klass", or_dash (trace_element_factory_get_metadata (factory, TRACE_ELEMENT_METADATA_KLASS)));
  g_print ("  %-16s%s\n", "Description", or_dash (trace_element_factory_get_metadata (factory, TRACE_ELEMENT_METADATA_DESCRIPTION)));
  g_print ("  %-16s%s\n", "Author", or_dash (trace_element_factory_get_metadata (factory, TRACE_ELEMENT_METADATA_AUTHOR)));
  g_print ("  %-16s%u\n", "Rank", trace_element_factory_get_rank (factory));
  g_print ("\nPlugin Details:\n");
  if (plugin != NULL)
    print_plugin_details (plugin);
  else
    g_print ("  %-16s%s\n", "Name", or_dash (trace_element_factory_get_plugin_name (factory)));
  g_print ("\nType finders:\n");
  if (formats == NULL)
    g_print ("  none\n");
  for (GList *l = formats; l; l = l->next)
    g_print ("  chosen for %s input\n", (char *) l->data);
  g_list_free_full (formats, g_free);
}

static void
print_pad_templates (TraceElementFactory *factory)
{
  g_autoptr (GList) templates = trace_element_factory_get_pad_templates (factory);

  g_print ("\nPad Templates:\n");
  if (templates == NULL)
    g_print ("  none\n");
  for (GList *l = templates; l; l = l->next)
    {
      TracePadTemplate *t = l->data;

      g_print ("  %s template: '%s'\n", trace_pad_template_get_direction (t) == TRACE_PAD_SRC ? "SRC" : "SINK",
               trace_pad_template_get_name_template (t));
      g_print ("    Availability: %s\n", trace_pad_template_get_presence (t) == TRACE_PAD_REQUEST ? "On request" : "Always");
      g_print ("    Media type: %s\n", trace_pad_template_get_media_type (t));
    }
}

static char *
access_text (GParamSpec *pspec)
{
  gboolean r = pspec->flags & G_PARAM_READABLE, w = pspec->flags & G_PARAM_WRITABLE;
  const char *when = tool_mutability (pspec);

  if (!w)
    return g_strdup ("read-only");
  if (strcmp (when, "playing") == 0)
    return g_strdup_printf ("%s, may change while the pipeline runs", r ? "read-write" : "write-only");
  if (strcmp (when, "ready") == 0)
    return g_strdup_printf ("%s, may change until the pipeline plays (NULL or READY)", r ? "read-write" : "write-only");
  return g_strdup_printf ("%s, set before the pipeline starts (NULL state only)", r ? "read-write" : "write-only");
}

static void
print_property (GParamSpec *pspec)
{
  g_autofree char *type = trace_describe_param_type (pspec);
  g_autofree char *access = access_text (pspec);
  const GValue *def = g_param_spec_get_default_value (pspec);
  g_autofree char *def_text = tool_property_to_string (pspec, def);

  g_print ("  %-20s: %s\n", pspec->name, or_dash (g_param_spec_get_blurb (pspec)));
  g_print ("  %-20s  %s; default: %s\n", "", type, def_text);
  g_print ("  %-20s  %s\n", "", access);
}

static void
print_signals (TraceElementFactory *factory)
{
  g_autoptr (GArray) ids = inspect_element_signals (factory);

  g_print ("\nElement Signals:\n");
  if (ids->len == 0)
    g_print ("  none\n");
  for (guint i = 0; i < ids->len; i++)
    {
      GSignalQuery q;

      g_signal_query (g_array_index (ids, guint, i), &q);
      g_print ("  \"%s\": %s user_function (%s *element", q.signal_name, g_type_name (q.return_type),
               g_type_name (q.itype));
      for (guint p = 0; p < q.n_params; p++)
        g_print (", %s arg%u", g_type_name (q.param_types[p] & ~G_SIGNAL_TYPE_STATIC_SCOPE), p);
      g_print (", gpointer user_data);\n");
    }
}

static int
print_element (TraceElementFactory *factory)
{
  g_autoptr (GList) props = inspect_element_properties (factory);

  print_factory_details (factory);
  print_pad_templates (factory);
  g_print ("\nElement Properties:\n");
  for (GList *l = props; l; l = l->next)
    print_property (l->data);
  print_signals (factory);
  return INSPECT_EXIT_OK;
}

/* `trace-inspect PLUGIN`: what gst-inspect shows for a plugin. */
static int
print_plugin (TracePlugin *plugin)
{
  g_autoptr (GList) factories = inspect_factories_of_plugin (trace_plugin_get_name (plugin));
  GList *formats = inspect_formats ();
  guint n_formats = 0;

  g_print ("Plugin Details:\n");
  print_plugin_details (plugin);
  g_print ("\nElements:\n");
  if (factories == NULL)
    g_print ("  none\n");
  for (GList *l = factories; l; l = l->next)
    g_print ("  %s: %s\n", trace_element_factory_get_name (l->data),
             or_dash (trace_element_factory_get_metadata (l->data, TRACE_ELEMENT_METADATA_DESCRIPTION)));
  g_print ("\nType finders:\n");
  for (GList *l = formats; l; l = l->next)
    {
      InspectFormat *f = l->data;

      if (g_strcmp0 (f->plugin, trace_plugin_get_name (plugin)) == 0 && ++n_formats)
        g_print ("  %s: read by %s\n", f->format, f->element);
    }
  if (n_formats == 0)
    g_print ("  none\n");
  g_list_free_full (formats, (GDestroyNotify) inspect_format_free);
  return INSPECT_EXIT_OK;
}

/* `trace-inspect --formats`: one line per format auto-src detects, in
 * the order it asks the detectors: "format  element  plugin". */
static int
print_formats (void)
{
  GList *formats = inspect_formats ();
  guint n = g_list_length (formats);

  for (GList *l = formats; l; l = l->next)
    {
      InspectFormat *f = l->data;

      g_print ("%-16s %-16s %s\n", f->format, f->element, or_dash (f->plugin));
    }
  g_print ("\nTotal: %u format%s that auto-src detects\n", n, n == 1 ? "" : "s");
  g_list_free_full (formats, (GDestroyNotify) inspect_format_free);
  return INSPECT_EXIT_OK;
}

/* --- main --- */

static int
not_found (const char *name)
{
  g_autofree char *guess = trace_registry_suggest_element (name);

  if (guess != NULL)
    g_printerr ("No such element or plugin \"%s\" (did you mean \"%s\"?)\n", name, guess);
  else
    g_printerr ("No such element or plugin \"%s\"; trace-inspect without an argument lists them all\n", name);
  return INSPECT_EXIT_NOT_FOUND;
}

static int
print_json (char *json)
{
  /* data: its UTF-8 bytes as they are, whatever the locale */
  fputs (json, stdout);
  fputc ('\n', stdout);
  g_free (json);
  return INSPECT_EXIT_OK;
}

typedef enum
{
  SHOW_NAMED, /* the element or plugin named, or the list */
  SHOW_FAILED,
  SHOW_FORMATS,
} Show;

static int
inspect (const char *name,
         Show show,
         gboolean json)
{
  TraceElementFactory *factory;
  TracePlugin *plugin;

  if (show == SHOW_FAILED)
    return json ? print_json (inspect_json_failed ()) : print_failed ();
  if (show == SHOW_FORMATS)
    return json ? print_json (inspect_json_formats ()) : print_formats ();
  if (name == NULL)
    return json ? print_json (inspect_json_list ()) : print_list ();
  /* Elements first, as gst-inspect: a plugin may name its one element. */
  if ((factory = trace_element_factory_find (name)) != NULL)
    return json ? print_json (inspect_json_element (factory)) : print_element (factory);
  if ((plugin = inspect_find_plugin (name)) != NULL)
    return json ? print_json (inspect_json_plugin (plugin)) : print_plugin (plugin);
  return not_found (name);
}

int
main (int argc,
      char **argv)
{
  gboolean json = FALSE, failed = FALSE, formats = FALSE, version = FALSE;
  g_auto (GStrv) words = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON, for scripts", NULL },
    { "failed", 0, 0, G_OPTION_ARG_NONE, &failed, "List the plugins that failed to load, and why", NULL },
    { "formats", 0, 0, G_OPTION_ARG_NONE, &formats, "List the formats auto-src detects, and what reads them", NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, &version, "Print the version and exit", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &words, NULL, "[ELEMENT|PLUGIN]" },
    { NULL }
  };
  g_autoptr (GError) error = NULL;

  tool_init_process ();
  if (!tool_parse_options (entries, SUMMARY, DESCRIPTION, &argc, &argv, &error) ||
      (words != NULL && g_strv_length (words) > 1) || ((failed || formats) && words != NULL) || (failed && formats))
    {
      g_printerr ("trace-inspect: %s\nTry \"trace-inspect --help\".\n",
                  error ? error->message
                        : "give at most one element or plugin name, and none with --failed or --formats");
      return INSPECT_EXIT_USAGE;
    }
  if (version)
    {
      g_print ("trace-inspect (tracepipe) %s\n", PACKAGE_VERSION);
      return INSPECT_EXIT_OK;
    }
  if (!trace_init_check (&argc, &argv, &error))
    {
      g_printerr ("ERROR: could not initialise tracepipe: %s\n", error->message);
      return INSPECT_EXIT_NOT_FOUND;
    }
  return inspect (words ? words[0] : NULL, failed ? SHOW_FAILED : formats ? SHOW_FORMATS
                                                                          : SHOW_NAMED,
                  json);
}
