/* tracepipe - the registry: loading plugins, finding factories
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <gmodule.h>

#include "trace/trace.h"
#include "trace-private.h"

TraceElementFactory *_trace_element_factory_new (const char *name,
                                                 GType type,
                                                 guint rank,
                                                 const char *plugin_name);

typedef struct
{
  char *format;
  char *element_name;
  gsize look_ahead;
  TraceTypeFindFunc func;
  gpointer user_data;
} TypeFinder;

/* The registry is filled once, at trace_init(), then only read. A lock
 * still guards it so that a plugin loaded later by hand is safe. */
static GMutex registry_lock;
static GHashTable *plugins;   /* name -> TracePlugin */
static GHashTable *factories; /* name -> TraceElementFactory */
static GHashTable *failed;    /* filename -> reason */
static GPtrArray *type_finders;
static gboolean initialized;

void
_trace_registry_init (void)
{
  plugins = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  factories = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  failed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  type_finders = g_ptr_array_new ();
}

/**
 * trace_element_register:
 * @plugin: (nullable): the registering plugin; %NULL for an element an
 *   application defines and registers at run time
 * @name: the factory name users type (`ftrace-src`)
 * @rank: a #TraceRank
 * @type: a #TraceElement subtype
 *
 * Returns: %FALSE if a factory of that name exists
 */
