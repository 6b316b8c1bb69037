/* tracepipe tests - trace-inspect, checked against the registry of this process
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include <trace/trace.h>

#include "tools-test.h"

static JsonNode *
parse_json (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static void
test_list (void)
{
  g_autoptr (Run) r = RUN ("trace-inspect", NULL, "--json");
  g_autoptr (GList) factories = trace_registry_get_element_factories ();
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GHashTable) listed = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (Run) plain = run_tool ("trace-inspect", NULL, (const char *const[]){ NULL });
  JsonArray *plugins;

  g_assert_cmpint (r->status, ==, 0);
  root = parse_json (r->out);
  plugins = json_object_get_array_member (json_node_get_object (root), "plugins");
  for (guint i = 0; i < json_array_get_length (plugins); i++)
    {
      JsonObject *plugin = json_array_get_object_element (plugins, i);
      JsonArray *elements = json_object_get_array_member (plugin, "elements");

      for (guint j = 0; j < json_array_get_length (elements); j++)
        {
          JsonObject *e = json_array_get_object_element (elements, j);
          TraceElementFactory *f = trace_element_factory_find (json_object_get_string_member (e, "name"));

          g_assert_nonnull (f);
          g_assert_cmpstr (json_object_get_string_member (plugin, "name"), ==, trace_element_factory_get_plugin_name (f));
          g_assert_cmpstr (json_object_get_string_member (e, "description"), ==,
                           trace_element_factory_get_metadata (f, TRACE_ELEMENT_METADATA_DESCRIPTION));
          g_hash_table_add (listed, (gpointer) trace_element_factory_get_name (f));
        }
    }
  g_assert_cmpuint (g_hash_table_size (listed), ==, g_list_length (factories));
  g_assert_true (json_object_has_member (json_node_get_object (root), "failed"));

  /* the text list has one line per element: "plugin:  name: description" */
  g_assert_cmpint (plain->status, ==, 0);
  for (GList *l = factories; l; l = l->next)
    {
      g_autofree char *line = g_strdup_printf ("%s:  %s: %s\n", trace_element_factory_get_plugin_name (l->data),
                                               trace_element_factory_get_name (l->data),
                                               trace_element_factory_get_metadata (l->data, TRACE_ELEMENT_METADATA_DESCRIPTION));

      g_assert_nonnull (strstr (plain->out, line));
    }
}

static void
test_element_text (void)
{
  g_autoptr (Run) r = RUN ("trace-inspect", NULL, "fakesrc");
  GObjectClass *klass = g_type_class_peek (trace_element_factory_get_element_type (trace_element_factory_find ("fakesrc")));
  guint n = 0;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (klass, &n);

  g_assert_cmpint (r->status, ==, 0);
  g_assert_true (g_str_has_prefix (r->out, "Factory Details:\n  Name            fakesrc\n"));
  g_assert_nonnull (strstr (r->out, "\nPad Templates:\n  SRC template: 'src'\n    Availability: Always\n"
                                    "    Media type: trace/events\n"));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *line = g_strdup_printf ("\n  %-20s: %s\n", pspecs[i]->name, g_param_spec_get_blurb (pspecs[i]));
      g_autofree char *type = trace_describe_param_type (pspecs[i]);

      g_assert_nonnull (strstr (r->out, line));
      g_assert_nonnull (strstr (r->out, type));
    }
}

static JsonObject *
find_named (JsonArray *array,
            const char *name)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *o = json_array_get_object_element (array, i);

      if (g_strcmp0 (json_object_get_string_member (o, "name"), name) == 0)
        return o;
    }
  return NULL;
}

