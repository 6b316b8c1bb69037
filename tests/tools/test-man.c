/* tracepipe tests - the man pages say what --help says
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>
#include <string.h>

#include "tools-test.h"

/* Every long option --help lists appears in the man page, which starts
 * with the right title and, where groff is installed, renders without a
 * warning. */
/* "top-n" as roff writes it: "\-\-top\-n" */
static char *
roff_option (const char *long_name)
{
  g_autoptr (GString) s = g_string_new ("--");

  g_string_append (s, long_name);
  g_string_replace (s, "-", "\\-", 0);
  return g_strdup (s->str);
}

static void
check_renders (const char *path)
{
  g_autofree char *groff = g_find_program_in_path ("groff");
  const char *argv[] = { groff, "-man", "-Tutf8", "-ww", "-z", path, NULL };
  g_autoptr (GSubprocess) p = NULL;
  g_autofree char *err = NULL;

  if (groff == NULL)
    {
      g_test_message ("groff is not installed: the page was not rendered");
      return;
    }
  p = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDERR_PIPE, NULL);
  g_subprocess_communicate_utf8 (p, NULL, NULL, NULL, &err, NULL);
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 0);
  g_assert_cmpstr (err, ==, "");
}

/* The page has the tool's title and every long option --help lists, and
 * groff renders it without a warning. */
static void
test_man_page (gconstpointer data)
{
  const char *tool = data;
  g_autofree char *name = g_strdup_printf ("%s.1", tool);
  g_autofree char *path = g_build_filename (g_getenv ("TOOLS_BUILD_DIR"), name, NULL);
  g_autofree char *upper = g_ascii_strup (tool, -1);
  g_autofree char *roff_upper = NULL;
  g_autofree char *th = NULL;
  g_autofree char *page = NULL;
  g_autoptr (Run) help = RUN (tool, NULL, "--help");
  g_autoptr (GRegex) option = g_regex_new ("^  (?:-\\w, )?--([a-z-]+)", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  guint n_options = 0;

  if (!g_file_get_contents (path, &page, NULL, NULL))
    {
      g_test_skip ("the man pages were not built (no python3)");
      return;
    }
  roff_upper = roff_option (upper);
  th = g_strdup_printf (".TH %s 1 ", roff_upper + 4); /* without the leading "\-\-" */
  g_assert_true (g_str_has_prefix (page, th));
  g_assert_cmpint (help->status, ==, 0);
  for (g_regex_match (option, help->out, 0, &match); g_match_info_matches (match); g_match_info_next (match, NULL))
    {
      g_autofree char *long_name = g_match_info_fetch (match, 1);
      g_autofree char *written = roff_option (long_name);

      g_assert_nonnull (strstr (page, written));
      n_options++;
    }
  g_assert_cmpuint (n_options, >=, 2);
  check_renders (path);
}

void
add_man_tests (void)
{
  g_test_add_data_func ("/tools/man/trace-launch", "trace-launch", test_man_page);
  g_test_add_data_func ("/tools/man/trace-inspect", "trace-inspect", test_man_page);
  g_test_add_data_func ("/tools/man/trace-info", "trace-info", test_man_page);
  g_test_add_data_func ("/tools/man/trace-convert", "trace-convert", test_man_page);
}
