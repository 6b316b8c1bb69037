/* Round-trip pipelines: running pipelines, files, a stream with every
 * kind of event. */
#include <glib/gstdio.h>
#include <string.h>

#include "rt-util.h"

/**
 * rt_run:
 * @description: a launch line; with @collect it must end in
 *   `collectsink name=out`
 *
 * Returns: (transfer full) (nullable): the events collected
 */
TraceBatch *
rt_run (const char *description,
        gboolean collect)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceElement) p = trace_parse_launch (description, &error);
  g_autoptr (TraceMessage) end = NULL;
  TraceBatch *all = NULL;

  g_assert_no_error (error);
  if (collect)
    {
      TraceElement *out = trace_bin_get_by_name (TRACE_BIN (p), "out");

      g_assert_nonnull (out);
      all = trace_batch_new (trace_pipeline_get_string_pool (TRACE_PIPELINE (p)), 0);
      g_object_set_data (G_OBJECT (out), "collect", all);
    }
  end = test_run_pipeline (p, 60000);
  g_assert_nonnull (end);
  if (end->type == TRACE_MESSAGE_ERROR)
    g_error ("%s: %s", description, end->error ? end->error->message : "error");
  g_assert_cmpint (end->type, ==, TRACE_MESSAGE_EOS);
  trace_element_set_state (p, TRACE_STATE_NULL);
  return all;
}

char *
rt_tmpdir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("tracepipe-rt-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

void
rt_rmtree (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

static gint
cmp_path (gconstpointer a,
          gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* Returns: (transfer full): the paths of a folder of tests/data, sorted */
GPtrArray *
rt_corpus_files (const char *folder)
{
  g_autofree char *dir_path = g_build_filename (TEST_DATA_DIR, folder, NULL);
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)))
    g_ptr_array_add (paths, g_build_filename (dir_path, name, NULL));
  g_ptr_array_sort (paths, cmp_path);
  return paths;
}

/**
 * rt_add_corpus:
 * @suite: the test path's part after /roundtrip/ (`json`, `perfetto`...)
 * @folder: a folder of tests/data
 * @func: the test, given a file's path
 * @skip: (nullable): whether to leave a file out, by its name
 *
 * Adds @func for each file of @folder as /roundtrip/SUITE/FOLDER/NAME.
 */
void
rt_add_corpus (const char *suite,
               const char *folder,
               GTestDataFunc func,
               gboolean (*skip) (const char *base))
{
  g_autoptr (GPtrArray) files = rt_corpus_files (folder);

  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *base = g_path_get_basename (files->pdata[i]);
      g_autofree char *name = g_strdup_printf ("/roundtrip/%s/%s/%s", suite, folder, base);

      if (skip == NULL || !skip (base))
        g_test_add_data_func_full (name, g_strdup (files->pdata[i]), func, g_free);
    }
}

/**
 * rt_split_lines:
 *
 * g_strsplit (text, "\n", -1) in linear time also under ASan (whose
 * strstr checks the whole rest of the string at every line).
 *
 * Returns: (transfer full): the lines
 */
GStrv
rt_split_lines (const char *text)
{
  GPtrArray *lines = g_ptr_array_new ();
  gsize left = strlen (text);
  const char *p = text;

  for (;;)
    {
      const char *nl = memchr (p, '\n', left);

      if (nl == NULL)
        break;
      g_ptr_array_add (lines, g_strndup (p, nl - p));
      left -= nl + 1 - p;
      p = nl + 1;
    }
  g_ptr_array_add (lines, g_strndup (p, left));
  g_ptr_array_add (lines, NULL);
  return (GStrv) g_ptr_array_free (lines, FALSE);
}

gboolean
rt_have_gen_synth (void)
{
  if (g_getenv ("GEN_SYNTH") != NULL)
    return TRUE;
  g_test_skip ("GEN_SYNTH (the bench input generator) is not set: run through meson test");
  return FALSE;
}

