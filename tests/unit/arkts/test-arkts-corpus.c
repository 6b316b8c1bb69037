/* Unit tests of the arkts reader on the corpus files (tests/data/arkts).
 *
 * Every expectation is computed here from the file itself with json-glib
 * (sample counts and times, call trees, snapshot totals), never copied
 * from the reader's output.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "arkts-test-util.h"

/* ---- every file ---- */

static void
test_every_file_converts (void)
{
  g_autofree char *dir_path = arkts_test_path ("");
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint files = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)))
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (ArktsRun) run = arkts_run_file (name, NULL, &error);
      g_test_message ("%s", name);
      g_assert_no_error (error);
      g_assert_cmpuint (run->events->n_events, >, 0);
      g_assert_cmpint (arkts_reader_get_input_kind (run->reader), !=, ARKTS_INPUT_UNKNOWN);
      files++;
    }
  g_assert_cmpuint (files, ==, 12);
}

/* ---- CPU profiles ---- */

typedef struct
{
  GHashTable *name;   /* id → function name as shown */
  GHashTable *parent; /* id → parent id (0: none) */
  GArray *samples;    /* gint64 node ids, sorted by time */
  GArray *ts;         /* gint64 ns */
  gint64 end;
  gint64 root;
} Expected;

static void
expected_free (Expected *e)
{
  g_hash_table_unref (e->name);
  g_hash_table_unref (e->parent);
  g_array_unref (e->samples);
  g_array_unref (e->ts);
}

static gpointer
key (gint64 id)
{
  return GSIZE_TO_POINTER ((gsize) id);
}

static void
add_expected_node (Expected *e,
                   JsonObject *node)
{
  JsonObject *frame = json_object_has_member (node, "callFrame") ? json_object_get_object_member (node, "callFrame") : node;
  const char *name = json_object_get_string_member (frame, "functionName");

  g_hash_table_insert (e->name, key (json_object_get_int_member (node, "id")), g_strdup (*name ? name : "(anonymous)"));
  if (g_strcmp0 (name, "(root)") == 0)
    e->root = json_object_get_int_member (node, "id");
}

/* The call tree from the file: modern `nodes` + `children`, or the old
 * nested `head` (walked with a stack). */
static void
expected_tree (Expected *e,
               JsonObject *profile)
{
  if (json_object_has_member (profile, "nodes"))
    {
      JsonArray *nodes = json_object_get_array_member (profile, "nodes");
      for (guint i = 0; i < json_array_get_length (nodes); i++)
        add_expected_node (e, json_array_get_object_element (nodes, i));
      for (guint i = 0; i < json_array_get_length (nodes); i++)
        {
          JsonObject *node = json_array_get_object_element (nodes, i);
          JsonArray *children = json_object_has_member (node, "children") ? json_object_get_array_member (node, "children") : NULL;
          for (guint c = 0; children && c < json_array_get_length (children); c++)
            g_hash_table_insert (e->parent, key (json_array_get_int_element (children, c)), key (json_object_get_int_member (node, "id")));
        }
      return;
    }
  {
    g_autoptr (GPtrArray) stack = g_ptr_array_new ();
    g_ptr_array_add (stack, json_object_get_object_member (profile, "head"));
    while (stack->len)
      {
        JsonObject *node = g_ptr_array_steal_index (stack, stack->len - 1);
        JsonArray *children = json_object_get_array_member (node, "children");
        add_expected_node (e, node);
        for (guint c = 0; c < json_array_get_length (children); c++)
          {
            JsonObject *child = json_array_get_object_element (children, c);
            g_hash_table_insert (e->parent, key (json_object_get_int_member (child, "id")), key (json_object_get_int_member (node, "id")));
            g_ptr_array_add (stack, child);
          }
      }
  }
}

/* Sample times: startTime + Σ timeDeltas[0..i] (modern), or the old
 * timestamps (the first being the start when there is one more). */
static void
expected_samples (Expected *e,
                  JsonObject *profile)
{
  JsonArray *samples = json_object_get_array_member (profile, "samples");
  guint n = json_array_get_length (samples);
  gboolean modern = json_object_has_member (profile, "timeDeltas");
  JsonArray *times = json_object_get_array_member (profile, modern ? "timeDeltas" : "timestamps");
  guint shift = !modern && json_array_get_length (times) == n + 1;
  gint64 t = modern ? json_object_get_int_member (profile, "startTime") : 0;
  gint64 first, last, mean, end;

  for (guint i = 0; i < n; i++)
    {
      gint64 id = json_array_get_int_element (samples, i), ns;
      t = modern ? t + json_array_get_int_element (times, i) : json_array_get_int_element (times, i + shift);
      ns = t * 1000;
      g_array_append_val (e->samples, id);
      g_array_append_val (e->ts, ns);
    }
  /* the last sample lasts the mean interval, not past endTime (µs, modern) */
  first = g_array_index (e->ts, gint64, 0);
  last = g_array_index (e->ts, gint64, n - 1);
  mean = (last - first) / (n - 1);
  end = modern ? json_object_get_int_member (profile, "endTime") * 1000 : G_MAXINT64;
  e->end = end >= last && end < last + mean ? end : last + mean;
}

