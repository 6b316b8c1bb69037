/* tracepipe tools - property formatting shared by trace-launch and trace-inspect
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <string.h>

#include <glib/gstdio.h>

#include "tool-util.h"

static char *
flags_to_string (const GValue *value)
{
  GFlagsClass *klass = g_type_class_ref (G_VALUE_TYPE (value));
  guint flags = g_value_get_flags (value);
  g_autoptr (GString) s = g_string_new (NULL);

  for (guint i = 0; i < klass->n_values; i++)
    {
      guint bit = klass->values[i].value;

      /* Zero-valued entries ("none") only describe the empty set. */
      if (bit != 0 && (flags & bit) == bit)
        {
          g_string_append_printf (s, "%s%s", s->len ? "+" : "", klass->values[i].value_nick);
          flags &= ~bit;
        }
    }
  if (flags != 0)
    g_string_append_printf (s, "%s0x%x", s->len ? "+" : "", flags);
  if (s->len == 0)
    g_string_append (s, "0");
  g_type_class_unref (klass);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* A string that a launch description would read back unchanged. */
static char *
quote_if_needed (const char *str)
{
  g_autoptr (GString) s = NULL;

  if (str == NULL)
    return g_strdup ("none");
  if (*str != '\0' && strpbrk (str, " \t\n!#\"'\\") == NULL)
    return g_strdup (str);
  s = g_string_new ("\"");
  for (const char *c = str; *c; c++)
    {
      if (*c == '"' || *c == '\\')
        g_string_append_c (s, '\\');
      if (*c == '\n')
        g_string_append (s, "\\n");
      else if (*c == '\t')
        g_string_append (s, "\\t");
      else
        g_string_append_c (s, *c);
    }
  g_string_append_c (s, '"');
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* The keyword that stands for an integer value (`tid=main`), if any. The
 * library only maps words to values, so walk its list of words. */
static char *
keyword_for_value (GParamSpec *pspec,
                   gint64 value)
{
  g_autofree char *words = pspec ? trace_param_spec_get_keywords (pspec) : NULL;
  g_auto (GStrv) parts = NULL;

  if (words == NULL)
    return NULL;
  parts = g_strsplit (words, "\"", -1); /* "a" or "b" -> ["", a, " or ", b, ""] */
  for (guint i = 1; parts[i] != NULL; i += 2)
    {
      gint64 v;

      if (trace_param_spec_lookup_keyword (pspec, parts[i], &v) && v == value)
        return g_strdup (parts[i]);
    }
  return NULL;
}

/**
 * tool_property_to_string:
 * @pspec: the property
 * @value: its value
 *
 * Returns: like tool_value_to_string(), with the property's keyword for
 *   a number that has one (`tid=main`, not `tid=-2`)
 */
char *
tool_property_to_string (GParamSpec *pspec,
                         const GValue *value)
{
  char *word = NULL;

  if (G_VALUE_HOLDS_INT64 (value))
    word = keyword_for_value (pspec, g_value_get_int64 (value));
  return word ? word : tool_value_to_string (value);
}

/**
 * tool_value_to_string:
 * @value: a property value
 *
 * Returns: the value as a launch description would write it: enums by
 *   nick, flags as `a+b`, strings quoted when they need it
 */
char *
tool_value_to_string (const GValue *value)
{
  GType fundamental = G_TYPE_FUNDAMENTAL (G_VALUE_TYPE (value));

  switch (fundamental)
    {
    case G_TYPE_BOOLEAN:
      return g_strdup (g_value_get_boolean (value) ? "true" : "false");
    case G_TYPE_ENUM:
      {
        GEnumClass *klass = g_type_class_ref (G_VALUE_TYPE (value));
        GEnumValue *ev = g_enum_get_value (klass, g_value_get_enum (value));
        char *s = ev ? g_strdup (ev->value_nick) : g_strdup_printf ("%d", g_value_get_enum (value));

        g_type_class_unref (klass);
        return s;
      }
    case G_TYPE_FLAGS:
      return flags_to_string (value);
    case G_TYPE_STRING:
      return quote_if_needed (g_value_get_string (value));
    case G_TYPE_DOUBLE:
      return g_strdup_printf ("%g", g_value_get_double (value));
    case G_TYPE_FLOAT:
      return g_strdup_printf ("%g", (double) g_value_get_float (value));
    default:
      return g_strdup_value_contents (value);
    }
}

/**
 * tool_property_is_default:
 * @object: an element or pad
 * @pspec: one of its readable properties
 *
 * Returns: whether the property holds its default value
 */
gboolean
tool_property_is_default (GObject *object,
                          GParamSpec *pspec)
{
  g_auto (GValue) value = G_VALUE_INIT;

  g_value_init (&value, pspec->value_type);
  g_object_get_property (object, pspec->name, &value);
  return g_param_value_defaults (pspec, &value);
}

/**
 * tool_non_default_properties:
 * @object: an element or pad
 *
 * Returns: (transfer full) (element-type utf8): `key=value` for every
 *   property a user can set that differs from its default, except the name
 */
GPtrArray *
tool_non_default_properties (GObject *object)
{
  guint n = 0;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    {
      g_auto (GValue) value = G_VALUE_INIT;
      g_autofree char *text = NULL;

      if ((pspecs[i]->flags & G_PARAM_READWRITE) != G_PARAM_READWRITE ||
          (pspecs[i]->flags & (G_PARAM_DEPRECATED | G_PARAM_CONSTRUCT_ONLY)) ||
          strcmp (pspecs[i]->name, "name") == 0 || tool_property_is_default (object, pspecs[i]))
        continue;
      g_value_init (&value, pspecs[i]->value_type);
      g_object_get_property (object, pspecs[i]->name, &value);
      text = tool_property_to_string (pspecs[i], &value);
      g_ptr_array_add (out, g_strdup_printf ("%s=%s", pspecs[i]->name, text));
    }
  return out;
}

/**
 * tool_mutability:
 * @pspec: a writable property
 *
 * Returns: when the property may be changed: "null" (only before the
 *   pipeline starts), "ready" or "playing"
 */
const char *
tool_mutability (GParamSpec *pspec)
{
  if (pspec->flags & TOOL_PARAM_MUTABLE_PLAYING)
    return "playing";
  if (pspec->flags & TOOL_PARAM_MUTABLE_READY)
    return "ready";
  return "null";
}

const char *
tool_direction_name (TracePadDirection direction)
{
  switch (direction)
    {
    case TRACE_PAD_SRC:
      return "src";
    case TRACE_PAD_SINK:
      return "sink";
    default:
      return "unknown";
    }
}

const char *
tool_presence_name (TracePadPresence presence)
{
  return presence == TRACE_PAD_REQUEST ? "request" : "always";
}

/**
 * tool_quote_value:
 * @value: a property value, a file name
 *
 * Quotes @value for a launch description: in single quotes, where only
 * `\'` and `\\` are escapes, so any file name (blanks, `!`, `#`, `"`)
 * reaches the element as it is.
 *
 * Returns: (transfer full): `'…'`
 */
char *
tool_quote_value (const char *value)
{
  GString *out = g_string_new ("'");

  for (const char *c = value; *c; c++)
    {
      if (*c == '\'' || *c == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *c);
    }
  g_string_append_c (out, '\'');
  return g_string_free (out, FALSE);
}

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* A folder's regular files, by name; hidden files are skipped. */
static gboolean
add_folder (GPtrArray *paths,
            const char *folder,
            GError **error)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, error);
  g_autoptr (GPtrArray) found = g_ptr_array_new ();
  const char *name;

  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      char *path = g_build_filename (folder, name, NULL);

      if (name[0] != '.' && g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (found, path);
      else
        g_free (path);
    }
  g_ptr_array_sort (found, compare_strings);
  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (paths, found->pdata[i]);
  return TRUE;
}