static void
test_element_json (void)
{
  g_autoptr (Run) tee = RUN ("trace-inspect", NULL, "--json", "tee");
  g_autoptr (Run) src = RUN ("trace-inspect", NULL, "--json", "fakesrc");
  g_autoptr (JsonNode) tee_root = NULL, src_root = NULL;
  GObjectClass *klass = g_type_class_peek (trace_element_factory_get_element_type (trace_element_factory_find ("fakesrc")));
  GParamSpecInt64 *num_events = G_PARAM_SPEC_INT64 (g_object_class_find_property (klass, "num-events"));
  JsonObject *t, *prop;

  g_assert_cmpint (tee->status, ==, 0);
  tee_root = parse_json (tee->out);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (tee_root), "name"), ==, "tee");
  t = find_named (json_object_get_array_member (json_node_get_object (tee_root), "pad-templates"), "src_%u");
  g_assert_nonnull (t);
  g_assert_cmpstr (json_object_get_string_member (t, "direction"), ==, "src");
  g_assert_cmpstr (json_object_get_string_member (t, "presence"), ==, "request");
  g_assert_cmpstr (json_object_get_string_member (t, "media-type"), ==, "trace/events");
  t = find_named (json_object_get_array_member (json_node_get_object (tee_root), "pad-templates"), "sink");
  g_assert_cmpstr (json_object_get_string_member (t, "presence"), ==, "always");

  g_assert_cmpint (src->status, ==, 0);
  src_root = parse_json (src->out);
  prop = find_named (json_object_get_array_member (json_node_get_object (src_root), "properties"), "num-events");
  g_assert_nonnull (prop);
  g_assert_cmpstr (json_object_get_string_member (prop, "type"), ==, "gint64");
  g_assert_cmpint (json_object_get_int_member (prop, "default"), ==, num_events->default_value);
  g_assert_cmpint (json_object_get_int_member (prop, "minimum"), ==, num_events->minimum);
  g_assert_cmpint (json_object_get_int_member (prop, "maximum"), ==, num_events->maximum);
  g_assert_cmpstr (json_object_get_string_member (prop, "mutable-in"), ==, "null");
  g_assert_true (json_object_get_boolean_member (prop, "writable"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (json_node_get_object (src_root), "plugin"),
                                                  "name"),
                   ==, trace_element_factory_get_plugin_name (trace_element_factory_find ("fakesrc")));
}

static void
test_unknown_and_usage (void)
{
  g_autoptr (Run) typo = RUN ("trace-inspect", tools_test_isolated_env (), "fakesnk");
  g_autoptr (Run) none = RUN ("trace-inspect", tools_test_isolated_env (), "zzzzzzzzzz");
  g_autoptr (Run) two = RUN ("trace-inspect", NULL, "fakesrc", "fakesink");
  g_autoptr (Run) failed_and_name = RUN ("trace-inspect", NULL, "--failed", "fakesrc");

  g_assert_cmpint (typo->status, ==, 1);
  g_assert_cmpstr (typo->out, ==, "");
  g_assert_cmpstr (typo->err, ==, "No such element or plugin \"fakesnk\" (did you mean \"fakesink\"?)\n");
  g_assert_cmpint (none->status, ==, 1);
  g_assert_cmpstr (none->err, ==,
                   "No such element or plugin \"zzzzzzzzzz\"; trace-inspect without an argument lists them all\n");
  g_assert_cmpint (two->status, ==, 2);
  g_assert_cmpint (failed_and_name->status, ==, 2);
  {
    g_autoptr (Run) formats_and_name = RUN ("trace-inspect", NULL, "--formats", "fakesrc");
    g_autoptr (Run) formats_and_failed = RUN ("trace-inspect", NULL, "--formats", "--failed");

    g_assert_cmpint (formats_and_name->status, ==, 2);
    g_assert_cmpstr (formats_and_name->out, ==, "");
    g_assert_nonnull (strstr (formats_and_name->err, "none with --failed or --formats"));
    g_assert_cmpint (formats_and_failed->status, ==, 2);
  }
}

/* A plugin folder holding a file that is no plugin at all. */
static void
test_failed_plugins (void)
{
  g_autofree char *dir = g_build_filename (tools_test_scratch_dir (), "broken", NULL);
  g_autofree char *module = g_build_filename (dir, "libbroken." G_MODULE_SUFFIX, NULL);
  g_autofree char *path_var = g_strdup_printf ("TRACEPIPE_PLUGIN_PATH=%s", dir);
  g_autofree char *system_var = g_strdup_printf ("TRACEPIPE_PLUGIN_SYSTEM_PATH=%s", tools_test_empty_dir ());
  const char *env[] = { path_var, system_var, NULL };
  g_autofree char *prefix = g_strdup_printf ("%s: ", module);
  g_autoptr (JsonNode) root = NULL;
  JsonArray *failed;

  g_mkdir (dir, 0700);
  g_assert_true (g_file_set_contents (module, "this is not a shared library\n", -1, NULL));
  {
    g_autoptr (Run) text = RUN ("trace-inspect", env, "--failed");
    g_autoptr (Run) json = RUN ("trace-inspect", env, "--failed", "--json");
    g_autoptr (Run) list = run_tool ("trace-inspect", env, (const char *const[]){ NULL });
    g_autoptr (Run) launch = RUN ("trace-launch", env, "nosuch", "!", "fakesink");

    g_assert_cmpint (text->status, ==, 0);
    g_assert_true (g_str_has_prefix (text->out, prefix));
    g_assert_cmpint (json->status, ==, 0);
    root = parse_json (json->out);
    failed = json_object_get_array_member (json_node_get_object (root), "failed");
    g_assert_cmpuint (json_array_get_length (failed), ==, 1);
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (failed, 0), "filename"), ==, module);
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (failed, 0), "reason"), !=, "");
    g_assert_nonnull (strstr (list->out, "\n1 plugin could not be loaded; see trace-inspect --failed\n"));
    g_assert_cmpint (launch->status, ==, 2);
    g_assert_true (g_str_has_prefix (launch->err, "ERROR: invalid pipeline description: 1:1: no element \"nosuch\" "
                                                  "(trace-inspect lists the elements); 1 plugin failed to load "
                                                  "(see trace-inspect --failed)\n"));
  }
  g_unlink (module);
  g_rmdir (dir);
}