static guint
depth_below_root (Expected *e,
                  gint64 id)
{
  guint depth = 0;

  for (; id != 0 && id != e->root; id = GPOINTER_TO_SIZE (g_hash_table_lookup (e->parent, key (id))))
    depth++;
  return depth;
}

static void
check_stack_nodes (ArktsRun *run,
                   Expected *e)
{
  guint n = 0;

  for (guint i = 0; i < run->events->n_events; i++)
    {
      const TraceEvent *ev = &run->events->events[i];
      if (ev->kind != TRACE_EVENT_STACK_NODE)
        continue;
      n++;
      g_assert_cmpstr (arkts_run_name (run, ev), ==, g_hash_table_lookup (e->name, key ((gint64) ev->u.stack_node.id)));
      g_assert_cmpuint (ev->u.stack_node.parent_id, ==, GPOINTER_TO_SIZE (g_hash_table_lookup (e->parent, key ((gint64) ev->u.stack_node.id))));
    }
  g_assert_cmpuint (n, ==, g_hash_table_size (e->name));
}

/* Samples in time order with the file's times and leaves; slices nest,
 * and at each sample the open slices are exactly its stack. */
static void
check_samples_and_slices (ArktsRun *run,
                          Expected *e)
{
  g_autoptr (GPtrArray) open = g_ptr_array_new ();
  g_autoptr (GHashTable) expected_names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) slice_names = g_hash_table_new (g_str_hash, g_str_equal);
  gint64 top_begin = 0, top_total = 0, last_ts = G_MININT64;
  guint s = 0;

  for (guint i = 0; i < run->events->n_events; i++)
    {
      const TraceEvent *ev = &run->events->events[i];
      const char *name = arkts_run_name (run, ev);
      if (ev->kind == TRACE_EVENT_SLICE_BEGIN || ev->kind == TRACE_EVENT_SLICE_END || ev->kind == TRACE_EVENT_SAMPLE)
        {
          g_assert_cmpint (ev->ts, >=, last_ts);
          last_ts = ev->ts;
        }
      if (ev->kind == TRACE_EVENT_SLICE_BEGIN)
        {
          if (open->len == 0)
            top_begin = ev->ts;
          g_ptr_array_add (open, (gpointer) name);
          g_hash_table_add (slice_names, (gpointer) name);
        }
      else if (ev->kind == TRACE_EVENT_SLICE_END)
        {
          g_assert_cmpuint (open->len, >, 0);
          g_assert_cmpstr (g_ptr_array_steal_index (open, open->len - 1), ==, name);
          if (open->len == 0)
            top_total += ev->ts - top_begin;
        }
      else if (ev->kind == TRACE_EVENT_SAMPLE)
        {
          gint64 leaf = g_array_index (e->samples, gint64, s);
          g_assert_cmpint (ev->ts, ==, g_array_index (e->ts, gint64, s));
          g_assert_cmpuint (ev->u.sample.node_id, ==, (guint64) leaf);
          g_assert_cmpuint (open->len, ==, depth_below_root (e, leaf));
          g_assert_cmpstr (open->pdata[open->len - 1], ==, g_hash_table_lookup (e->name, key (leaf)));
          for (gint64 id = leaf; id != e->root && id != 0; id = GPOINTER_TO_SIZE (g_hash_table_lookup (e->parent, key (id))))
            g_hash_table_add (expected_names, g_hash_table_lookup (e->name, key (id)));
          s++;
        }
    }
  g_assert_cmpuint (s, ==, e->samples->len);
  g_assert_cmpuint (open->len, ==, 0);
  /* every sample's stack is below the root: no gaps */
  g_assert_cmpint (top_total, ==, e->end - g_array_index (e->ts, gint64, 0));
  g_assert_cmpuint (g_hash_table_size (slice_names), ==, g_hash_table_size (expected_names));
  {
    GHashTableIter iter;
    gpointer name;
    g_hash_table_iter_init (&iter, expected_names);
    while (g_hash_table_iter_next (&iter, &name, NULL))
      g_assert_true (g_hash_table_contains (slice_names, name));
  }
}

