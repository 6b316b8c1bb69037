/* Plugin loading from TRACEPIPE_PLUGIN_PATH, and the reasons recorded for
 * plugins that cannot be used. */
#include <glib/gstdio.h>

#include "../test-util.h"

static void
test_good_plugin_loads (void)
{
  TraceElementFactory *f = trace_element_factory_find ("test-echo");

  g_assert_nonnull (f);
  g_assert_cmpstr (trace_element_factory_get_plugin_name (f), ==, "testgood");
  g_assert_cmpstr (trace_element_factory_get_metadata (f, TRACE_ELEMENT_METADATA_DESCRIPTION), ==,
                   "Passes events through (a test plugin)");
}

static const char *
find_failure (GHashTable *failed,
              const char *basename_part)
{
  GHashTableIter iter;
  gpointer k, v;

  g_hash_table_iter_init (&iter, failed);
  while (g_hash_table_iter_next (&iter, &k, &v))
    if (strstr (k, basename_part))
      return v;
  return NULL;
}

static void
test_failures_recorded (void)
{
  g_autoptr (GHashTable) failed = trace_registry_get_failed_plugins ();

  g_assert_cmpstr (find_failure (failed, "testplugin-badabi"), ==,
                   "plugin ABI mismatch: built for plugin ABI 999, this library has ABI 1");
  g_assert_cmpstr (find_failure (failed, "testplugin-nosymbol"), ==,
                   "no trace_plugin_desc symbol: not a tracepipe plugin");
  g_assert_null (find_failure (failed, "testplugin-good"));
  g_assert_null (trace_element_factory_find ("testbadabi"));
}

static void
test_unloadable_file (void)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "tracepipe-not-a-module.so", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) failed = NULL;

  g_file_set_contents (path, "not an ELF file", -1, NULL);
  g_assert_false (trace_registry_load_plugin (path, &error));
  g_assert_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_PLUGIN);
  g_assert_true (g_str_has_prefix (error->message, "cannot load: "));
  failed = trace_registry_get_failed_plugins ();
  g_assert_nonnull (g_hash_table_lookup (failed, path));
  g_unlink (path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* Only the test plugins: the registry must find them on the path. */
  g_setenv ("TRACEPIPE_PLUGIN_PATH", TEST_PLUGIN_DIR, TRUE);
  g_setenv ("TRACEPIPE_PLUGIN_SYSTEM_PATH", "", TRUE);
  trace_init (&argc, &argv);
  g_test_add_func ("/plugins/good-plugin-loads", test_good_plugin_loads);
  g_test_add_func ("/plugins/failures-recorded", test_failures_recorded);
  g_test_add_func ("/plugins/unloadable-file", test_unloadable_file);
  return g_test_run ();
}
