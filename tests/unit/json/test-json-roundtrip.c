/* tracepipe - json plugin tests: writer → reader keeps the events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What a round trip may change, by design (docs/json.md): B/E pairs
 * become X in the default style; stack nodes are written only as the
 * samples need them (with new ids), samples are grouped per thread, lose
 * cpu, weight and name; a counter's instance id lives in its name only;
 * a clock marker's domain is the stream's, known at the end.
 */
#include "config.h"

#include <string.h>

#include "json-test-util.h"

static TraceBatch *
round_trip (TraceBatch *in,
            const ChromeWriterOptions *opts,
            TraceStringPool *pool,
            ChromeReader **reader)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  gsize len;
  TraceBatch *out;

  text = test_write (in, opts, &len);
  out = test_read_data (text, len, "roundtrip.json", pool, reader, &error);
  g_assert_no_error (error);
  return out;
}

static void
assert_same_args (TraceBatch *a,
                  const TraceEvent *ea,
                  TraceBatch *b,
                  const TraceEvent *eb)
{
  const TraceArg *x = trace_batch_get_args (a, ea), *y = trace_batch_get_args (b, eb);

  g_assert_cmpuint (ea->n_args, ==, eb->n_args);
  for (guint i = 0; i < ea->n_args; i++)
    {
      g_assert_cmpstr (test_str (a, x[i].key), ==, test_str (b, y[i].key));
      /* a string is a string, interned or kept in its batch (a value
       * json-src saw before is interned: the two files differ there) */
      if (trace_batch_get_arg_string (a, &x[i]) != NULL)
        g_assert_cmpstr (trace_batch_get_arg_string (a, &x[i]), ==, trace_batch_get_arg_string (b, &y[i]));
      else if (x[i].type != y[i].type)
        g_assert_cmpuint (x[i].type, ==, y[i].type);
      else if (x[i].type == TRACE_ARG_DOUBLE)
        g_assert_cmpfloat (x[i].v.d, ==, y[i].v.d);
      else if (x[i].type == TRACE_ARG_BOOL)
        g_assert_cmpint (!!x[i].v.b, ==, !!y[i].v.b);
      else
        g_assert_cmpuint (x[i].v.u, ==, y[i].v.u);
    }
}

static void
assert_same_union (TraceBatch *a,
                   const TraceEvent *x,
                   TraceBatch *b,
                   const TraceEvent *y)
{
  switch (x->kind)
    {
    case TRACE_EVENT_SLICE_BEGIN:
    case TRACE_EVENT_SLICE_COMPLETE:
      g_assert_cmpint (x->u.slice.dur, ==, y->u.slice.dur);
      g_assert_cmpuint (x->u.slice.flow_in, ==, y->u.slice.flow_in);
      g_assert_cmpuint (x->u.slice.flow_out, ==, y->u.slice.flow_out);
      break;
    case TRACE_EVENT_ASYNC_BEGIN:
    case TRACE_EVENT_ASYNC_STEP:
    case TRACE_EVENT_ASYNC_END:
    case TRACE_EVENT_ASYNC_INSTANT:
    case TRACE_EVENT_FLOW_START:
    case TRACE_EVENT_FLOW_STEP:
    case TRACE_EVENT_FLOW_END:
      g_assert_cmpuint (x->u.async.id, ==, y->u.async.id);
      g_assert_cmpstr (test_str (a, x->u.async.scope), ==, test_str (b, y->u.async.scope));
      g_assert_cmpstr (test_str (a, x->u.async.step), ==, test_str (b, y->u.async.step));
      break;
    case TRACE_EVENT_COUNTER:
      g_assert_cmpfloat (x->u.counter.value, ==, y->u.counter.value);
      break;
    case TRACE_EVENT_PROCESS_SORT_INDEX:
    case TRACE_EVENT_THREAD_SORT_INDEX:
      g_assert_cmpint (x->u.meta.value, ==, y->u.meta.value);
      break;
    case TRACE_EVENT_CLOCK_MARKER:
      g_assert_cmpuint (x->u.clock.marker, ==, y->u.clock.marker);
      g_assert_cmpint (x->u.clock.other_ts, ==, y->u.clock.other_ts);
      g_assert_cmpint (x->u.clock.issue_ts, ==, y->u.clock.issue_ts);
      g_assert_cmpstr (test_str (a, x->u.clock.sync_id), ==, test_str (b, y->u.clock.sync_id));
      break;
    default:
      break;
    }
}