/* Returns: (transfer full): the path of a generated input in @dir */
char *
rt_gen_synth (const char *dir,
              const char *kind,
              const char *name,
              guint mb,
              const char *options)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autofree char *cmd = g_strdup_printf ("%s %s %s --mb %u --seed 11 %s", g_getenv ("GEN_SYNTH"), kind, path, mb,
                                          options ? options : "");
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;

  /* its report must not reach the TAP stream */
  g_assert_true (g_spawn_command_line_sync (cmd, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return path;
}

/**
 * rt_slices:
 *
 * Returns: (transfer full): the slices of the threads as a viewer pairs
 *   them: per (pid, tid) an end closes the innermost open begin.
 */
GArray *
rt_slices (TraceBatch *events)
{
  GArray *slices = g_array_new (FALSE, FALSE, sizeof (RtSlice));
  g_autoptr (GHashTable) stacks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);

  for (guint i = 0; i < events->n_events; i++)
    {
      const TraceEvent *ev = &events->events[i];
      g_autofree char *key = NULL;
      GArray *stack;

      if (ev->kind < TRACE_EVENT_SLICE_BEGIN || ev->kind > TRACE_EVENT_SLICE_COMPLETE || ev->u.slice.track != 0)
        continue;
      if (ev->kind == TRACE_EVENT_SLICE_COMPLETE)
        {
          RtSlice s = { ev->pid, ev->tid, ev->ts, ev->u.slice.dur, trace_string_pool_get (events->pool, ev->name) };

          g_array_append_val (slices, s);
          continue;
        }
      key = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, ev->pid, ev->tid);
      stack = g_hash_table_lookup (stacks, key);
      if (stack == NULL)
        {
          stack = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (stacks, g_strdup (key), stack);
        }
      if (ev->kind == TRACE_EVENT_SLICE_BEGIN)
        {
          g_array_append_val (stack, i);
          continue;
        }
      /* An end closes the innermost slice its name and category match
       * (an end without them: the innermost), as trace_processor does. */
      for (guint k = stack->len; k-- > 0;)
        {
          const TraceEvent *b = &events->events[g_array_index (stack, guint, k)];
          RtSlice s = { b->pid, b->tid, b->ts, ev->ts - b->ts, trace_string_pool_get (events->pool, b->name) };

          if ((ev->category && b->category != ev->category) || (ev->name && b->name && b->name != ev->name))
            continue;
          g_array_remove_index (stack, k);
          g_array_append_val (slices, s);
          break;
        }
    }
  return slices;
}

/* ---- a stream with every kind of event ---- */

static TraceEvent *
ev_add (TraceBatch *b,
        TraceEventKind kind,
        gint64 ts,
        gint64 pid,
        gint64 tid,
        const char *name)
{
  TraceEvent *ev = trace_batch_append (b, kind, ts);

  ev->pid = pid;
  ev->tid = tid;
  ev->cpu = TRACE_ID_UNKNOWN;
  ev->name = name ? trace_string_pool_intern (b->pool, name) : 0;
  return ev;
}

#define S(str) trace_string_pool_intern (b->pool, (str))

