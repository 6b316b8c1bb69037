/* tracepipe tests - the README's first command installs what building needs, and only that
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>
#include <string.h>

#include "tools-test.h"

/* Names that only the CI's extra checks need, whatever .ci/packages-ci
 * says: a fresh machine must not be asked for them. */
static const char *const ci_only_prefixes[] = { "clang", "libclang-rt-", "valgrind", "graphviz", NULL };

/* (not inlined: GCC 12 then takes `contents` for a local that the
 * caller's pointers into the returned text dangle from) */
G_NO_INLINE static char *
read_source_file (const char *relative)
{
  g_autofree char *path = g_build_filename (SOURCE_ROOT, relative, NULL);
  g_autoptr (GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return contents;
}

/* The first line of the first code block after @heading. */
static char *
readme_command (const char *heading,
                guint nth)
{
  g_autofree char *readme = read_source_file ("README.md");
  const char *at = strstr (readme, heading);

  g_assert_nonnull (at);
  for (guint i = 0; i <= nth; i++)
    {
      at = strstr (at, "\n```\n");
      g_assert_nonnull (at);
      at += 5;
      if (i < nth)
        {
          at = strstr (at, "\n```\n");
          g_assert_nonnull (at);
          at += 4;
        }
    }
  return g_strndup (at, strchr (at, '\n') - at);
}

/* The words of every `$(cat FILE)` in @command, read from the files. */
static GStrv
packages_of (const char *command)
{
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();
  const char *at = command;

  while ((at = strstr (at, "$(cat ")) != NULL)
    {
      g_autofree char *files = g_strndup (at + 6, strchr (at, ')') - at - 6);
      g_auto (GStrv) paths = g_strsplit (files, " ", -1);

      for (guint i = 0; paths[i] != NULL; i++)
        {
          g_autofree char *list = read_source_file (paths[i]);
          g_auto (GStrv) words = g_strsplit_set (list, " \n", -1);

          for (guint j = 0; words[j] != NULL; j++)
            if (*words[j])
              g_strv_builder_add (names, words[j]);
        }
      at++;
    }
  return g_strv_builder_end (names);
}

static gboolean
apt_has_lists (void)
{
  g_autoptr (GDir) dir = g_dir_open ("/var/lib/apt/lists", 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (strstr (name, "_Packages") != NULL)
      return TRUE;
  return FALSE;
}

static void
test_first_command_packages (void)
{
  g_autofree char *command = readme_command ("## Two commands", 0);
  g_autofree char *ci_list = read_source_file (".ci/packages-ci");
  g_auto (GStrv) packages = packages_of (command);
  g_auto (GStrv) ci_only = g_strsplit_set (ci_list, " \n", -1);
  const char *update = strstr (command, "apt-get update");

  /* apt-get update first; sudo only where there is one (root has none in
   * a bare container) */
  g_assert_nonnull (update);
  g_assert_true (update < strstr (command, "apt-get install"));
  g_assert_null (strstr (command, "sudo apt-get"));
  g_assert_cmpuint (g_strv_length (packages), >, 0);
  for (guint i = 0; packages[i] != NULL; i++)
    {
      for (guint j = 0; ci_only[j] != NULL; j++)
        g_assert_cmpstr (packages[i], !=, ci_only[j]);
      for (guint j = 0; ci_only_prefixes[j] != NULL; j++)
        g_assert_false (g_str_has_prefix (packages[i], ci_only_prefixes[j]));
    }
}

/* The list resolves on this machine: apt-get would install it. */
static void
test_first_command_resolves (void)
{
  g_autofree char *command = readme_command ("## Two commands", 0);
  g_auto (GStrv) packages = packages_of (command);
  g_autofree char *apt = g_find_program_in_path ("apt-get");
  g_autoptr (GStrvBuilder) argv = g_strv_builder_new ();
  g_auto (GStrv) args = NULL;
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;

  if (apt == NULL)
    {
      g_test_skip ("apt-get is not installed: not a Debian or Ubuntu machine");
      return;
    }
  if (!apt_has_lists ())
    {
      g_test_skip ("apt has no package lists here (apt-get update was never run)");
      return;
    }
  g_strv_builder_add_many (argv, apt, "install", "--dry-run", "-qq", "--no-install-recommends", NULL);
  g_strv_builder_addv (argv, (const char **) packages);
  args = g_strv_builder_end (argv);
  p = g_subprocess_newv ((const char *const *) args, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                         &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (p, NULL, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  g_test_message ("apt-get install --dry-run: %s", err);
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 0);
}

/* .ci/run runs the README's second command, the very same line, and
 * installs both lists. */
static void
test_ci_runs_second_command (void)
{
  g_autofree char *second = readme_command ("## Two commands", 1);
  g_autofree char *run = read_source_file (".ci/run");
  g_autofree char *line = g_strdup_printf ("\n%s\n", second);

  g_assert_true (g_str_has_prefix (second, "(test -d build || meson setup build)"));
  g_assert_nonnull (strstr (run, line));
  g_assert_nonnull (strstr (run, "$(cat .ci/packages .ci/packages-ci)"));
}

void
add_readme_tests (void)
{
  g_test_add_func ("/tools/readme/first-command-packages", test_first_command_packages);
  g_test_add_func ("/tools/readme/first-command-resolves", test_first_command_resolves);
  g_test_add_func ("/tools/readme/ci-runs-second-command", test_ci_runs_second_command);
}