static void
check_cpu_profile (ArktsRun *run,
                   JsonObject *profile)
{
  Expected e = { g_hash_table_new_full (NULL, NULL, NULL, g_free), g_hash_table_new (NULL, NULL),
                 g_array_new (FALSE, FALSE, sizeof (gint64)), g_array_new (FALSE, FALSE, sizeof (gint64)), 0, 0 };

  expected_tree (&e, profile);
  expected_samples (&e, profile);
  check_stack_nodes (run, &e);
  check_samples_and_slices (run, &e);
  g_assert_cmpuint (arkts_reader_get_stats (run->reader)->samples, ==, e.samples->len);
  g_assert_cmpint (arkts_reader_get_clock_domain (run->reader), ==, TRACE_CLOCK_MONOTONIC);
  expected_free (&e);
}

static void
test_cpuprofile_file (gconstpointer data)
{
  const char *name = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_file (name, NULL, &error);
  g_autoptr (JsonNode) root = arkts_test_parse_file (name);

  g_assert_no_error (error);
  g_assert_cmpint (arkts_reader_get_input_kind (run->reader), ==, ARKTS_INPUT_CPU_PROFILE);
  check_cpu_profile (run, json_node_get_object (root));
}

/* The CDP framing: {"id":3,"result":{"profile":{…}}} on one line. */
static void
test_cdp_result (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_file ("node20_cpuprofile_cdp_result.json", NULL, &error);
  g_autoptr (JsonNode) root = arkts_test_parse_file ("node20_cpuprofile_cdp_result.json");
  JsonObject *result = json_object_get_object_member (json_node_get_object (root), "result");

  g_assert_no_error (error);
  g_assert_cmpint (arkts_reader_get_input_kind (run->reader), ==, ARKTS_INPUT_MESSAGES);
  check_cpu_profile (run, json_object_get_object_member (result, "profile"));
}

/* The same profile in the old `head` form and the modern form: the same
 * samples at the same times and the same slices. */
static void
test_old_format_matches_modern (void)
{
  g_autoptr (ArktsRun) modern = arkts_run_file ("speedscope_chrome65_simple.cpuprofile", NULL, NULL);
  g_autoptr (ArktsRun) old = arkts_run_file ("speedscope_node10_example_oldformat.cpuprofile", NULL, NULL);
  guint i = 0, j = 0;

  for (;;)
    {
      while (i < modern->events->n_events && modern->events->events[i].kind == TRACE_EVENT_STACK_NODE)
        i++;
      while (j < old->events->n_events && old->events->events[j].kind == TRACE_EVENT_STACK_NODE)
        j++;
      if (i == modern->events->n_events || j == old->events->n_events)
        break;
      g_assert_cmpint (modern->events->events[i].kind, ==, old->events->events[j].kind);
      if (modern->events->events[i].kind != TRACE_EVENT_INSTANT)
        g_assert_cmpint (modern->events->events[i].ts, ==, old->events->events[j].ts);
      g_assert_cmpstr (arkts_run_name (modern, &modern->events->events[i]), ==, arkts_run_name (old, &old->events->events[j]));
      i++, j++;
    }
  g_assert_cmpuint (i, ==, modern->events->n_events);
  g_assert_cmpuint (j, ==, old->events->n_events);
}

/* ArkTS: the profile (line 2) after the id 3 start marker; line 3 says
 * "data" instead of "profile", which TraceStreamer ignores too. */