static void
add_thread_events (TraceBatch *b)
{
  TraceEvent *ev;

  ev_add (b, TRACE_EVENT_PROCESS_NAME, 1000, 100, TRACE_ID_UNKNOWN, "com.example.app");
  ev_add (b, TRACE_EVENT_THREAD_NAME, 1000, 100, 101, "worker \"1\"");
  ev_add (b, TRACE_EVENT_PROCESS_SORT_INDEX, 1000, 100, TRACE_ID_UNKNOWN, NULL)->u.meta.value = 3;
  ev_add (b, TRACE_EVENT_THREAD_SORT_INDEX, 1000, 100, 101, NULL)->u.meta.value = -2;
  ev_add (b, TRACE_EVENT_PROCESS_LABEL, 1000, 100, TRACE_ID_UNKNOWN, "label one");

  ev = ev_add (b, TRACE_EVENT_SLICE_BEGIN, 2000, 100, 100, "outer");
  ev->category = S ("gfx");
  ev->u.slice.flow_out = 77;
  trace_batch_add_arg_int (b, ev, "k", -1);
  trace_batch_add_arg (b, ev, S ("u"), TRACE_ARG_UINT)->v.u = G_GUINT64_CONSTANT (9223372036854775813);
  trace_batch_add_arg_double (b, ev, "d", 0.1);
  trace_batch_add_arg_bool (b, ev, "flag", TRUE);
  trace_batch_add_arg_string (b, ev, "s", "x \"y\"\n\xc3\xa9");
  trace_batch_add_arg_int (b, ev, "a.b", 7);
  trace_batch_add_arg_string (b, ev, "arr[0]", "z");
  ev = ev_add (b, TRACE_EVENT_SLICE_COMPLETE, 2100, 100, 100, "child");
  ev->u.slice.dur = 500;
  ev = ev_add (b, TRACE_EVENT_INSTANT, 2200, 100, 100, "tick");
  trace_batch_add_arg_int (b, ev, "n", 1);
  ev = ev_add (b, TRACE_EVENT_SLICE_END, 3000, 100, 100, NULL);
  trace_batch_add_arg_int (b, ev, "ret", 5);
  ev = ev_add (b, TRACE_EVENT_SLICE_BEGIN, 3500, 100, 101, "receiver");
  ev->u.slice.flow_in = 77;
  ev_add (b, TRACE_EVENT_SLICE_END, 3600, 100, 101, NULL);
  ev_add (b, TRACE_EVENT_INSTANT, 3100, 100, 100, "proc-instant")->flags = TRACE_EVENT_FLAG_SCOPE_PROCESS;
  ev_add (b, TRACE_EVENT_INSTANT, 3200, 100, 100, "global-instant")->flags = TRACE_EVENT_FLAG_SCOPE_GLOBAL;
  ev = ev_add (b, TRACE_EVENT_INSTANT, 3300, 100, 101, "named-instant");
  ev->flags = TRACE_EVENT_FLAG_SCOPE_PROCESS;
  ev->u.slice.track = S ("Track A");
}

static void
add_async_flow_counter_events (TraceBatch *b)
{
  TraceEvent *ev;

  ev = ev_add (b, TRACE_EVENT_ASYNC_BEGIN, 4000, 100, 101, "load");
  ev->category = S ("net");
  ev->u.async.id = 5;
  trace_batch_add_arg_string (b, ev, "url", "http://x");
  ev = ev_add (b, TRACE_EVENT_ASYNC_STEP, 4200, 100, 101, "load");
  ev->category = S ("net");
  ev->u.async.id = 5;
  ev->u.async.step = S ("parse");
  ev = ev_add (b, TRACE_EVENT_ASYNC_INSTANT, 4300, 100, 101, "mark");
  ev->category = S ("net");
  ev->u.async.id = 5;
  ev = ev_add (b, TRACE_EVENT_ASYNC_END, 4500, 100, 101, "load");
  ev->category = S ("net");
  ev->u.async.id = 5;

  ev = ev_add (b, TRACE_EVENT_SLICE_BEGIN, 5000, 100, 100, "sender");
  ev_add (b, TRACE_EVENT_FLOW_START, 5010, 100, 100, "flow")->u.async.id = 0x123;
  ev_add (b, TRACE_EVENT_SLICE_END, 5100, 100, 100, NULL);
  ev = ev_add (b, TRACE_EVENT_SLICE_BEGIN, 5200, 100, 101, "receiver2");
  ev_add (b, TRACE_EVENT_FLOW_STEP, 5210, 100, 101, "flow")->u.async.id = 0x123;
  ev_add (b, TRACE_EVENT_SLICE_END, 5300, 100, 101, NULL);
  ev = ev_add (b, TRACE_EVENT_SLICE_BEGIN, 5400, 100, 100, "receiver3");
  ev_add (b, TRACE_EVENT_FLOW_END, 5410, 100, 100, "flow")->u.async.id = 0x123;
  ev_add (b, TRACE_EVENT_SLICE_END, 5500, 100, 100, NULL);

  ev = ev_add (b, TRACE_EVENT_COUNTER, 6000, 100, 100, "mem rss");
  ev->u.counter.value = 123456789;
  ev->flags = TRACE_EVENT_FLAG_COUNTER_INT;
  ev = ev_add (b, TRACE_EVENT_COUNTER, 6100, 100, 100, "load avg");
  ev->u.counter.value = 0.75;
}

