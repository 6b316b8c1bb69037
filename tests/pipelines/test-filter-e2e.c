/* Pipelines: ftrace-src ! filter / main-thread-filter on generated and
 * corpus systraces, and json-src ! main-thread-filter on real Chrome
 * traces, checked against the text itself. */
#include <stdio.h>

#include <json-glib/json-glib.h>

#include "../test-util.h"

typedef struct
{
  guint main_slice_lines; /* B|/E| markers written by a main thread */
  GHashTable *main_tids;
} TextFacts;

/* Reads the systrace the way a person would check it: TASK-TID (TGID)
 * on each line, and whether it is a B or E marker. */
static void
read_text_facts (const char *path,
                 TextFacts *facts)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  facts->main_slice_lines = 0;
  facts->main_tids = g_hash_table_new (NULL, NULL);
  for (guint i = 0; lines[i]; i++)
    {
      const char *paren = strstr (lines[i], " (");
      const char *dash;
      gint64 tid, tgid;

      if (lines[i][0] == '#' || paren == NULL)
        continue;
      for (dash = paren; dash > lines[i] && *dash != '-'; dash--)
        ;
      tid = g_ascii_strtoll (dash + 1, NULL, 10);
      tgid = g_ascii_strtoll (paren + 2 + strspn (paren + 2, " "), NULL, 10);
      if (tid != tgid)
        continue;
      g_hash_table_add (facts->main_tids, GINT_TO_POINTER (tid));
      if (strstr (lines[i], "tracing_mark_write: B|") || strstr (lines[i], "tracing_mark_write: E|"))
        facts->main_slice_lines++;
    }
}

static TraceBatch *
run_to_batch (const char *description)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceElement) p = trace_parse_launch (description, &error);
  g_autoptr (TraceMessage) end = NULL;
  TraceElement *out;
  TraceBatch *all;

  g_assert_no_error (error);

  out = trace_bin_get_by_name (TRACE_BIN (p), "out");
  g_assert_nonnull (out);
  all = trace_batch_new (trace_pipeline_get_string_pool (TRACE_PIPELINE (p)), 0);
  g_object_set_data (G_OBJECT (out), "collect", all);
  end = test_run_pipeline (p, 60000);
  g_assert_nonnull (end);
  g_assert_cmpint (end->type, ==, TRACE_MESSAGE_EOS);
  trace_element_set_state (p, TRACE_STATE_NULL);
  return all;
}

static char *
generate_systrace (void)
{
  const char *gen = g_getenv ("GEN_SYNTH");
  g_autofree char *dir = g_dir_make_tmp ("tracepipe-e2e-XXXXXX", NULL);
  char *path = g_build_filename (dir, "synth.txt", NULL);
  g_autofree char *cmd = g_strdup_printf ("%s systrace %s --mb 1 --seed 7", gen, path);
  int status = 0;

  g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return path;
}

static void
check_main_only (TraceBatch *all,
                 TextFacts *facts,
                 guint *slice_events)
{
  GHashTable *depth = g_hash_table_new (NULL, NULL);

  *slice_events = 0;
  for (guint i = 0; i < all->n_events; i++)
    {
      const TraceEvent *ev = &all->events[i];
      gint d;

      if (trace_event_kind_get_group (ev->kind) == TRACE_EVENT_GROUP_METADATA)
        continue;
      if (ev->tid >= 0)
        g_assert_cmpint (ev->tid, ==, ev->pid);
      if (ev->kind != TRACE_EVENT_SLICE_BEGIN && ev->kind != TRACE_EVENT_SLICE_END)
        continue;
      (*slice_events)++;
      g_assert_true (g_hash_table_contains (facts->main_tids, GINT_TO_POINTER (ev->tid)));
      /* Never half a slice: an end always has its begin. */
      d = GPOINTER_TO_INT (g_hash_table_lookup (depth, GINT_TO_POINTER (ev->tid)));
      d += ev->kind == TRACE_EVENT_SLICE_BEGIN ? 1 : -1;
      g_assert_cmpint (d, >=, 0);
      g_hash_table_insert (depth, GINT_TO_POINTER (ev->tid), GINT_TO_POINTER (d));
    }
  g_hash_table_unref (depth);
}

static void
test_main_thread_generated (gconstpointer data)
{
  const char *element = data;
  g_autofree char *path = NULL;

  if (g_getenv ("GEN_SYNTH") == NULL)
    {
      g_test_skip ("GEN_SYNTH (the bench input generator) is not set: run through meson test");
      return;
    }
  path = generate_systrace ();
  g_autofree char *desc = g_strdup_printf ("ftrace-src location=%s ! %s ! collectsink name=out", path, element);
  g_autoptr (TraceBatch) all = run_to_batch (desc);

  TextFacts facts;
  guint slices;

  read_text_facts (path, &facts);
  g_assert_cmpuint (g_hash_table_size (facts.main_tids), >, 0);
  check_main_only (all, &facts, &slices);
  /* Exactly the main threads' markers: none lost, none added. */
  g_assert_cmpuint (slices, ==, facts.main_slice_lines);
  g_hash_table_unref (facts.main_tids);
}

