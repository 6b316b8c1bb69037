/* arkts-src end to end: a CPU profile through `arkts-src !
 * json-sink` and `arkts-src ! perfetto-sink`. The slices' names, their
 * number and the sum of their durations per function are computed here
 * from the profile itself (json-glib: nodes, samples, timeDeltas, with
 * the sample times and last-sample rule of docs/arkts.md) and compared
 * with the X events of the JSON file and the begin/end pairs read back
 * from the Perfetto file. */
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "rt-util.h"

typedef struct
{
  GHashTable *total; /* function name → summed duration, ns (gint64 *) */
  guint slices;
} Expect;

typedef struct
{
  gint64 ts;
  guint order;
  gint64 node;
} Sample;

static gint
cmp_sample (gconstpointer a,
            gconstpointer b)
{
  const Sample *x = a, *y = b;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

/* The profile object of a .cpuprofile, a CDP result or an ArkTS message
 * stream (the `{"id":3,"result":{"profile":…}}` line). */
static JsonObject *
find_profile (JsonParser *parser,
              const char *path)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = rt_split_lines (text);
  for (guint i = 0; lines[i]; i++)
    {
      JsonObject *o;

      if (lines[i][0] != '{' || !json_parser_load_from_data (parser, lines[i], -1, NULL))
        continue;
      o = json_node_get_object (json_parser_get_root (parser));
      if (json_object_has_member (o, "result"))
        o = json_object_get_object_member (o, "result");
      if (o && json_object_has_member (o, "profile"))
        o = json_object_get_object_member (o, "profile");
      if (o && json_object_has_member (o, "nodes"))
        return o;
    }
  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  return json_node_get_object (json_parser_get_root (parser));
}

/* node id → (parent id, name); the root is the node no one lists as a
 * child. */
static void
read_nodes (JsonObject *profile,
            GHashTable *parent,
            GHashTable *name)
{
  JsonArray *nodes = json_object_get_array_member (profile, "nodes");

  for (guint i = 0; i < json_array_get_length (nodes); i++)
    {
      JsonObject *n = json_array_get_object_element (nodes, i);
      gint64 id = json_object_get_int_member (n, "id");
      const char *fn = json_object_get_string_member (json_object_get_object_member (n, "callFrame"), "functionName");
      JsonArray *children = json_object_has_member (n, "children") ? json_object_get_array_member (n, "children") : NULL;

      g_hash_table_insert (name, g_memdup2 (&id, sizeof id), g_strdup (fn[0] ? fn : "(anonymous)"));
      for (guint c = 0; children && c < json_array_get_length (children); c++)
        {
          gint64 child = json_array_get_int_element (children, c);

          g_hash_table_insert (parent, g_memdup2 (&child, sizeof child), g_memdup2 (&id, sizeof id));
        }
    }
}

/* The stack of a node, outermost first, without the root. */
static GArray *
stack_of (GHashTable *parent,
          gint64 node)
{
  GArray *stack = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 *up;

  while ((up = g_hash_table_lookup (parent, &node)) != NULL)
    {
      g_array_prepend_val (stack, node);
      node = *up;
    }
  return stack;
}

/* Samples at startTime + Σ timeDeltas[0..i] µs, in time order; sample i
 * lasts to the next one, the last one a mean interval (not past endTime
 * when that is after it). A frame's slice time is the time of the
 * samples whose stack holds it; a slice begins where a frame enters the
 * stack. */
static void
expect_from_profile (const char *path,
                     Expect *e)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *profile = find_profile (parser, path);
  JsonArray *ids = json_object_get_array_member (profile, "samples");
  JsonArray *deltas = json_object_get_array_member (profile, "timeDeltas");
  g_autoptr (GHashTable) parent = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr (GHashTable) name = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr (GArray) samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  g_autoptr (GArray) prev = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 t = llround (json_object_get_double_member (profile, "startTime") * 1000.0);
  gint64 end_time = llround (json_object_get_double_member (profile, "endTime") * 1000.0);
  guint n = json_array_get_length (ids);
  gint64 first, last, mean, end;

  read_nodes (profile, parent, name);
  g_assert_cmpuint (json_array_get_length (deltas), ==, n);
  g_assert_cmpuint (n, >=, 2);
  for (guint i = 0; i < n; i++)
    {
      Sample s = { t + llround (json_array_get_double_element (deltas, i) * 1000.0), i, json_array_get_int_element (ids, i) };

      t = s.ts;
      g_array_append_val (samples, s);
    }
  g_array_sort (samples, cmp_sample);
  first = g_array_index (samples, Sample, 0).ts;
  last = g_array_index (samples, Sample, n - 1).ts;
  mean = (last - first) / (n - 1);
  end = end_time >= last && end_time < last + mean ? end_time : last + mean;
  for (guint i = 0; i < n; i++)
    {
      Sample *s = &g_array_index (samples, Sample, i);
      gint64 dur = (i + 1 < n ? g_array_index (samples, Sample, i + 1).ts : end) - s->ts;
      g_autoptr (GArray) stack = stack_of (parent, s->node);
      guint common = 0;

      while (common < stack->len && common < prev->len && g_array_index (stack, gint64, common) == g_array_index (prev, gint64, common))
        common++;
      e->slices += stack->len - common;
      for (guint k = 0; k < stack->len; k++)
        {
          const char *fn = g_hash_table_lookup (name, &g_array_index (stack, gint64, k));
          gint64 *sum = g_hash_table_lookup (e->total, fn);

          if (sum == NULL)
            g_hash_table_insert (e->total, g_strdup (fn), sum = g_new0 (gint64, 1));
          *sum += dur;
        }
      g_array_set_size (prev, 0);
      g_array_append_vals (prev, stack->data, stack->len);
    }
}