static void
add_kernel_events (TraceBatch *b)
{
  TraceEvent *ev;

  ev = ev_add (b, TRACE_EVENT_SCHED_SWITCH, 7000, 100, 100, NULL);
  ev->cpu = 1;
  ev->u.sched_switch.prev_tid = 100;
  ev->u.sched_switch.prev_prio = 120;
  ev->u.sched_switch.prev_state = 1;
  ev->u.sched_switch.prev_comm = S ("app");
  ev->u.sched_switch.next_tid = 101;
  ev->u.sched_switch.next_prio = 110;
  ev->u.sched_switch.next_comm = S ("worker");
  ev = ev_add (b, TRACE_EVENT_SCHED_WAKING, 7100, 100, 101, NULL);
  ev->cpu = 1;
  ev->u.wakeup.tid = 100;
  ev->u.wakeup.prio = 120;
  ev->u.wakeup.comm = S ("app");
  ev->u.wakeup.target_cpu = 2;
  ev->u.wakeup.success = 1;
  ev = ev_add (b, TRACE_EVENT_SCHED_WAKEUP, 7150, 100, 101, NULL);
  ev->cpu = 1;
  ev->u.wakeup.tid = 100;
  ev->u.wakeup.prio = 120;
  ev->u.wakeup.comm = S ("app");
  ev->u.wakeup.target_cpu = 2;
  ev->u.wakeup.success = 1;
  ev = ev_add (b, TRACE_EVENT_SCHED_WAKEUP_NEW, 7160, 100, 101, NULL);
  ev->cpu = 1;
  ev->u.wakeup.tid = 102;
  ev->u.wakeup.prio = 120;
  ev->u.wakeup.comm = S ("worker");
  ev->u.wakeup.target_cpu = 3;
  ev->u.wakeup.success = 1;
  ev = ev_add (b, TRACE_EVENT_TASK_NEWTASK, 7200, 100, 101, NULL);
  ev->cpu = 1;
  ev->u.task.tid = 102;
  ev->u.task.comm = S ("worker");
  ev->u.task.prio = -1; /* the kernel prints none */
  ev->u.task.clone_flags = 0x3d0f00;
  trace_batch_add_arg_int (b, ev, "oom_score_adj", -100);
  ev = ev_add (b, TRACE_EVENT_TASK_RENAME, 7300, 100, 102, NULL);
  ev->cpu = 1;
  ev->u.task.tid = 102;
  ev->u.task.prio = -1;
  ev->u.task.comm = S ("renamed");
  ev->u.task.old_comm = S ("worker");
  ev = ev_add (b, TRACE_EVENT_SCHED_PROCESS_EXIT, 7400, 100, 102, NULL);
  ev->cpu = 1;
  ev->u.task.tid = 102;
  ev->u.task.prio = 120;
  ev->u.task.comm = S ("renamed");
  ev = ev_add (b, TRACE_EVENT_SCHED_PROCESS_FREE, 7450, 0, 0, NULL);
  ev->cpu = 2;
  ev->u.task.tid = 102;
  ev->u.task.prio = 120;
  ev->u.task.comm = S ("renamed");
  ev = ev_add (b, TRACE_EVENT_CPU_FREQUENCY, 7500, 0, 0, NULL);
  ev->cpu = 2;
  ev->u.cpu.cpu_id = 2;
  ev->u.cpu.state = 1800000;
  ev = ev_add (b, TRACE_EVENT_CPU_IDLE, 7600, 0, 0, NULL);
  ev->cpu = 2;
  ev->u.cpu.cpu_id = 2;
  ev->u.cpu.state = 1;
  ev = ev_add (b, TRACE_EVENT_FTRACE, 7700, 100, 100, "sched_blocked_reason");
  ev->cpu = 1;
  trace_batch_add_arg_int (b, ev, "pid", 101);
  trace_batch_add_arg_int (b, ev, "iowait", 1);
  trace_batch_add_arg_string (b, ev, "caller", "do_wait+0x10");
  ev = ev_add (b, TRACE_EVENT_FTRACE, 7800, 100, 100, "my_driver_event");
  ev->cpu = 3;
  trace_batch_add_arg_int (b, ev, "value", 42);
  trace_batch_add_arg_string (b, ev, "label", "on");
}