static void
test_arkts_cpu_profiler (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_file ("ohos_ts_ut_js_cpu_profiler_results.jsonl", NULL, &error);
  g_autofree char *text = arkts_test_read_file ("ohos_ts_ut_js_cpu_profiler_results.jsonl", NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (JsonNode) message = arkts_test_parse_text (lines[1]);
  JsonObject *profile = json_object_get_object_member (json_object_get_object_member (json_node_get_object (message), "result"), "profile");
  const ArktsReaderStats *stats;
  const TraceEvent *summary;
  const char *extras[] = { "gcTime", "cInterpreterTime", "asmInterpreterTime", "aotTime", "builtinTime",
                           "napiTime", "arkuiEngineTime", "runtimeTime", "otherTime" };

  g_assert_no_error (error);
  check_cpu_profile (run, profile);
  for (guint i = 0; i < run->events->n_events; i++)
    g_assert_cmpint (run->events->events[i].tid, ==, json_object_get_int_member (profile, "tid"));
  summary = arkts_run_find (run, TRACE_EVENT_INSTANT, "JS CPU profile", 0);
  for (guint i = 0; i < G_N_ELEMENTS (extras); i++)
    g_assert_cmpint (arkts_run_arg_int (run, summary, extras[i]), ==, json_object_get_int_member (profile, extras[i]));
  stats = arkts_reader_get_stats (run->reader);
  g_assert_cmpuint (stats->messages, ==, 3);
  g_assert_cmpuint (stats->skipped[ARKTS_SKIP_UNKNOWN_RESULT].count, ==, 1);
  g_assert_cmpstr (stats->skipped[ARKTS_SKIP_UNKNOWN_RESULT].first_where, ==, "line 3");
}

/* ---- heap snapshots ---- */

typedef struct
{
  gint64 nodes, edges, self_size;
  GHashTable *type_count, *type_size; /* type name → value */
  char *top_name[3];
  gint64 top_size[3];
} HeapTotals;

static void
heap_totals_clear (HeapTotals *t)
{
  g_hash_table_unref (t->type_count);
  g_hash_table_unref (t->type_size);
  for (guint i = 0; i < 3; i++)
    g_free (t->top_name[i]);
}

static gint64
array_int (JsonArray *a,
           guint i)
{
  return json_array_get_int_element (a, i);
}

/* DevTools' className(): objects and natives by name, others by type. */
static char *
class_of (const char *type,
          JsonArray *strings,
          gint64 name)
{
  if (strcmp (type, "object") == 0 || strcmp (type, "native") == 0)
    return (guint64) name < json_array_get_length (strings) ? g_strdup (json_array_get_string_element (strings, name))
                                                            : g_strdup_printf ("(string %" G_GINT64_FORMAT ")", name);
  if (strcmp (type, "hidden") == 0)
    return g_strdup ("(system)");
  if (strcmp (type, "code") == 0)
    return g_strdup ("(compiled code)");
  return g_strdup_printf ("(%s)", type);
}

static void
pick_top (HeapTotals *t,
          GHashTable *class_size)
{
  GHashTableIter iter;
  gpointer name, size;

  for (guint k = 0; k < 3; k++)
    {
      gint64 best = -1;
      g_hash_table_iter_init (&iter, class_size);
      while (g_hash_table_iter_next (&iter, &name, &size))
        if (*(gint64 *) size > best && (k == 0 || strcmp (name, t->top_name[0])) && (k < 2 || strcmp (name, t->top_name[1])))
          {
            best = *(gint64 *) size;
            g_free (t->top_name[k]);
            t->top_name[k] = g_strdup (name);
          }
      t->top_size[k] = best;
    }
}

/* Totals of a snapshot document, from its meta (never fixed offsets). */
static void
heap_totals (HeapTotals *t,
             JsonObject *doc)
{
  JsonObject *meta = json_object_get_object_member (json_object_get_object_member (doc, "snapshot"), "meta");
  JsonArray *fields = json_object_get_array_member (meta, "node_fields");
  JsonArray *types = json_array_get_array_element (json_object_get_array_member (meta, "node_types"), 0);
  JsonArray *nodes = json_object_get_array_member (doc, "nodes");
  JsonArray *strings = json_object_get_array_member (doc, "strings");
  guint stride = json_array_get_length (fields), f_type = 0, f_name = 0, f_size = 0;
  g_autoptr (GHashTable) class_size = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; i < stride; i++)
    {
      const char *field = json_array_get_string_element (fields, i);
      f_type = strcmp (field, "type") == 0 ? i : f_type;
      f_name = strcmp (field, "name") == 0 ? i : f_name;
      f_size = strcmp (field, "self_size") == 0 ? i : f_size;
    }
  memset (t, 0, sizeof *t);
  t->type_count = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  t->type_size = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  t->nodes = json_array_get_length (nodes) / stride;
  t->edges = json_array_get_length (json_object_get_array_member (doc, "edges")) / json_array_get_length (json_object_get_array_member (meta, "edge_fields"));
  for (guint i = 0; i + stride <= json_array_get_length (nodes); i += stride)
    {
      const char *type = json_array_get_string_element (types, array_int (nodes, i + f_type));
      gint64 size = array_int (nodes, i + f_size);
      gint64 *count_slot = g_hash_table_lookup (t->type_count, type), *size_slot, *class_slot;
      char *klass = class_of (type, strings, array_int (nodes, i + f_name));
      if (count_slot == NULL)
        {
          g_hash_table_insert (t->type_count, (gpointer) type, count_slot = g_new0 (gint64, 1));
          g_hash_table_insert (t->type_size, (gpointer) type, g_new0 (gint64, 1));
        }
      size_slot = g_hash_table_lookup (t->type_size, type);
      (*count_slot)++;
      *size_slot += size;
      t->self_size += size;
      class_slot = g_hash_table_lookup (class_size, klass);
      if (class_slot == NULL)
        g_hash_table_insert (class_size, g_strdup (klass), class_slot = g_new0 (gint64, 1));
      *class_slot += size;
      g_free (klass);
    }
  pick_top (t, class_size);
}

