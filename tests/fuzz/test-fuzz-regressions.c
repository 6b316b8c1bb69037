/* tracepipe tests - the fuzz targets' bodies on known inputs, without the fuzzer
 *
 * Every input a fuzzer once crashed on is kept under
 * tests/data/fuzz-regressions/<area>/ (how it crashed: that folder's
 * README.md) and run here by the same function the fuzzer calls, in the
 * ordinary build and under ASan/UBSan and valgrind in CI: a crash comes
 * back as a failed test. The seeds (the small files of tests/data/<area>/)
 * are run too, which checks that the targets themselves work.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "fuzz-targets.h"

/* Seeds larger than this are left to the fuzzer (which cuts them to its
 * -max_len anyway): the test stays quick under valgrind. */
#define MAX_SEED_SIZE (256 * 1024)

typedef struct
{
  const char *area;
  FuzzTargetFunc funcs[2];
} Area;

static const Area areas[] = {
#ifdef FUZZ_HAVE_FTRACE
  { "ftrace", { fuzz_ftrace_reader, fuzz_ftrace_lines } },
#endif
#ifdef FUZZ_HAVE_JSON
  { "json", { fuzz_json_reader, fuzz_json_threads } },
#endif
#ifdef FUZZ_HAVE_ARKTS
  { "arkts", { fuzz_arkts_reader } },
#endif
#ifdef FUZZ_HAVE_PERFETTO
  { "perfetto", { fuzz_perfetto_reader, fuzz_perfetto_compressed } },
#endif
#ifdef FUZZ_HAVE_HTRACE
  { "htrace", { fuzz_htrace_reader, fuzz_htrace_records } },
#endif
#ifdef FUZZ_HAVE_RHEA
  { "rhea", { fuzz_rhea_repair } },
#endif
#ifdef FUZZ_HAVE_LAUNCH
  { "launch", { fuzz_launch, fuzz_launch_graph } },
#endif
};

typedef struct
{
  const Area *area;
  char *path;
} Case;

static void
case_free (gpointer data)
{
  Case *c = data;

  g_free (c->path);
  g_free (c);
}

static void
run_file (const Area *area,
          const char *path)
{
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  gsize len;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (area->funcs) && area->funcs[i]; i++)
    {
      /* exactly @len bytes, without the NUL g_file_get_contents adds, as
       * libFuzzer passes them: a read one byte too far is then outside the
       * allocation, where ASan and valgrind see it */
      g_autofree guint8 *copy = g_memdup2 (contents, len);

      area->funcs[i](copy, len);
    }
}

static void
test_regression (gconstpointer data)
{
  const Case *c = data;

  run_file (c->area, c->path);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* Sorted names of the regular files of @dir (none if it does not exist). */
static GPtrArray *
list_files (const char *dir)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR) && !g_str_has_suffix (name, ".md"))
        g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_sort (names, compare_names);
  return names;
}

static void
test_seeds (gconstpointer data)
{
  const Case *c = data;
  g_autoptr (GPtrArray) names = list_files (c->path);
  guint run = 0;

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (c->path, g_ptr_array_index (names, i), NULL);
      GStatBuf st;

      g_assert_cmpint (g_stat (path, &st), ==, 0);
      if (st.st_size > MAX_SEED_SIZE)
        continue;
      run_file (c->area, path);
      run++;
    }
  g_test_message ("%u seeds of %s", run, c->path);
  g_assert_cmpuint (run, >, 0);
}

static void
add_area (const Area *area)
{
  g_autofree char *regressions = g_build_filename (TEST_DATA_DIR, "fuzz-regressions", area->area, NULL);
  g_autoptr (GPtrArray) names = list_files (regressions);
  Case *seeds = g_new0 (Case, 1);
  g_autofree char *seed_test = g_strdup_printf ("/fuzz/seeds/%s", area->area);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      Case *c = g_new0 (Case, 1);
      g_autofree char *test = g_strdup_printf ("/fuzz/regression/%s/%s", area->area, name);

      c->area = area;
      c->path = g_build_filename (regressions, name, NULL);
      g_test_add_data_func_full (test, c, test_regression, case_free);
    }
  seeds->area = area;
  /* launch descriptions and rhea-repair's event streams are not trace
   * files: their seeds live here */
  seeds->path = strcmp (area->area, "launch") == 0 || strcmp (area->area, "rhea") == 0
                    ? g_build_filename (FUZZ_SEED_DIR, area->area, NULL)
                    : g_build_filename (TEST_DATA_DIR, area->area, NULL);
  g_test_add_data_func_full (seed_test, seeds, test_seeds, case_free);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  fuzz_init ();
  for (guint i = 0; i < G_N_ELEMENTS (areas); i++)
    add_area (&areas[i]);
  return g_test_run ();
}