static void
add_sample_events (TraceBatch *b)
{
  TraceEvent *ev;

  ev = ev_add (b, TRACE_EVENT_STACK_NODE, 8000, 100, 101, "(root)");
  ev->u.stack_node.id = 1;
  ev = ev_add (b, TRACE_EVENT_STACK_NODE, 8000, 100, 101, "main");
  ev->u.stack_node.id = 2;
  ev->u.stack_node.parent_id = 1;
  ev = ev_add (b, TRACE_EVENT_STACK_NODE, 8000, 100, 101, "draw");
  ev->u.stack_node.id = 3;
  ev->u.stack_node.parent_id = 2;
  ev = ev_add (b, TRACE_EVENT_SAMPLE, 8100, 100, 101, NULL);
  ev->u.sample.node_id = 3;
  ev->u.sample.weight = 1;
  ev = ev_add (b, TRACE_EVENT_SAMPLE, 8200, 100, 101, NULL);
  ev->u.sample.node_id = 2;
  ev->u.sample.weight = 1;
  ev = ev_add (b, TRACE_EVENT_CLOCK_MARKER, 9000, 100, 100, NULL);
  ev->u.clock.marker = TRACE_CLOCK_MARKER_SYNC_ID;
  ev->u.clock.sync_id = S ("sync-1");
  ev = ev_add (b, TRACE_EVENT_CLOCK_MARKER, 9100, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN, NULL);
  ev->u.clock.marker = TRACE_CLOCK_MARKER_PAIR;
  ev->u.clock.domain = TRACE_CLOCK_MONOTONIC;
  ev->u.clock.other_ts = 5000;
  /* a battery packet perfetto-src carried (charge_counter_uah: 5) */
  ev = ev_add (b, TRACE_EVENT_RECORD, 9200, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN, "perfetto_packet_38");
  trace_batch_add_arg (b, ev, trace_string_pool_intern (b->pool, "perfetto.field"), TRACE_ARG_UINT)->v.u = 38;
  trace_batch_add_arg_string (b, ev, "perfetto.bytes", "AggF");
  /* an object snapshot of a Chrome trace */
  ev = ev_add (b, TRACE_EVENT_CHROME_PHASE, 9300, 100, 101, "cc::LayerTreeHostImpl");
  ev->category = S ("disabled-by-default-cc.debug");
  ev->u.chrome_phase.phase = 'O';
  ev->u.chrome_phase.id_kind = TRACE_CHROME_ID_UNSCOPED;
  ev->u.chrome_phase.id = 0x2a;
  ev->u.chrome_phase.scope = S ("LayerTree");
  trace_batch_add_arg_int (b, ev, "snapshot.layers", 3);
}

/**
 * rt_all_kinds:
 *
 * Returns: (transfer full): one event of every kind a source makes, as
 *   sources make them (sorted by time per thread), with awkward args
 */
TraceBatch *
rt_all_kinds (TraceStringPool *pool)
{
  TraceBatch *b = trace_batch_new (pool, 0);

  add_thread_events (b);
  add_async_flow_counter_events (b);
  add_kernel_events (b);
  add_sample_events (b);
  return b;
}