static void
assert_same_event (TraceBatch *a,
                   const TraceEvent *x,
                   TraceBatch *b,
                   const TraceEvent *y)
{
  g_assert_cmpstr (trace_event_kind_to_string (x->kind), ==, trace_event_kind_to_string (y->kind));
  g_assert_cmpint (x->ts, ==, y->ts);
  g_assert_cmpint (x->pid, ==, y->pid);
  /* an unknown tid (-1, also what "tid":"-1" reads as) of a known
   * process reads back as the pid, perfetto's rule for a missing tid */
  if (x->tid == TRACE_ID_UNKNOWN && x->pid != TRACE_ID_UNKNOWN)
    g_assert_cmpint (y->tid, ==, x->pid);
  else
    g_assert_cmpint (x->tid, ==, y->tid);
  g_assert_cmpstr (test_str (a, x->name), ==, test_str (b, y->name));
  if (x->kind != TRACE_EVENT_CLOCK_MARKER)
    g_assert_cmpstr (test_str (a, x->category), ==, test_str (b, y->category));
  g_assert_cmpuint (x->flags, ==, y->flags);
  assert_same_union (a, x, b, y);
  if (x->kind != TRACE_EVENT_COUNTER && x->kind != TRACE_EVENT_CLOCK_MARKER)
    assert_same_args (a, x, b, y);
}

static gboolean
is_sample_kind (const TraceEvent *ev)
{
  return ev->kind == TRACE_EVENT_SAMPLE || ev->kind == TRACE_EVENT_STACK_NODE;
}

/* Events other than samples and stack nodes: same, in the same order. */
static void
assert_same_events (TraceBatch *a,
                    TraceBatch *b)
{
  guint i = 0, j = 0;

  for (;;)
    {
      while (i < a->n_events && is_sample_kind (&a->events[i]))
        i++;
      while (j < b->n_events && is_sample_kind (&b->events[j]))
        j++;
      if (i == a->n_events || j == b->n_events)
        break;
      g_test_message ("event %u / %u", i, j);
      assert_same_event (a, &a->events[i++], b, &b->events[j++]);
    }
  g_assert_cmpuint (i, ==, a->n_events);
  g_assert_cmpuint (j, ==, b->n_events);
}

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* "pid tid ts leaf<parent<…" for every sample, sorted. */
static GPtrArray *
sample_signatures (TraceBatch *batch)
{
  g_autoptr (GHashTable) nodes = g_hash_table_new (g_int64_hash, g_int64_equal);
  GPtrArray *sigs = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < batch->n_events; i++)
    if (batch->events[i].kind == TRACE_EVENT_STACK_NODE)
      g_hash_table_insert (nodes, (gpointer) &batch->events[i].u.stack_node.id, &batch->events[i]);
  for (guint i = 0; i < batch->n_events; i++)
    {
      const TraceEvent *ev = &batch->events[i];
      GString *sig;
      guint64 id;
      const TraceEvent *node;

      if (ev->kind != TRACE_EVENT_SAMPLE)
        continue;
      sig = g_string_new (NULL);
      g_string_append_printf (sig, "%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " ",
                              ev->pid, ev->tid, ev->ts);
      /* a sample without a stack is known by its name */
      if (ev->u.sample.node_id == 0)
        g_string_append (sig, test_str (batch, ev->name));
      /* frames without a name are left out: a sample may refer to a node
       * its source never defined, which the writer defines nameless */
      for (id = ev->u.sample.node_id; id != 0 && (node = g_hash_table_lookup (nodes, &id)) != NULL;
           id = node->u.stack_node.parent_id)
        if (node->name != 0)
          g_string_append_printf (sig, "%s<", test_str (batch, node->name));
      g_ptr_array_add (sigs, g_string_free (sig, FALSE));
    }
  g_ptr_array_sort (sigs, compare_strings);
  return sigs;
}

static void
assert_same_samples (TraceBatch *a,
                     TraceBatch *b)
{
  g_autoptr (GPtrArray) x = sample_signatures (a);
  g_autoptr (GPtrArray) y = sample_signatures (b);

  g_assert_cmpuint (x->len, ==, y->len);
  for (guint i = 0; i < x->len; i++)
    {
      const char *sx = g_ptr_array_index (x, i), *sy = g_ptr_array_index (y, i);

      /* catapult's sample without stack is written as a one-node stack */
      if (g_str_has_suffix (sy, "<") && !g_str_has_suffix (sx, "<"))
        g_assert_cmpuint (strncmp (sx, sy, strlen (sx)), ==, 0);
      else
        g_assert_cmpstr (sx, ==, sy);
    }
}