/**
 * tool_expand_inputs:
 * @args: file and folder names as the user gave them
 * @error: where to say which folder could not be read
 *
 * A folder stands for the regular files directly in it (not its
 * subfolders), sorted by name.
 *
 * Returns: (transfer full) (nullable): the files, in order
 */
GPtrArray *
tool_expand_inputs (char **args,
                    GError **error)
{
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    {
      if (!g_file_test (args[i], G_FILE_TEST_IS_DIR))
        g_ptr_array_add (paths, g_strdup (args[i]));
      else if (!add_folder (paths, args[i], error))
        return NULL;
    }
  return g_steal_pointer (&paths);
}

/**
 * tool_make_output_folder:
 * @output: an output file's path ("-" for standard output)
 * @error: where to say why its folder cannot be made
 *
 * Creates the folder @output goes into, and the missing ones above it,
 * for a single conversion as for a batch. The error gives the system's
 * reason for the folder that failed (permission denied, a file in the
 * way), not that the output's folder is missing.
 *
 * Returns: %TRUE when the folder is there
 */
gboolean
tool_make_output_folder (const char *output,
                         GError **error)
{
  g_autofree char *folder = g_path_get_dirname (output);
  int saved;

  if (g_str_equal (output, "-") || g_mkdir_with_parents (folder, 0777) == 0)
    return TRUE;
  saved = errno;
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "cannot create the folder %s: %s", folder,
               g_strerror (saved));
  return FALSE;
}

/**
 * tool_init_process:
 *
 * What every tool sets first. The user's locale for messages, but
 * numbers printed to be read back always with a "." (LC_NUMERIC=C).
 * SIGPIPE ignored: status goes to standard error, and a reader of it that
 * went away (`2>&1 >/dev/null | head -c 10`) must not end a conversion
 * half-written; a write to a closed standard output fails with EPIPE
 * instead, which the sink reports as an error.
 */
void
tool_init_process (void)
{
  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");
  signal (SIGPIPE, SIG_IGN);
}

/* Every tool's command line: the entries, a summary above them and a
 * description below, which `--help` and the man pages show (the man pages
 * are generated from `--help`, so this is their one source). */
gboolean
tool_parse_options (const GOptionEntry *entries,
                    const char *summary,
                    const char *description,
                    int *argc,
                    char ***argv,
                    GError **error)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);

  g_option_context_set_summary (context, summary);
  g_option_context_set_description (context, description);
  g_option_context_add_main_entries (context, entries, NULL);
  return g_option_context_parse (context, argc, argv, error);
}