static gdouble
counter_value (ArktsRun *run,
               const char *name,
               guint nth)
{
  const TraceEvent *ev = arkts_run_find (run, TRACE_EVENT_COUNTER, name, nth);

  g_assert_nonnull (ev);
  return ev->u.counter.value;
}

static void
check_snapshot (ArktsRun *run,
                JsonObject *doc,
                guint nth)
{
  HeapTotals t;
  const TraceEvent *summary = arkts_run_find (run, TRACE_EVENT_INSTANT, "JS heap snapshot", nth);
  GHashTableIter iter;
  gpointer type, count;

  heap_totals (&t, doc);
  g_assert_nonnull (summary);
  g_assert_cmpfloat (counter_value (run, "JS heap self size", nth), ==, (double) t.self_size);
  g_assert_cmpfloat (counter_value (run, "JS heap nodes", nth), ==, (double) t.nodes);
  g_assert_cmpfloat (counter_value (run, "JS heap edges", nth), ==, (double) t.edges);
  g_assert_cmpint (arkts_run_arg_int (run, summary, "node_count"), ==, t.nodes);
  g_assert_cmpint (arkts_run_arg_int (run, summary, "edge_count"), ==, t.edges);
  g_assert_cmpint (arkts_run_arg_int (run, summary, "self_size"), ==, t.self_size);
  g_hash_table_iter_init (&iter, t.type_count);
  while (g_hash_table_iter_next (&iter, &type, &count))
    {
      g_autofree char *count_key = g_strdup_printf ("types.%s.count", (char *) type);
      g_autofree char *size_key = g_strdup_printf ("types.%s.self_size", (char *) type);
      g_assert_cmpint (arkts_run_arg_int (run, summary, count_key), ==, *(gint64 *) count);
      g_assert_cmpint (arkts_run_arg_int (run, summary, size_key), ==, *(gint64 *) g_hash_table_lookup (t.type_size, type));
    }
  for (guint k = 0; k < 3 && t.top_size[k] >= 0; k++)
    {
      g_autofree char *name_key = g_strdup_printf ("constructors[%u].name", k);
      g_autofree char *size_key = g_strdup_printf ("constructors[%u].self_size", k);
      g_assert_cmpstr (arkts_run_arg_string (run, summary, name_key), ==, t.top_name[k]);
      g_assert_cmpint (arkts_run_arg_int (run, summary, size_key), ==, t.top_size[k]);
    }
  heap_totals_clear (&t);
}

static void
test_heapsnapshot_file (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_file ("node20_writeHeapSnapshot.heapsnapshot", NULL, &error);
  g_autoptr (JsonNode) root = arkts_test_parse_file ("node20_writeHeapSnapshot.heapsnapshot");

  g_assert_no_error (error);
  g_assert_cmpint (arkts_reader_get_input_kind (run->reader), ==, ARKTS_INPUT_HEAP_SNAPSHOT);
  g_assert_cmpint (arkts_reader_get_clock_domain (run->reader), ==, TRACE_CLOCK_UNKNOWN);
  check_snapshot (run, json_node_get_object (root), 0);
  g_assert_cmpstr (arkts_run_arg_string (run, arkts_run_find (run, TRACE_EVENT_INSTANT, NULL, 0), "kind"), ==, "snapshot");
  g_assert_null (arkts_reader_get_warning_summary (run->reader));
}

/* The same file gzip-compressed gives the same totals. */
static void
test_heapsnapshot_gzip (void)
{
  gsize len;
  g_autofree char *text = arkts_test_read_file ("node20_writeHeapSnapshot.heapsnapshot", &len);
  g_autoptr (GZlibCompressor) gzip = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr (GInputStream) plain = g_memory_input_stream_new_from_data (text, len, NULL);
  g_autoptr (GInputStream) compressed = g_converter_input_stream_new (plain, G_CONVERTER (gzip));
  g_autoptr (GOutputStream) sink = g_memory_output_stream_new_resizable ();
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = NULL;
  g_autoptr (JsonNode) root = arkts_test_parse_text (text);

  g_output_stream_splice (sink, compressed, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  run = arkts_run_gzip_text (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (sink)),
                             g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (sink)), "x.heapsnapshot.gz", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (arkts_reader_get_stats (run->reader)->bytes, ==, len);
  check_snapshot (run, json_node_get_object (root), 0);
}