/* Every corpus file: read, write (B/E, flow v2, so nothing is regrouped),
 * read again: the same events. */
static void
test_corpus_round_trip (gconstpointer data)
{
  const char *file = data;
  ChromeWriterOptions opts = {
    .slices = CHROME_SLICES_BEGIN_END,
    .flows = CHROME_FLOWS_V2,
  };
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceBatch) first = test_read_file (file, pool, NULL, &error);
  g_autoptr (TraceBatch) second = NULL;
  g_autoptr (ChromeReader) reader = NULL;

  g_assert_no_error (error);
  second = round_trip (first, &opts, pool, &reader);
  g_assert_false (chrome_reader_has_damage (reader));
  assert_same_events (first, second);
  assert_same_samples (first, second);
}

/* ------------------------------------------------------------------ */
/* Generated events with awkward values                                */

static const char *const awkward_names[] = {
  "plain",
  "quote \" and \\ backslash",
  "tab\tnewline\n",
  "é中😀",
  "",
  "ctl \x01\x1f",
  "a.b[0]",
};

static void
add_args (TraceBatch *batch,
          TraceEvent *ev,
          GRand *rand)
{
  switch (g_rand_int_range (rand, 0, 4))
    {
    case 0:
      trace_batch_add_arg_int (batch, ev, "data.frame", g_rand_int (rand) - G_GINT64_CONSTANT (1) * G_MAXINT32);
      trace_batch_add_arg_string (batch, ev, "data.url", awkward_names[g_rand_int_range (rand, 0, 7)]);
      trace_batch_add_arg_int (batch, ev, "list[0]", G_MININT64);
      trace_batch_add_arg_int (batch, ev, "list[1]", G_MAXINT64);
      break;
    case 1:
      trace_batch_add_arg_double (batch, ev, "d", g_rand_double_range (rand, -1e300, 1e300));
      trace_batch_add_arg_double (batch, ev, "tiny", 4.9e-324);
      trace_batch_add_arg_bool (batch, ev, "flag", g_rand_boolean (rand));
      trace_batch_add_arg (batch, ev, trace_string_pool_intern (batch->pool, "huge"), TRACE_ARG_UINT)->v.u =
          G_MAXUINT64 - g_rand_int (rand);
      break;
    case 2:
      trace_batch_add_arg_string (batch, ev, "nest.a.b.c", "deep");
      trace_batch_add_arg_int (batch, ev, "nest.a.d", 1);
      trace_batch_add_arg_int (batch, ev, "nest.e", 2);
      break;
    default:
      break;
    }
}

static gint64
awkward_ts (GRand *rand,
            guint i)
{
  /* ns fractions, at times just below 2^51 ns: up to there
   * trace_processor's doubles keep every ns of a time with three
   * decimals, and json-src reads a time as it does (json-time.c) */
  return (G_GINT64_CONSTANT (1) << 51) - (G_GINT64_CONSTANT (1) << 40) + i * G_GINT64_CONSTANT (1000003) +
         g_rand_int_range (rand, 0, 999);
}

static void
add_async (TraceBatch *batch,
           GRand *rand,
           gint64 ts,
           gint64 pid,
           gint64 tid,
           const char *name)
{
  static const TraceEventKind kinds[] = {
    TRACE_EVENT_ASYNC_BEGIN,
    TRACE_EVENT_ASYNC_STEP,
    TRACE_EVENT_ASYNC_END,
    TRACE_EVENT_ASYNC_INSTANT,
    TRACE_EVENT_FLOW_START,
    TRACE_EVENT_FLOW_STEP,
    TRACE_EVENT_FLOW_END,
  };
  TraceEventKind kind = kinds[g_rand_int_range (rand, 0, G_N_ELEMENTS (kinds))];
  TraceEvent *ev = test_add (batch, kind, ts, pid, tid, name);
  gboolean legacy = kind == TRACE_EVENT_ASYNC_STEP || (kind <= TRACE_EVENT_ASYNC_END && g_rand_boolean (rand));

  ev->u.async.id = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
  if (kind >= TRACE_EVENT_FLOW_START)
    {
      /* flows always carry a global "id" */
      ev->flags = TRACE_EVENT_FLAG_ID_GLOBAL;
      if (kind == TRACE_EVENT_FLOW_END && g_rand_boolean (rand))
        ev->flags |= TRACE_EVENT_FLAG_FLOW_NEXT_SLICE;
      return;
    }
  if (legacy)
    ev->flags = TRACE_EVENT_FLAG_ASYNC_LEGACY;
  if (g_rand_boolean (rand) || legacy)
    ev->flags |= TRACE_EVENT_FLAG_ID_GLOBAL;
  if (g_rand_boolean (rand))
    ev->u.async.scope = trace_string_pool_intern (batch->pool, "scope");
  if (kind == TRACE_EVENT_ASYNC_STEP)
    {
      ev->u.async.step = trace_string_pool_intern (batch->pool, "step one");
      trace_batch_add_arg_string (batch, ev, "step", "step one");
    }
}