gboolean
trace_element_register (TracePlugin *plugin,
                        const char *name,
                        guint rank,
                        GType type)
{
  gboolean added = FALSE;

  g_return_val_if_fail (plugin == NULL || TRACE_IS_PLUGIN (plugin), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (g_type_is_a (type, TRACE_TYPE_ELEMENT), FALSE);
  g_return_val_if_fail (factories != NULL, FALSE);

  g_mutex_lock (&registry_lock);
  if (!g_hash_table_contains (factories, name))
    {
      g_hash_table_insert (factories, g_strdup (name),
                           _trace_element_factory_new (name, type, rank,
                                                       plugin ? trace_plugin_get_name (plugin) : "application"));
      added = TRUE;
    }
  g_mutex_unlock (&registry_lock);
  return added;
}

/**
 * trace_element_factory_find:
 * @name: a factory name
 *
 * Returns: (transfer none) (nullable): the factory
 */
TraceElementFactory *
trace_element_factory_find (const char *name)
{
  TraceElementFactory *factory;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (factories != NULL, NULL);

  g_mutex_lock (&registry_lock);
  factory = g_hash_table_lookup (factories, name);
  g_mutex_unlock (&registry_lock);
  return factory;
}

/**
 * trace_type_find_register:
 * @plugin: (nullable): the registering plugin
 * @format: the format's name (`ftrace`, `chrome-json`)
 * @element_name: the source element that reads it
 * @func: (scope forever) (closure user_data): recognises the format
 * @user_data: data for @func
 *
 * Registers a content detector, used by `auto-src`, that is shown the
 * first %TRACE_TYPE_FIND_LOOK_AHEAD bytes of an input.
 *
 * Returns: %TRUE
 */
gboolean
trace_type_find_register (TracePlugin *plugin,
                          const char *format,
                          const char *element_name,
                          TraceTypeFindFunc func,
                          gpointer user_data)
{
  return trace_type_find_register_full (plugin, format, element_name, TRACE_TYPE_FIND_LOOK_AHEAD, func, user_data);
}

/**
 * trace_type_find_register_full:
 * @plugin: (nullable): the registering plugin
 * @format: the format's name (`ftrace`, `chrome-json`)
 * @element_name: the source element that reads it
 * @look_ahead: the most bytes from the start of an input @func needs to
 *   see (at least %TRACE_TYPE_FIND_LOOK_AHEAD)
 * @func: (scope forever) (closure user_data): recognises the format
 * @user_data: data for @func
 *
 * Registers a content detector for a format that may only show itself
 * past the first 64 KiB. @func is shown the first 64 KiB like every
 * detector; when it answers %TRACE_TYPE_FIND_MORE, `auto-src` reads
 * further (doubling) and asks again, never past @look_ahead: detection
 * reads at most that much of a file.
 *
 * Returns: %TRUE
 */
gboolean
trace_type_find_register_full (TracePlugin *plugin,
                               const char *format,
                               const char *element_name,
                               gsize look_ahead,
                               TraceTypeFindFunc func,
                               gpointer user_data)
{
  TypeFinder *tf;

  g_return_val_if_fail (plugin == NULL || TRACE_IS_PLUGIN (plugin), FALSE);
  g_return_val_if_fail (format != NULL, FALSE);
  g_return_val_if_fail (element_name != NULL, FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  tf = g_new0 (TypeFinder, 1);
  tf->format = g_strdup (format);
  tf->element_name = g_strdup (element_name);
  tf->look_ahead = MAX (look_ahead, TRACE_TYPE_FIND_LOOK_AHEAD);
  tf->func = func;
  tf->user_data = user_data;
  g_mutex_lock (&registry_lock);
  g_ptr_array_add (type_finders, tf);
  g_mutex_unlock (&registry_lock);
  return TRUE;
}

/* Asks every detector about the first @size bytes of an input, each up
 * to its look-ahead, and returns the most probable. @complete: @size
 * bytes are all there is, or all that will be read. A detector answering
 * TRACE_TYPE_FIND_MORE with bytes left to show it sets *want to its
 * look-ahead (the largest such), unless another detector is certain. */
static TypeFinder *
ask_detectors (const guint8 *data,
               gsize size,
               gboolean complete,
               guint *probability,
               gsize *want)
{
  TypeFinder *best = NULL;
  guint best_p = 0;
  gsize further = 0;

  g_mutex_lock (&registry_lock);
  for (guint i = 0; i < type_finders->len; i++)
    {
      TypeFinder *tf = type_finders->pdata[i];
      guint p = tf->func (data, MIN (size, tf->look_ahead), tf->user_data);

      if (p == TRACE_TYPE_FIND_MORE)
        {
          if (!complete && size < tf->look_ahead)
            further = MAX (further, tf->look_ahead);
        }
      else if (p > best_p)
        best = tf, best_p = MIN (p, 100);
    }
  g_mutex_unlock (&registry_lock);
  *probability = best_p;
  *want = best_p == 100 ? 0 : further;
  return best;
}

/* auto-src's detection over a head that grows: *want is how far to read
 * before asking again, 0 when the answer is final. */
const char *
_trace_type_find_head (const guint8 *data,
                       gsize size,
                       gboolean complete,
                       const char **format,
                       gsize *want)
{
  guint probability;
  TypeFinder *best;

  g_return_val_if_fail (data != NULL || size == 0, NULL);

  best = ask_detectors (data, size, complete, &probability, want);
  if (format)
    *format = best ? best->format : NULL;
  return best ? best->element_name : NULL;
}

/**
 * trace_type_find_best:
 * @data: (array length=size): the first bytes of an input
 * @size: how many
 * @format: (out) (optional) (transfer none): the format recognised
 * @probability: (out) (optional): how sure, 1 to 100
 *
 * Asks every detector about the first @size bytes, each up to its
 * look-ahead; @size bytes are taken to be all there is.
 *
 * Returns: (nullable): the name of the source element for the most
 *   probable format, %NULL if no detector recognised it
 */
const char *
trace_type_find_best (const guint8 *data,
                      gsize size,
                      const char **format,
                      guint *probability)
{
  guint p;
  gsize want;
  TypeFinder *best;

  g_return_val_if_fail (data != NULL || size == 0, NULL);

  best = ask_detectors (data, size, TRUE, &p, &want);
  if (format)
    *format = best ? best->format : NULL;
  if (probability)
    *probability = p;
  return best ? best->element_name : NULL;
}

static gint
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The source elements the detectors pick, each once, in alphabetical
 * order (plugins load in directory order): "arkts-src, ftrace-src, …"
 * for an error that asks the user to name one. */
char *
_trace_type_find_list_elements (void)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  GString *list = g_string_new (NULL);

  g_mutex_lock (&registry_lock);
  for (guint i = 0; i < type_finders->len; i++)
    {
      TypeFinder *tf = type_finders->pdata[i];

      if (!g_ptr_array_find_with_equal_func (names, tf->element_name, g_str_equal, NULL))
        g_ptr_array_add (names, tf->element_name);
    }
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    g_string_append_printf (list, "%s%s", i ? ", " : "", (const char *) names->pdata[i]);
  g_mutex_unlock (&registry_lock);
  return g_string_free (list, FALSE);
}

/**
 * trace_registry_get_type_finders:
 *
 * Returns: (transfer full) (element-type utf8): `format element` strings,
 *   one per detector
 */
GList *
trace_registry_get_type_finders (void)
{
  GList *list = NULL;

  g_mutex_lock (&registry_lock);
  for (guint i = 0; i < type_finders->len; i++)
    {
      TypeFinder *tf = type_finders->pdata[i];
      list = g_list_append (list, g_strdup_printf ("%s %s", tf->format, tf->element_name));
    }
  g_mutex_unlock (&registry_lock);
  return list;
}

static gboolean
register_plugin (const TracePluginDesc *desc,
                 const char *filename,
                 GError **error)
{
  g_autoptr (TracePlugin) plugin = NULL;

  if (desc->abi_version != TRACE_PLUGIN_ABI_VERSION)
    {
      g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_PLUGIN,
                   "plugin ABI mismatch: built for plugin ABI %u, this library has ABI %u",
                   desc->abi_version, TRACE_PLUGIN_ABI_VERSION);
      return FALSE;
    }
  g_mutex_lock (&registry_lock);
  if (g_hash_table_contains (plugins, desc->name))
    {
      g_mutex_unlock (&registry_lock);
      g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_PLUGIN,
                   "a plugin named \"%s\" is already loaded", desc->name);
      return FALSE;
    }
  g_mutex_unlock (&registry_lock);
  plugin = _trace_plugin_new_static (desc, filename);
  if (desc->init && !desc->init (plugin, error))
    {
      if (error && *error == NULL)
        g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_PLUGIN, "its init function failed");
      return FALSE;
    }
  g_mutex_lock (&registry_lock);
  g_hash_table_insert (plugins, g_strdup (desc->name), g_steal_pointer (&plugin));
  g_mutex_unlock (&registry_lock);
  return TRUE;
}