/* Allocation traces: per function sums over the nested trace_tree, walked
 * here with an explicit stack. */
static void
check_allocations (ArktsRun *run,
                   JsonObject *doc)
{
  const TraceEvent *ev = arkts_run_find (run, TRACE_EVENT_INSTANT, "JS heap allocations", 0);
  JsonArray *infos = json_object_get_array_member (doc, "trace_function_infos");
  JsonArray *strings = json_object_get_array_member (doc, "strings");
  g_autoptr (GPtrArray) stack = g_ptr_array_new ();
  g_autoptr (GHashTable) per_function = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  gint64 count = 0, size = 0, trace_nodes = 0, best_size = -1, best = -1;
  GHashTableIter iter;
  gpointer fi, sum;

  g_assert_nonnull (ev);
  g_ptr_array_add (stack, json_object_get_array_member (doc, "trace_tree"));
  while (stack->len)
    {
      JsonArray *level = g_ptr_array_steal_index (stack, stack->len - 1);
      for (guint i = 0; i + 5 <= json_array_get_length (level); i += 5)
        {
          gint64 *slot = g_hash_table_lookup (per_function, key (array_int (level, i + 1)));
          if (slot == NULL)
            g_hash_table_insert (per_function, key (array_int (level, i + 1)), slot = g_new0 (gint64, 2));
          slot[0] += array_int (level, i + 2);
          slot[1] += array_int (level, i + 3);
          count += array_int (level, i + 2);
          size += array_int (level, i + 3);
          trace_nodes++;
          g_ptr_array_add (stack, json_array_get_array_element (level, i + 4));
        }
    }
  g_assert_cmpint (arkts_run_arg_int (run, ev, "allocated.count"), ==, count);
  g_assert_cmpint (arkts_run_arg_int (run, ev, "allocated.size"), ==, size);
  g_assert_cmpint (arkts_run_arg_int (run, ev, "trace_node_count"), ==, trace_nodes);
  g_hash_table_iter_init (&iter, per_function);
  while (g_hash_table_iter_next (&iter, &fi, &sum))
    if (((gint64 *) sum)[1] > best_size)
      best_size = ((gint64 *) sum)[1], best = (gint64) GPOINTER_TO_SIZE (fi);
  g_assert_cmpint (arkts_run_arg_int (run, ev, "functions[0].size"), ==, best_size);
  g_assert_cmpstr (arkts_run_arg_string (run, ev, "functions[0].name"), ==,
                   json_array_get_string_element (strings, array_int (infos, best * 6 + 1)));
}

static void
test_heaptimeline_file (void)
{
  g_autoptr (GError) error = NULL;
  ArktsReaderOptions opts;
  g_autoptr (ArktsRun) run = NULL;
  g_autoptr (JsonNode) root = arkts_test_parse_file ("node20_trackAllocations.heaptimeline");
  JsonObject *doc = json_node_get_object (root);
  JsonArray *samples = json_object_get_array_member (doc, "samples");
  guint n = json_array_get_length (samples) / 2;
  const gint64 start = 7000000000;

  arkts_reader_options_init (&opts);
  opts.start_time = start;
  opts.pid = 42;
  run = arkts_run_file ("node20_trackAllocations.heaptimeline", &opts, &error);
  g_assert_no_error (error);
  check_snapshot (run, doc, 0);
  check_allocations (run, doc);
  g_assert_cmpuint (arkts_run_count (run, TRACE_EVENT_COUNTER, "JS heap last assigned id"), ==, n);
  for (guint i = 0; i < n; i++)
    {
      const TraceEvent *ev = arkts_run_find (run, TRACE_EVENT_COUNTER, "JS heap last assigned id", i);
      g_assert_cmpint (ev->ts, ==, start + array_int (samples, 2 * i) * 1000);
      g_assert_cmpint (ev->pid, ==, 42);
      g_assert_cmpfloat (ev->u.counter.value, ==, (double) array_int (samples, 2 * i + 1));
    }
  /* the summary sits at the end of the timeline: its last sample */
  g_assert_cmpint (arkts_run_find (run, TRACE_EVENT_INSTANT, "JS heap snapshot", 0)->ts, ==, start + array_int (samples, 2 * n - 2) * 1000);
  g_assert_cmpuint (arkts_reader_get_stats (run->reader)->heap_samples, ==, n);
  g_assert_cmpuint (arkts_reader_get_stats (run->reader)->timelines, ==, 1);
}

/* ---- the ArkTS message streams ---- */