static void
add_other (TraceBatch *batch,
           GRand *rand,
           gint64 ts,
           gint64 pid,
           gint64 tid,
           const char *name)
{
  TraceEvent *ev;

  switch (g_rand_int_range (rand, 0, 4))
    {
    case 0:
      ev = test_add (batch, TRACE_EVENT_INSTANT, ts, pid, tid, name);
      ev->flags = g_rand_int_range (rand, 0, 3) == 0 ? TRACE_EVENT_FLAG_SCOPE_PROCESS : 0;
      add_args (batch, ev, rand);
      break;
    case 1:
      ev = test_add (batch, TRACE_EVENT_COUNTER, ts, pid, tid, g_rand_boolean (rand) ? "mem rss" : "gpu  load %");
      ev->u.counter.value = g_rand_boolean (rand) ? g_rand_int_range (rand, -1000, 1000) : g_rand_double (rand);
      if (ev->u.counter.value == (double) (gint64) ev->u.counter.value)
        ev->flags = TRACE_EVENT_FLAG_COUNTER_INT;
      break;
    case 2:
      ev = test_add (batch, TRACE_EVENT_SLICE_COMPLETE, ts, pid, tid, name);
      ev->u.slice.dur = g_rand_int_range (rand, 0, 1000000);
      ev->category = trace_string_pool_intern (batch->pool, "cat,other");
      add_args (batch, ev, rand);
      break;
    default:
      ev = test_add (batch, TRACE_EVENT_CLOCK_MARKER, ts, pid, tid, "clock_sync");
      ev->u.clock.marker = TRACE_CLOCK_MARKER_SYNC_ID;
      ev->u.clock.sync_id = trace_string_pool_intern (batch->pool, name);
      ev->u.clock.issue_ts = ts - 17;
    }
}

static TraceBatch *
generate (TraceStringPool *pool,
          guint seed,
          guint n)
{
  static const gint64 pids[] = { 1, 643, G_GINT64_CONSTANT (1) << 40, -7 };
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  TraceBatch *batch = trace_batch_new (pool, 0);
  guint depth[G_N_ELEMENTS (pids)] = { 0 };

  test_add (batch, TRACE_EVENT_PROCESS_NAME, 0, 643, 643, "surfaceflinger \"sf\"");
  test_add (batch, TRACE_EVENT_THREAD_NAME, 0, 643, 651, "RenderThread");
  test_add (batch, TRACE_EVENT_PROCESS_SORT_INDEX, 0, 643, 643, NULL)->u.meta.value = -5;
  test_add (batch, TRACE_EVENT_PROCESS_LABEL, 0, 1, 1, "label, with comma");
  for (guint i = 0; i < n; i++)
    {
      guint t = g_rand_int_range (rand, 0, G_N_ELEMENTS (pids));
      gint64 ts = awkward_ts (rand, i), pid = pids[t], tid = pids[t] + 1;
      const char *name = awkward_names[g_rand_int_range (rand, 0, G_N_ELEMENTS (awkward_names))];
      TraceEvent *ev;

      switch (g_rand_int_range (rand, 0, 4))
        {
        case 0:
          ev = test_add (batch, TRACE_EVENT_SLICE_BEGIN, ts, pid, tid, name);
          add_args (batch, ev, rand);
          depth[t]++;
          break;
        case 1:
          if (depth[t] == 0)
            continue;
          ev = test_add (batch, TRACE_EVENT_SLICE_END, ts, pid, tid, NULL);
          add_args (batch, ev, rand);
          depth[t]--;
          break;
        case 2:
          add_async (batch, rand, ts, pid, tid, name);
          break;
        default:
          add_other (batch, rand, ts, pid, tid, name);
        }
    }
  /* close what is open, so that nothing is left for the end */
  for (guint t = 0; t < G_N_ELEMENTS (pids); t++)
    for (; depth[t] > 0; depth[t]--)
      test_add (batch, TRACE_EVENT_SLICE_END, awkward_ts (rand, n), pids[t], pids[t] + 1, NULL);
  return batch;
}