/* Every plugin the list names in its first column can be inspected:
 * its details, each of its elements, its type finders. */
static void
test_plugin (void)
{
  g_autoptr (GList) plugins = trace_registry_get_plugins ();

  g_assert_nonnull (plugins);
  for (GList *p = plugins; p; p = p->next)
    {
      const char *name = trace_plugin_get_name (p->data);
      g_autoptr (Run) text = RUN ("trace-inspect", NULL, name);
      g_autoptr (Run) json = RUN ("trace-inspect", NULL, "--json", name);
      g_autofree char *head = g_strdup_printf ("Plugin Details:\n  Name            %s\n", name);
      g_autoptr (GList) factories = trace_registry_get_element_factories ();
      g_autoptr (JsonNode) root = NULL;
      JsonArray *elements;
      guint n_own = 0;

      g_assert_cmpint (text->status, ==, 0);
      g_assert_cmpstr (text->err, ==, "");
      g_assert_true (g_str_has_prefix (text->out, head));
      g_assert_cmpint (json->status, ==, 0);
      root = parse_json (json->out);
      g_assert_cmpstr (json_object_get_string_member (json_node_get_object (root), "name"), ==, name);
      elements = json_object_get_array_member (json_node_get_object (root), "elements");
      for (GList *l = factories; l; l = l->next)
        {
          g_autofree char *line = NULL;

          if (g_strcmp0 (trace_element_factory_get_plugin_name (l->data), name) != 0)
            continue;
          n_own++;
          line = g_strdup_printf ("\n  %s: %s\n", trace_element_factory_get_name (l->data),
                                  trace_element_factory_get_metadata (l->data, TRACE_ELEMENT_METADATA_DESCRIPTION));
          g_assert_nonnull (strstr (text->out, line));
          g_assert_nonnull (find_named (elements, trace_element_factory_get_name (l->data)));
        }
      g_assert_cmpuint (json_array_get_length (elements), ==, n_own);
    }
}

/* The format trace_type_find_best() finds in the first bytes of @path,
 * and the element it picks. */
static const char *
detect (const char *path,
        const char **format)
{
  g_autofree char *contents = NULL;
  gsize length = 0;
  guint probability = 0;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  return trace_type_find_best ((const guint8 *) contents, MIN (length, 64 * 1024), format, &probability);
}

/* --formats lists each detector with its element and plugin; the
 * formats of real files from tests/data are among them, and auto-src
 * reads such a file as the listed element would. */