/* The document is the concatenation of the chunk strings, in order. */
static JsonNode *
reassemble (const char *name)
{
  g_autofree char *text = arkts_test_read_file (name, NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (GString) doc = g_string_new (NULL);

  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr (JsonNode) msg = NULL;
      JsonObject *obj;
      if (*lines[i] == '\0')
        continue;
      msg = arkts_test_parse_text (lines[i]);
      obj = json_node_get_object (msg);
      if (g_strcmp0 (json_object_get_string_member_with_default (obj, "method", ""), "HeapProfiler.addHeapSnapshotChunk") == 0)
        g_string_append (doc, json_object_get_string_member (json_object_get_object_member (obj, "params"), "chunk"));
    }
  return arkts_test_parse_text (doc->str);
}

/* What the document declares against what it holds: the ArkTS test
 * excerpts keep V8's counts of the full heap. */
static guint
count_mismatches (JsonObject *doc)
{
  JsonObject *snapshot = json_object_get_object_member (doc, "snapshot");
  JsonArray *nodes = json_object_get_array_member (doc, "nodes");
  gint64 n_nodes = json_array_get_length (nodes) / 7, n_edges = json_array_get_length (json_object_get_array_member (doc, "edges")) / 3;
  gint64 edge_sum = 0;

  for (guint i = 0; i < json_array_get_length (nodes); i += 7)
    edge_sum += array_int (nodes, i + 4);
  return (json_object_get_int_member (snapshot, "node_count") != n_nodes) + (json_object_get_int_member (snapshot, "edge_count") != n_edges) + (edge_sum != n_edges);
}

static guint
count_bad_edges (JsonObject *doc)
{
  JsonArray *edges = json_object_get_array_member (doc, "edges");
  gint64 nodes_len = json_array_get_length (json_object_get_array_member (doc, "nodes"));
  guint bad = 0;

  for (guint i = 0; i < json_array_get_length (edges); i += 3)
    bad += array_int (edges, i + 2) % 7 != 0 || array_int (edges, i + 2) >= nodes_len;
  return bad;
}

static void
test_arkts_snapshot_stream (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_file ("ohos_ts_ut_js_memory_snapshot_results.jsonl", NULL, &error);
  g_autoptr (JsonNode) doc = reassemble ("ohos_ts_ut_js_memory_snapshot_results.jsonl");
  const ArktsReaderStats *stats;

  g_assert_no_error (error);
  g_assert_cmpint (arkts_reader_get_input_kind (run->reader), ==, ARKTS_INPUT_MESSAGES);
  check_snapshot (run, json_node_get_object (doc), 0);
  stats = arkts_reader_get_stats (run->reader);
  g_assert_cmpuint (stats->chunks, ==, 2);
  g_assert_cmpuint (stats->progress_messages, ==, 1);
  g_assert_cmpuint (stats->snapshots, ==, 1);
  g_assert_cmpuint (stats->skipped[ARKTS_SKIP_COUNT_MISMATCH].count, ==, count_mismatches (json_node_get_object (doc)));
  g_assert_cmpuint (stats->skipped[ARKTS_SKIP_BAD_EDGE].count, ==, 0);
}