/* B/E style: every event comes back as it was. */
static void
test_generated_begin_end (void)
{
  ChromeWriterOptions opts = { .slices = CHROME_SLICES_BEGIN_END };
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = generate (pool, 42, 3000);
  g_autoptr (ChromeReader) reader = NULL;
  g_autoptr (TraceBatch) out = round_trip (in, &opts, pool, &reader);

  g_assert_false (chrome_reader_has_damage (reader));
  assert_same_events (in, out);
}

/* The default style: begin/end pairs come back as X with the begin's
 * time, the duration and the args of both. */
static void
test_generated_complete (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = generate (pool, 7, 3000);
  g_autoptr (TraceBatch) expected = trace_batch_new (pool, 0);
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (GHashTable) stacks = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL,
                                                         (GDestroyNotify) g_array_unref);

  for (guint i = 0; i < in->n_events; i++)
    {
      const TraceEvent *ev = &in->events[i];
      GArray *stack = g_hash_table_lookup (stacks, &ev->tid);
      const TraceEvent *begin;
      TraceEvent *x;

      if (stack == NULL)
        {
          stack = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (stacks, (gpointer) &ev->tid, stack);
        }
      if (ev->kind == TRACE_EVENT_SLICE_BEGIN)
        {
          g_array_append_val (stack, i);
          continue;
        }
      if (ev->kind != TRACE_EVENT_SLICE_END)
        {
          trace_batch_append_event (expected, ev, in);
          continue;
        }
      begin = &in->events[g_array_index (stack, guint, stack->len - 1)];
      g_array_set_size (stack, stack->len - 1);
      x = trace_batch_append_event (expected, begin, in);
      x->kind = TRACE_EVENT_SLICE_COMPLETE;
      x->u.slice.dur = ev->ts - begin->ts;
      /* the end's args are added; where a key repeats, the end's value wins */
      for (guint a = 0; a < ev->n_args; a++)
        {
          const TraceArg *arg = &trace_batch_get_args (in, ev)[a];
          TraceArg *same = NULL;

          for (guint b = 0; b < x->n_args; b++)
            if (expected->args[x->first_arg + b].key == arg->key)
              same = &expected->args[x->first_arg + b];
          if (same == NULL)
            same = trace_batch_add_arg (expected, x, arg->key, arg->type);
          *same = *arg;
        }
    }
  out = round_trip (in, NULL, pool, NULL);
  assert_same_events (expected, out);
}

/* Stack nodes and samples: every sample comes back at its time on its
 * thread with the same call stack. */
static void
test_generated_samples (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GRand) rand = g_rand_new_with_seed (3);
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (TraceBatch) out = NULL;
  static const char *const functions[] = { "(root)", "main", "loop", "draw", "parse", "gc" };

  for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
    {
      TraceEvent *ev = test_add (in, TRACE_EVENT_STACK_NODE, 0, 5, 6, functions[i]);

      ev->u.stack_node.id = (G_GUINT64_CONSTANT (9) << 32) | (i + 1);
      ev->u.stack_node.parent_id = i == 0 ? 0 : (G_GUINT64_CONSTANT (9) << 32) | ((i + 1) / 2);
    }
  for (guint i = 0; i < 350; i++)
    {
      TraceEvent *ev = test_add (in, TRACE_EVENT_SAMPLE, 1000000 + i * 1234567 + g_rand_int_range (rand, 0, 7), 5,
                                 6 + i % 3, NULL);

      ev->u.sample.node_id = (G_GUINT64_CONSTANT (9) << 32) | g_rand_int_range (rand, 1, 7);
    }
  out = round_trip (in, NULL, pool, NULL);
  assert_same_samples (in, out);
}

int
main (int argc,
      char **argv)
{
  g_autofree char *dir_path = g_build_filename (TEST_DATA_DIR, "json", NULL);
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_test_init (&argc, &argv, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (files, g_strdup (name));
  g_ptr_array_sort (files, compare_strings);
  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("/json/roundtrip/corpus/%s", (char *) files->pdata[i]);

      g_test_add_data_func (path, files->pdata[i], test_corpus_round_trip);
    }
  g_test_add_func ("/json/roundtrip/generated-begin-end", test_generated_begin_end);
  g_test_add_func ("/json/roundtrip/generated-complete", test_generated_complete);
  g_test_add_func ("/json/roundtrip/generated-samples", test_generated_samples);
  return g_test_run ();
}