static void
test_formats (void)
{
  g_autoptr (Run) text = RUN ("trace-inspect", NULL, "--formats");
  g_autoptr (Run) json = RUN ("trace-inspect", NULL, "--json", "--formats");
  GList *finders = trace_registry_get_type_finders ();
  g_autoptr (JsonNode) root = NULL;
  JsonArray *formats;
  const char *samples[] = { "json/catapult_simple_trace.json", "ftrace/catapult_atrace_data.txt",
                            "perfetto/sdk_style.pftrace", "arkts/node20_inspector.cpuprofile" };
  guint checked = 0;

  g_assert_cmpint (text->status, ==, 0);
  g_assert_cmpstr (text->err, ==, "");
  g_assert_cmpint (json->status, ==, 0);
  root = parse_json (json->out);
  formats = json_object_get_array_member (json_node_get_object (root), "formats");
  g_assert_cmpuint (json_array_get_length (formats), ==, g_list_length (finders));
  g_assert_cmpuint (g_list_length (finders), >=, 1);
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = g_build_filename (TEST_DATA_DIR, samples[i], NULL);
      const char *format = NULL, *element = detect (path, &format);
      TraceElementFactory *factory;
      g_autofree char *line = NULL;
      g_autofree char *location = g_strdup_printf ("location=%s", path);
      g_autoptr (Run) via_auto = NULL, via_element = NULL;

      if (element == NULL || (factory = trace_element_factory_find (element)) == NULL)
        continue; /* that plugin is not built */
      line = g_strdup_printf ("%-16s %-16s %s\n", format, element, trace_element_factory_get_plugin_name (factory));
      g_assert_nonnull (strstr (text->out, line));
      via_auto = RUN ("trace-launch", NULL, "-q", "auto-src", location, "!", "fakesink", "dump=true");
      via_element = RUN ("trace-launch", NULL, "-q", element, location, "!", "fakesink", "dump=true");
      g_assert_cmpint (via_auto->status, ==, via_element->status);
      g_assert_cmpstr (via_auto->out, ==, via_element->out);
      checked++;
    }
  /* The json plugin is always built (json-glib is required). */
  g_assert_cmpuint (checked, >=, 1);
  g_list_free_full (finders, g_free);
}

/* A string property with a fixed set of values (ftrace-src format) is
 * shown with them, as an enum, and a launch string is checked against
 * them. */
static void
test_string_choices (void)
{
  TraceElementFactory *factory = trace_element_factory_find ("ftrace-src");
  g_autofree char *path = g_build_filename (TEST_DATA_DIR, "ftrace", "catapult_atrace_data.txt", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  const char *const *choices;
  GParamSpec *pspec;
  JsonArray *values;
  g_autoptr (JsonNode) root = NULL;

  if (factory == NULL)
    {
      g_test_skip ("ftrace-src is not built");
      return;
    }
  pspec = g_object_class_find_property (g_type_class_peek (trace_element_factory_get_element_type (factory)), "format");
  choices = trace_param_spec_get_choices (pspec);
  g_assert_nonnull (choices);
  g_assert_true (g_strv_contains (choices, "auto"));
  {
    g_autoptr (Run) text = RUN ("trace-inspect", NULL, "ftrace-src");
    g_autoptr (Run) json = RUN ("trace-inspect", NULL, "--json", "ftrace-src");
    g_autoptr (Run) good = RUN ("trace-launch", NULL, "-q", "ftrace-src", location, "format=ftrace", "!", "fakesink");
    g_autoptr (Run) bad = RUN ("trace-launch", NULL, "-q", "ftrace-src", location, "format=ftrac", "!", "fakesink");
    g_autoptr (GString) accepts = g_string_new ("one of ");

    for (guint i = 0; choices[i]; i++)
      g_string_append_printf (accepts, "%s\"%s\"", i ? ", " : "", choices[i]);
    g_assert_cmpint (text->status, ==, 0);
    g_assert_nonnull (strstr (text->out, accepts->str));
    g_assert_cmpint (json->status, ==, 0);
    root = parse_json (json->out);
    values = json_object_get_array_member (
        find_named (json_object_get_array_member (json_node_get_object (root), "properties"), "format"), "values");
    g_assert_cmpuint (json_array_get_length (values), ==, g_strv_length ((char **) choices));
    for (guint i = 0; choices[i]; i++)
      g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (values, i), "nick"), ==,
                       choices[i]);
    g_assert_cmpint (good->status, ==, 0);
    g_assert_cmpint (bad->status, ==, 2);
    g_assert_cmpstr (bad->out, ==, "");
    g_assert_nonnull (strstr (bad->err, "\"ftrac\" is not a valid value for \"format\""));
    g_assert_nonnull (strstr (bad->err, accepts->str));
    g_assert_nonnull (strstr (bad->err, "did you mean \"ftrace\"?"));
  }
}

void
add_inspect_tests (void)
{
  g_test_add_func ("/tools/inspect/plugin", test_plugin);
  g_test_add_func ("/tools/inspect/formats", test_formats);
  g_test_add_func ("/tools/inspect/string-choices", test_string_choices);
  g_test_add_func ("/tools/inspect/list", test_list);
  g_test_add_func ("/tools/inspect/element-text", test_element_text);
  g_test_add_func ("/tools/inspect/element-json", test_element_json);
  g_test_add_func ("/tools/inspect/unknown-and-usage", test_unknown_and_usage);
  g_test_add_func ("/tools/inspect/failed-plugins", test_failed_plugins);
}