static void
test_arkts_timeline_stream (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_file ("ohos_ts_ut_js_memory_timeline_results.jsonl", NULL, &error);
  g_autoptr (JsonNode) doc = reassemble ("ohos_ts_ut_js_memory_timeline_results.jsonl");
  JsonArray *samples = json_object_get_array_member (json_node_get_object (doc), "samples");
  guint n = json_array_get_length (samples) / 2;
  const ArktsReaderStats *stats;

  g_assert_no_error (error);
  check_snapshot (run, json_node_get_object (doc), 0);
  g_assert_cmpuint (arkts_run_count (run, TRACE_EVENT_COUNTER, "JS heap last assigned id"), ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpint (arkts_run_find (run, TRACE_EVENT_COUNTER, "JS heap last assigned id", i)->ts, ==, array_int (samples, 2 * i) * 1000);
  g_assert_cmpstr (arkts_run_arg_string (run, arkts_run_find (run, TRACE_EVENT_INSTANT, "JS heap snapshot", 0), "kind"), ==, "timeline");
  stats = arkts_reader_get_stats (run->reader);
  g_assert_cmpuint (stats->timelines, ==, 1);
  g_assert_cmpuint (stats->heap_samples, ==, n);
  g_assert_cmpuint (stats->skipped[ARKTS_SKIP_BAD_EDGE].count, ==, count_bad_edges (json_node_get_object (doc)));
  g_assert_cmpstr (stats->skipped[ARKTS_SKIP_BAD_EDGE].first_where, ==, "line 3, snapshot offset 936");
}

/* ---- sampling heap profiles ---- */

static void
test_heapprofile_file (gconstpointer data)
{
  const char *name = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_file (name, NULL, &error);
  g_autoptr (JsonNode) root = arkts_test_parse_file (name);
  g_autoptr (GPtrArray) stack = g_ptr_array_new ();
  g_autoptr (GHashTable) per_function = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  gint64 nodes = 0, total = 0, best = -1;
  const TraceEvent *summary;
  GHashTableIter iter;
  gpointer fn, size;

  g_assert_no_error (error);
  g_assert_cmpint (arkts_reader_get_input_kind (run->reader), ==, ARKTS_INPUT_HEAP_PROFILE);
  g_ptr_array_add (stack, json_object_get_object_member (json_node_get_object (root), "head"));
  while (stack->len)
    {
      JsonObject *node = g_ptr_array_steal_index (stack, stack->len - 1);
      JsonObject *frame = json_object_get_object_member (node, "callFrame");
      JsonArray *children = json_object_get_array_member (node, "children");
      const char *fname = json_object_get_string_member (frame, "functionName");
      char *fkey = g_strdup_printf ("%s|%s", *fname ? fname : "(anonymous)", json_object_get_string_member (frame, "url"));
      gint64 *slot = g_hash_table_lookup (per_function, fkey);
      if (slot == NULL)
        g_hash_table_insert (per_function, g_strdup (fkey), slot = g_new0 (gint64, 1));
      g_free (fkey);
      *slot += json_object_get_int_member (node, "selfSize");
      nodes++;
      total += json_object_get_int_member (node, "selfSize");
      for (guint c = 0; c < json_array_get_length (children); c++)
        g_ptr_array_add (stack, json_array_get_object_element (children, c));
    }
  g_assert_cmpuint (arkts_run_count (run, TRACE_EVENT_STACK_NODE, NULL), ==, nodes);
  g_assert_cmpfloat (counter_value (run, "JS heap sampled size", 0), ==, (double) total);
  summary = arkts_run_find (run, TRACE_EVENT_INSTANT, "JS sampling heap profile", 0);
  g_assert_cmpint (arkts_run_arg_int (run, summary, "node_count"), ==, nodes);
  g_assert_cmpint (arkts_run_arg_int (run, summary, "self_size"), ==, total);
  g_hash_table_iter_init (&iter, per_function);
  while (g_hash_table_iter_next (&iter, &fn, &size))
    best = MAX (best, *(gint64 *) size);
  g_assert_cmpint (arkts_run_arg_int (run, summary, "functions[0].self_size"), ==, best);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/arkts/corpus/every-file-converts", test_every_file_converts);
  g_test_add_data_func ("/arkts/corpus/cpuprofile/node20", "node20_inspector.cpuprofile", test_cpuprofile_file);
  g_test_add_data_func ("/arkts/corpus/cpuprofile/chrome65", "speedscope_chrome65_simple.cpuprofile", test_cpuprofile_file);
  g_test_add_data_func ("/arkts/corpus/cpuprofile/node10-old-format", "speedscope_node10_example_oldformat.cpuprofile", test_cpuprofile_file);
  g_test_add_data_func ("/arkts/corpus/cpuprofile/v8-profiler-legacy", "cp2cg_busy_legacy.cpuprofile", test_cpuprofile_file);
  g_test_add_func ("/arkts/corpus/cpuprofile/old-format-matches-modern", test_old_format_matches_modern);
  g_test_add_func ("/arkts/corpus/cpuprofile/cdp-result", test_cdp_result);
  g_test_add_func ("/arkts/corpus/cpuprofile/arkts", test_arkts_cpu_profiler);
  g_test_add_func ("/arkts/corpus/heapsnapshot/node20", test_heapsnapshot_file);
  g_test_add_func ("/arkts/corpus/heapsnapshot/gzip", test_heapsnapshot_gzip);
  g_test_add_func ("/arkts/corpus/heaptimeline/node20", test_heaptimeline_file);
  g_test_add_func ("/arkts/corpus/wire/snapshot", test_arkts_snapshot_stream);
  g_test_add_func ("/arkts/corpus/wire/timeline", test_arkts_timeline_stream);
  g_test_add_data_func ("/arkts/corpus/heapprofile/chrome69", "speedscope_chrome69_Heap.heapprofile", test_heapprofile_file);
  g_test_add_data_func ("/arkts/corpus/heapprofile/node10", "speedscope_node10_Heap.heapprofile", test_heapprofile_file);
  return g_test_run ();
}