static void
add_duration (GHashTable *total,
              const char *name,
              gint64 dur)
{
  gint64 *sum = g_hash_table_lookup (total, name);

  if (sum == NULL)
    g_hash_table_insert (total, g_strdup (name), sum = g_new0 (gint64, 1));
  *sum += dur;
}

static void
assert_same_totals (const char *what,
                    Expect *want,
                    GHashTable *got,
                    guint got_slices)
{
  GHashTableIter iter;
  gpointer key, value;

  g_assert_cmpuint (g_hash_table_size (got), ==, g_hash_table_size (want->total));
  g_hash_table_iter_init (&iter, want->total);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gint64 *other = g_hash_table_lookup (got, key);

      g_test_message ("%s: %s: %" G_GINT64_FORMAT " ns", what, (char *) key, *(gint64 *) value);
      g_assert_nonnull (other);
      g_assert_cmpint (*other, ==, *(gint64 *) value);
    }
  g_assert_cmpuint (got_slices, ==, want->slices);
}

/* X events of json-sink's file, read by json-glib: dur is µs with the
 * ns as a fraction. */
static void
json_totals (const char *path,
             GHashTable *total,
             guint *slices)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonArray *events;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      const char *ph = json_object_get_string_member (ev, "ph");

      /* a slice still open would be a B: there must be none */
      g_assert_cmpstr (ph, !=, "B");
      if (!g_str_equal (ph, "X"))
        continue;
      add_duration (total, json_object_get_string_member (ev, "name"),
                    llround (json_object_get_double_member (ev, "dur") * 1000.0));
      (*slices)++;
    }
}

static void
test_profile (gconstpointer data)
{
  const char *path = data;
  g_autofree char *dir = rt_tmpdir ();
  g_autofree char *json = g_build_filename (dir, "out.json", NULL);
  g_autofree char *pftrace = g_build_filename (dir, "out.pftrace", NULL);
  g_autofree char *to_json = g_strdup_printf ("arkts-src location=%s ! json-sink location=%s", path, json);
  g_autofree char *to_perfetto = g_strdup_printf ("arkts-src location=%s ! perfetto-sink location=%s", path, pftrace);
  g_autofree char *back_desc = g_strdup_printf ("perfetto-src location=%s ! collectsink name=out", pftrace);
  g_autoptr (GHashTable) json_total = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GHashTable) perfetto_total = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (TraceBatch) back = NULL;
  g_autoptr (GArray) slices = NULL;
  Expect want = { g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free), 0 };
  guint json_slices = 0;

  expect_from_profile (path, &want);
  g_assert_cmpuint (want.slices, >, 0);
  rt_run (to_json, FALSE);
  json_totals (json, json_total, &json_slices);
  assert_same_totals ("json", &want, json_total, json_slices);

  rt_run (to_perfetto, FALSE);
  back = rt_run (back_desc, TRUE);
  slices = rt_slices (back);
  for (guint i = 0; i < slices->len; i++)
    {
      RtSlice *s = &g_array_index (slices, RtSlice, i);

      g_assert_cmpint (s->dur, >=, 0);
      add_duration (perfetto_total, s->name, s->dur);
    }
  assert_same_totals ("perfetto", &want, perfetto_total, slices->len);
  g_hash_table_unref (want.total);
  rt_rmtree (dir);
}

int
main (int argc,
      char **argv)
{
  static const char *profiles[] = {
    "node20_inspector.cpuprofile",
    "node20_cpuprofile_cdp_result.json",
    "ohos_ts_ut_js_cpu_profiler_results.jsonl",
    "speedscope_chrome65_simple.cpuprofile",
  };

  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  test_register_collect_sink ();
  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    {
      g_autofree char *name = g_strdup_printf ("/roundtrip/arkts/%s", profiles[i]);

      g_test_add_data_func_full (name, g_build_filename (TEST_DATA_DIR, "arkts", profiles[i], NULL), test_profile,
                                 g_free);
    }
  return g_test_run ();
}