/**
 * trace_registry_register_static_plugin:
 * @desc: a plugin descriptor linked into the program
 * @error: where to say why it was refused
 *
 * Returns: %TRUE when registered
 */
gboolean
trace_registry_register_static_plugin (const TracePluginDesc *desc,
                                       GError **error)
{
  g_return_val_if_fail (desc != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return register_plugin (desc, NULL, error);
}

static void
record_failure (const char *filename,
                const char *reason)
{
  g_mutex_lock (&registry_lock);
  g_hash_table_replace (failed, g_strdup (filename), g_strdup (reason));
  g_mutex_unlock (&registry_lock);
}

/**
 * trace_registry_load_plugin:
 * @filename: a loadable module
 * @error: where to say why it cannot be used
 *
 * Loads one plugin. A failure is also remembered with its reason for
 * trace_registry_get_failed_plugins().
 *
 * Returns: %TRUE when its elements are registered
 */
gboolean
trace_registry_load_plugin (const char *filename,
                            GError **error)
{
  GModule *module;
  gpointer symbol = NULL;
  g_autoptr (GError) local = NULL;

  g_return_val_if_fail (filename != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  module = g_module_open (filename, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  if (module == NULL)
    g_set_error (&local, TRACE_CORE_ERROR, TRACE_CORE_ERROR_PLUGIN, "cannot load: %s", g_module_error ());
  else if (!g_module_symbol (module, "trace_plugin_desc", &symbol) || symbol == NULL)
    g_set_error (&local, TRACE_CORE_ERROR, TRACE_CORE_ERROR_PLUGIN,
                 "no trace_plugin_desc symbol: not a tracepipe plugin");
  else if (register_plugin (symbol, filename, &local))
    {
      /* Types registered by the module must outlive it. */
      g_module_make_resident (module);
      g_debug ("loaded plugin %s", filename);
      return TRUE;
    }
  if (module)
    g_module_close (module);
  g_debug ("could not load %s: %s", filename, local->message);
  record_failure (filename, local->message);
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

static void
scan_directory (const char *path,
                guint depth)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *entry;

  if (dir == NULL)
    return;
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *full = g_build_filename (path, entry, NULL);

      if (g_file_test (full, G_FILE_TEST_IS_DIR))
        {
          if (depth > 0)
            scan_directory (full, depth - 1);
        }
      else if (g_str_has_suffix (entry, "." G_MODULE_SUFFIX))
        {
          g_autoptr (GError) error = NULL;
          if (!trace_registry_load_plugin (full, &error) &&
              g_error_matches (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_PLUGIN) &&
              strstr (error->message, "already loaded"))
            {
              /* The same plugin found twice (path and build tree): not a failure. */
              g_mutex_lock (&registry_lock);
              g_hash_table_remove (failed, full);
              g_mutex_unlock (&registry_lock);
            }
        }
    }
}

/* An uninstalled build runs its library from the build tree: then its
 * plugins are the ones built beside it, not an older installed copy. */
static gboolean
running_uninstalled (void)
{
  Dl_info info;
  g_autofree char *library = NULL;
  g_autofree char *build_root = NULL;

  if (dladdr ((void *) trace_init_check, &info) == 0 || info.dli_fname == NULL)
    return FALSE;
  /* dli_fname is the path the loader used: relative when
   * LD_LIBRARY_PATH is (`LD_LIBRARY_PATH=build/core python3 …`), and
   * either may go through a symlink. Compare real paths. */
  library = realpath (info.dli_fname, NULL);
  build_root = realpath (TRACE_BUILD_ROOT, NULL);
  if (library == NULL || build_root == NULL)
    return g_str_has_prefix (info.dli_fname, TRACE_BUILD_ROOT "/");
  return g_str_has_prefix (library, build_root) && library[strlen (build_root)] == '/';
}

static void
scan_plugin_paths (void)
{
  const char *env = g_getenv ("TRACEPIPE_PLUGIN_PATH");
  const char *system_env = g_getenv ("TRACEPIPE_PLUGIN_SYSTEM_PATH");

  if (env && *env)
    {
      g_auto (GStrv) dirs = g_strsplit (env, G_SEARCHPATH_SEPARATOR_S, -1);
      for (guint i = 0; dirs[i]; i++)
        if (*dirs[i])
          scan_directory (dirs[i], 1);
    }
  if (system_env)
    {
      g_auto (GStrv) dirs = g_strsplit (system_env, G_SEARCHPATH_SEPARATOR_S, -1);
      for (guint i = 0; dirs[i]; i++)
        if (*dirs[i])
          scan_directory (dirs[i], 1);
      return;
    }
  if (running_uninstalled ())
    scan_directory (TRACE_UNINSTALLED_PLUGIN_DIR, 1);
  else
    scan_directory (TRACE_PLUGIN_DIR, 0);
}

/**
 * trace_init_check:
 * @argc: (inout) (optional): the program's argc
 * @argv: (inout) (optional) (array length=argc): the program's argv
 * @error: where to say what failed
 *
 * Initialises the library: registers the core elements and loads the
 * plugins found on `TRACEPIPE_PLUGIN_PATH`, in the plugin directory (or,
 * for an uninstalled build, in the build tree). Plugins that fail to load
 * do not fail initialisation: they are remembered with their reason.
 * `TRACEPIPE_PLUGIN_SYSTEM_PATH`, when set, replaces the plugin directory.
 * Safe to call more than once.
 *
 * Returns: %TRUE when the library can be used
 */
gboolean
trace_init_check (int *argc,
                  char ***argv,
                  GError **error)
{
  static GMutex init_lock;
  static const TracePluginDesc core_desc = {
    TRACE_PLUGIN_ABI_VERSION, "coreelements", "Generic elements: queue, tee, funnel, identity, fakesrc, fakesink, auto-src, app-sink", NULL, PACKAGE_VERSION, "LGPL-2.1-or-later", "tracepipe", { NULL }
  };
  g_autoptr (TracePlugin) core = NULL;

  g_mutex_lock (&init_lock);
  if (initialized)
    {
      g_mutex_unlock (&init_lock);
      return TRUE;
    }
  _trace_registry_init ();
  core = _trace_plugin_new_static (&core_desc, NULL);
  _trace_core_elements_register (core);
  g_hash_table_insert (plugins, g_strdup ("coreelements"), g_steal_pointer (&core));
  scan_plugin_paths ();
  initialized = TRUE;
  g_mutex_unlock (&init_lock);
  return TRUE;
}

/**
 * trace_init:
 * @argc: (inout) (optional): the program's argc
 * @argv: (inout) (optional) (array length=argc): the program's argv
 *
 * Like trace_init_check(), aborting on failure.
 */
void
trace_init (int *argc,
            char ***argv)
{
  g_autoptr (GError) error = NULL;

  if (!trace_init_check (argc, argv, &error))
    g_error ("tracepipe could not be initialised: %s", error->message);
}

/**
 * trace_is_initialized:
 *
 * Returns: whether trace_init() ran
 */
gboolean
trace_is_initialized (void)
{
  return initialized;
}

static gint
compare_plugins (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (trace_plugin_get_name ((TracePlugin *) a), trace_plugin_get_name ((TracePlugin *) b));
}

static gint
compare_factories (gconstpointer a,
                   gconstpointer b)
{
  return g_strcmp0 (trace_element_factory_get_name ((TraceElementFactory *) a),
                    trace_element_factory_get_name ((TraceElementFactory *) b));
}

/**
 * trace_registry_get_plugins:
 *
 * Returns: (transfer container) (element-type TracePlugin): the loaded
 *   plugins, by name
 */
GList *
trace_registry_get_plugins (void)
{
  GList *list;

  g_mutex_lock (&registry_lock);
  list = g_list_sort (g_hash_table_get_values (plugins), compare_plugins);
  g_mutex_unlock (&registry_lock);
  return list;
}

/**
 * trace_registry_get_element_factories:
 *
 * Returns: (transfer container) (element-type TraceElementFactory): every
 *   factory, by name
 */
GList *
trace_registry_get_element_factories (void)
{
  GList *list;

  g_mutex_lock (&registry_lock);
  list = g_list_sort (g_hash_table_get_values (factories), compare_factories);
  g_mutex_unlock (&registry_lock);
  return list;
}

/**
 * trace_registry_get_failed_plugins:
 *
 * Returns: (transfer container) (element-type utf8 utf8): module file
 *   name → why it could not be loaded
 */
GHashTable *
trace_registry_get_failed_plugins (void)
{
  GHashTable *copy = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter iter;
  gpointer k, v;

  g_mutex_lock (&registry_lock);
  g_hash_table_iter_init (&iter, failed);
  while (g_hash_table_iter_next (&iter, &k, &v))
    g_hash_table_insert (copy, g_strdup (k), g_strdup (v));
  g_mutex_unlock (&registry_lock);
  return copy;
}

static guint
edit_distance (const char *a,
               const char *b)
{
  gsize la = strlen (a), lb = strlen (b);
  g_autofree guint *row = g_new (guint, lb + 1);

  for (gsize j = 0; j <= lb; j++)
    row[j] = j;
  for (gsize i = 1; i <= la; i++)
    {
      guint diag = row[0];
      row[0] = i;
      for (gsize j = 1; j <= lb; j++)
        {
          guint up = row[j];
          guint cost = a[i - 1] == b[j - 1] ? 0 : 1;
          row[j] = MIN (MIN (row[j] + 1, row[j - 1] + 1), diag + cost);
          diag = up;
        }
    }
  return row[lb];
}

/**
 * trace_registry_suggest_element:
 * @name: a name that is not a factory
 *
 * Returns: (transfer full) (nullable): the closest factory name, if close
 *   enough to be a likely typo
 */
char *
trace_registry_suggest_element (const char *name)
{
  g_autoptr (GList) list = NULL;
  const char *best = NULL;
  guint best_d = G_MAXUINT;
  guint limit;

  g_return_val_if_fail (name != NULL, NULL);

  list = trace_registry_get_element_factories ();
  limit = MAX (2, strlen (name) / 3);
  for (GList *l = list; l; l = l->next)
    {
      const char *candidate = trace_element_factory_get_name (l->data);
      guint d = edit_distance (name, candidate);

      if (d < best_d)
        best = candidate, best_d = d;
    }
  return best && best_d <= limit ? g_strdup (best) : NULL;
}