/* Chrome's main threads as a person finds them in the JSON: the threads
 * its thread_name metadata names CrBrowserMain, CrRendererMain… (the
 * first one of a process), else the thread whose tid is the pid.  Counts
 * the slices they wrote (B, X). */
static guint
count_chrome_main_slices (JsonArray *events,
                          GHashTable *main_of_pid)
{
  guint n = 0;

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      const char *ph = json_object_get_string_member_with_default (ev, "ph", "");
      gint64 pid = json_object_get_int_member_with_default (ev, "pid", -1);
      gint64 tid = json_object_get_int_member_with_default (ev, "tid", -1);
      JsonObject *args = json_object_get_object_member (ev, "args");
      const char *name = args ? json_object_get_string_member_with_default (args, "name", "") : "";

      if (g_str_equal (ph, "M") && g_str_equal (json_object_get_string_member (ev, "name"), "thread_name") &&
          g_str_has_prefix (name, "Cr") && g_str_has_suffix (name, "Main") &&
          !g_hash_table_contains (main_of_pid, GINT_TO_POINTER (pid)))
        g_hash_table_insert (main_of_pid, GINT_TO_POINTER (pid), GINT_TO_POINTER (tid));
    }
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      const char *ph = json_object_get_string_member_with_default (ev, "ph", "");
      gint64 pid = json_object_get_int_member_with_default (ev, "pid", -1);
      gint64 tid = json_object_get_int_member_with_default (ev, "tid", -1);
      gpointer main_tid;

      /* an X without dur is no slice (trace_processor makes none either) */
      if (!g_str_equal (ph, "B") && !(g_str_equal (ph, "X") && json_object_has_member (ev, "dur")))
        continue;
      if (g_hash_table_lookup_extended (main_of_pid, GINT_TO_POINTER (pid), NULL, &main_tid))
        n += tid == GPOINTER_TO_INT (main_tid);
      else
        n += tid == pid;
    }
  return n;
}

/* Real Chrome traces, one naming its threads first (Lighthouse), one
 * naming its renderer's main thread in its very last event (DevTools):
 * main-thread-filter keeps exactly the slices of the main threads. */
static void
test_main_thread_chrome (gconstpointer data)
{
  g_autofree char *path = g_build_filename (TEST_DATA_DIR, "json", (const char *) data, NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GHashTable) main_of_pid = g_hash_table_new (NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *desc = NULL;
  g_autoptr (TraceBatch) all = NULL;
  JsonNode *root;
  JsonArray *events;
  guint want, got = 0;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  root = json_parser_get_root (parser);
  events = JSON_NODE_HOLDS_ARRAY (root) ? json_node_get_array (root)
                                        : json_object_get_array_member (json_node_get_object (root), "traceEvents");
  want = count_chrome_main_slices (events, main_of_pid);
  g_assert_cmpuint (g_hash_table_size (main_of_pid), >, 0);
  g_assert_cmpuint (want, >, 0);

  desc = g_strdup_printf ("json-src location=\"%s\" ! main-thread-filter ! collectsink name=out", path);
  all = run_to_batch (desc);
  for (guint i = 0; i < all->n_events; i++)
    {
      const TraceEvent *ev = &all->events[i];
      gpointer main_tid;

      /* the call tree's nodes pass, as metadata does: samples name them */
      if (trace_event_kind_get_group (ev->kind) == TRACE_EVENT_GROUP_METADATA || ev->kind == TRACE_EVENT_STACK_NODE ||
          ev->tid < 0)
        continue;
      if (g_hash_table_lookup_extended (main_of_pid, GINT_TO_POINTER (ev->pid), NULL, &main_tid))
        g_assert_cmpint (ev->tid, ==, GPOINTER_TO_INT (main_tid));
      else
        g_assert_cmpint (ev->tid, ==, ev->pid);
      got += ev->kind == TRACE_EVENT_SLICE_BEGIN || ev->kind == TRACE_EVENT_SLICE_COMPLETE;
    }
  g_assert_cmpuint (got, ==, want);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  test_register_collect_sink ();
  g_test_add_data_func ("/filter/tid-main/generated", "filter tid=main", test_main_thread_generated);
  g_test_add_data_func ("/main-thread-filter/generated", "main-thread-filter", test_main_thread_generated);
  g_test_add_data_func ("/main-thread-filter/chrome-names-first", "lighthouse_tracingstarted-after-navstart.json",
                        test_main_thread_chrome);
  g_test_add_data_func ("/main-thread-filter/chrome-names-last", "speedscope_chrome70_worker.json",
                        test_main_thread_chrome);
  return g_test_run ();
}
