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
  g_assert_cmpstr (typo->err, ==, "No such element \"fakesnk\" (did you mean \"fakesink\"?)\n");
  g_assert_cmpint (none->status, ==, 1);
  g_assert_cmpstr (none->err, ==, "No such element \"zzzzzzzzzz\"; trace-inspect without an argument lists them all\n");
  g_assert_cmpint (two->status, ==, 2);
  g_assert_cmpint (failed_and_name->status, ==, 2);
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

void
add_inspect_tests (void)
{
  g_test_add_func ("/tools/inspect/list", test_list);
  g_test_add_func ("/tools/inspect/element-text", test_element_text);
  g_test_add_func ("/tools/inspect/element-json", test_element_json);
  g_test_add_func ("/tools/inspect/unknown-and-usage", test_unknown_and_usage);
  g_test_add_func ("/tools/inspect/failed-plugins", test_failed_plugins);
}
