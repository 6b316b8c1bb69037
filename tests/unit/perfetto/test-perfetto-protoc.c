/* Unit tests: the shape of written files, as `protoc --decode` shows them
 * with the project's .proto files (an independent decoder: protoc knows
 * nothing of our writer or reader).
 *
 * Skipped when protoc is not installed (Debian: protobuf-compiler). */
#include "perfetto-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

/* One decoded packet: "path: value" lines, the path without `packet`. */
typedef struct
{
  GPtrArray *fields;
} Packet;

static void
packet_free (gpointer data)
{
  Packet *p = data;

  g_ptr_array_unref (p->fields);
  g_free (p);
}

/* Returns: the value of the first field at @path, or %NULL */
static const char *
get (Packet *p,
     const char *path)
{
  gsize n = strlen (path);

  for (guint i = 0; i < p->fields->len; i++)
    {
      const char *f = p->fields->pdata[i];

      if (strncmp (f, path, n) == 0 && f[n] == ':' && f[n + 1] == ' ')
        return f + n + 2;
    }
  return NULL;
}

/* Returns: (transfer container): all values at @path */
static GPtrArray *
get_all (Packet *p,
         const char *path)
{
  GPtrArray *out = g_ptr_array_new ();
  gsize n = strlen (path);

  for (guint i = 0; i < p->fields->len; i++)
    {
      const char *f = p->fields->pdata[i];

      if (strncmp (f, path, n) == 0 && f[n] == ':' && f[n + 1] == ' ')
        g_ptr_array_add (out, (gpointer) (f + n + 2));
    }
  return out;
}

static GPtrArray *
parse_text (const char *text)
{
  GPtrArray *packets = g_ptr_array_new_with_free_func (packet_free);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (GPtrArray) stack = g_ptr_array_new_with_free_func (g_free);
  Packet *cur = NULL;

  for (guint i = 0; lines[i]; i++)
    {
      g_autofree char *line = g_strstrip (g_strdup (lines[i]));
      gsize len = strlen (line);

      if (len == 0)
        continue;
      if (g_str_equal (line, "}"))
        {
          g_ptr_array_set_size (stack, stack->len - 1);
          continue;
        }
      if (len > 2 && g_str_has_suffix (line, " {"))
        {
          line[len - 2] = '\0';
          if (stack->len == 0)
            {
              g_assert_cmpstr (line, ==, "packet");
              cur = g_new0 (Packet, 1);
              cur->fields = g_ptr_array_new_with_free_func (g_free);
              g_ptr_array_add (packets, cur);
            }
          g_ptr_array_add (stack, g_strdup (line));
          continue;
        }
      {
        GString *path = g_string_new (NULL);

        for (guint k = 1; k < stack->len; k++)
          g_string_append_printf (path, "%s.", (char *) stack->pdata[k]);
        g_string_append (path, line);
        g_ptr_array_add (cur->fields, g_string_free (path, FALSE));
      }
    }
  return packets;
}

static char *
run_protoc (GBytes *bytes)
{
  g_autofree char *dir = g_dir_make_tmp ("perfetto-protoc-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "trace.pftrace", NULL);
  g_autofree char *proto_path = g_strdup_printf ("--proto_path=%s", PERFETTO_PROTO_DIR);
  g_autofree char *cmd = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_assert_true (g_file_set_contents (file, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  cmd = g_strdup_printf ("/bin/sh -c '\"%s\" --decode=perfetto.protos.Trace \"%s\" trace.proto < \"%s\"'",
                         PROTOC_PATH, proto_path, file);
  g_assert_true (g_spawn_command_line_sync (cmd, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_unlink (file);
  g_rmdir (dir);
  return g_steal_pointer (&out);
}

static gboolean
protoc_missing (void)
{
  if (PROTOC_PATH[0] != '\0' && g_file_test (PROTOC_PATH, G_FILE_TEST_IS_EXECUTABLE))
    return FALSE;
  g_test_skip ("protoc is not installed (Debian package protobuf-compiler)");
  return TRUE;
}

static GPtrArray *
decode (TraceBatch *in,
        const PerfettoWriterOptions *opts,
        PerfettoWriterStats *stats)
{
  g_autoptr (GBytes) bytes = pt_write (&in, 1, opts, stats);
  g_autofree char *text = run_protoc (bytes);

  return parse_text (text);
}

static guint
flags_of (Packet *p)
{
  const char *flags = get (p, "sequence_flags");

  return flags ? (guint) g_ascii_strtoull (flags, NULL, 10) : 0;
}

/* How many TrackEvents the input makes (a complete slice makes two). */
static guint
count_track_events (TraceBatch *in)
{
  guint n = 0;

  for (guint i = 0; i < in->n_events; i++)
    {
      TraceEventGroup group = trace_event_kind_get_group (in->events[i].kind);

      if ((group & (TRACE_EVENT_GROUP_SLICES | TRACE_EVENT_GROUP_ASYNC | TRACE_EVENT_GROUP_FLOWS | TRACE_EVENT_GROUP_COUNTERS)) ||
          in->events[i].kind == TRACE_EVENT_CHROME_PHASE)
        n += in->events[i].kind == TRACE_EVENT_SLICE_COMPLETE ? 2 : 1;
    }
  return n;
}

/* Every packet is on sequence 1; the first one clears the state and says
 * it is first; descriptors come before their tracks are used; interned
 * ids are sent before they are used; users of interned data say so. */
static void
test_shapes (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = NULL;
  g_autoptr (GPtrArray) packets = NULL;
  g_autoptr (GHashTable) uuids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) process_uuids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  guint track_events = 0;
  PerfettoWriterStats ws;

  if (protoc_missing ())
    return;
  in = pt_all_kinds_batch (pool);
  packets = decode (in, NULL, &ws);
  g_assert_cmpuint (packets->len, ==, ws.packets);
  g_assert_cmpuint (flags_of (packets->pdata[0]) & 1, ==, 1);
  g_assert_cmpstr (get (packets->pdata[0], "first_packet_on_sequence"), ==, "true");
  g_assert_cmpstr (get (packets->pdata[0], "trace_packet_defaults.timestamp_clock_id"), ==, "6");
  for (guint i = 0; i < packets->len; i++)
    {
      Packet *p = packets->pdata[i];
      const char *uuid = get (p, "track_descriptor.uuid");
      const char *parent = get (p, "track_descriptor.parent_uuid");
      g_autoptr (GPtrArray) new_names = get_all (p, "interned_data.event_names.iid");

      /* Samples are on their thread's sequence (test_samples). */
      if (get (p, "thread_descriptor.tid") || get (p, "streaming_profile_packet.callstack_iid"))
        g_assert_cmpstr (get (p, "trusted_packet_sequence_id"), !=, "1");
      else
        g_assert_cmpstr (get (p, "trusted_packet_sequence_id"), ==, "1");
      if (i > 0 && !get (p, "thread_descriptor.tid"))
        g_assert_null (get (p, "first_packet_on_sequence"));
      for (guint k = 0; k < new_names->len; k++)
        g_hash_table_add (names, new_names->pdata[k]);
      if (uuid)
        {
          g_hash_table_add (uuids, (gpointer) uuid);
          if (get (p, "track_descriptor.process.pid"))
            g_hash_table_add (process_uuids, (gpointer) uuid);
          if (get (p, "track_descriptor.thread.tid"))
            g_assert_true (g_hash_table_contains (process_uuids, parent));
        }
      if (get (p, "track_event.type") || get (p, "track_event.legacy_event.phase"))
        {
          const char *name_iid = get (p, "track_event.name_iid");

          track_events++;
          g_assert_true (g_hash_table_contains (uuids, get (p, "track_event.track_uuid")));
          g_assert_cmpuint (flags_of (p) & 2, ==, 2);
          if (name_iid)
            g_assert_true (g_hash_table_contains (names, name_iid));
          g_assert_null (get (p, "track_event.name"));
        }
    }
  g_assert_cmpuint (track_events, ==, count_track_events (in));
}

/* Overlapping async slices go to tracks of their own, each slice's begin
 * and end on one track. */
static void
test_async_tracks (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (GPtrArray) packets = NULL;
  g_autoptr (GPtrArray) begins = g_ptr_array_new ();
  g_autoptr (GPtrArray) ends = g_ptr_array_new ();
  guint64 ids[] = { 1, 2, 1, 3, 2, 3 };
  TraceEventKind kinds[] = { TRACE_EVENT_ASYNC_BEGIN, TRACE_EVENT_ASYNC_BEGIN, TRACE_EVENT_ASYNC_END,
                             TRACE_EVENT_ASYNC_BEGIN, TRACE_EVENT_ASYNC_END, TRACE_EVENT_ASYNC_END };

  if (protoc_missing ())
    return;
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    pt_add (in, kinds[i], 100 * (i + 1), 10, 10, "req")->u.async.id = ids[i];
  packets = decode (in, NULL, NULL);
  for (guint i = 0; i < packets->len; i++)
    {
      Packet *p = packets->pdata[i];
      const char *type = get (p, "track_event.type");

      if (type && g_str_equal (type, "TYPE_SLICE_BEGIN"))
        g_ptr_array_add (begins, (gpointer) get (p, "track_event.track_uuid"));
      else if (type && g_str_equal (type, "TYPE_SLICE_END"))
        g_ptr_array_add (ends, (gpointer) get (p, "track_event.track_uuid"));
    }
  g_assert_cmpuint (begins->len, ==, 3);
  g_assert_cmpuint (ends->len, ==, 3);
  /* 1 and 2 overlap: two tracks. 3 begins when 1 has ended: 1's track. */
  g_assert_cmpstr (begins->pdata[0], !=, begins->pdata[1]);
  g_assert_cmpstr (begins->pdata[2], ==, begins->pdata[0]);
  g_assert_cmpstr (ends->pdata[0], ==, begins->pdata[0]);
  g_assert_cmpstr (ends->pdata[1], ==, begins->pdata[1]);
  g_assert_cmpstr (ends->pdata[2], ==, begins->pdata[2]);
}

/* Kernel events: one bundle per cpu, the continuing sched_switch and the
 * waking by the running thread in the compact arrays, threads' processes
 * in process_tree before the bundles. */
static void
test_kernel_shapes (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = NULL;
  g_autoptr (GPtrArray) packets = NULL;
  gint tree_at = -1, first_bundle_at = -1;
  guint bundles = 0;

  if (protoc_missing ())
    return;
  in = pt_all_kinds_batch (pool);
  packets = decode (in, NULL, NULL);
  for (guint i = 0; i < packets->len; i++)
    {
      Packet *p = packets->pdata[i];
      const char *cpu = get (p, "ftrace_events.cpu");

      if (get (p, "process_tree.threads.tid") && tree_at < 0)
        tree_at = (gint) i;
      if (cpu == NULL)
        continue;
      bundles++;
      if (first_bundle_at < 0)
        first_bundle_at = (gint) i;
      if (g_str_equal (cpu, "0"))
        {
          g_assert_cmpstr (get (p, "ftrace_events.compact_sched.switch_next_pid"), ==, "100");
          g_assert_cmpstr (get (p, "ftrace_events.compact_sched.switch_timestamp"), ==, "6100");
          g_assert_cmpstr (get (p, "ftrace_events.compact_sched.waking_pid"), ==, "101");
          g_assert_cmpstr (get (p, "ftrace_events.compact_sched.intern_table"), ==, "\"app\"");
          g_assert_cmpstr (get (p, "ftrace_events.event.sched_switch.next_comm"), ==, "\"swapper/0\"");
        }
      if (g_str_equal (cpu, "1"))
        {
          g_autoptr (GPtrArray) syms = get_all (p, "interned_data.kernel_symbols.str");

          g_assert_cmpuint (syms->len, ==, 2);
          g_assert_cmpstr (get (p, "ftrace_events.event.binder_transaction.flags"), ==, "16");
          /* the number, without the name the kernel prints after it */
          g_assert_cmpstr (get (p, "ftrace_events.event.binder_return.cmd"), ==, "29201");
          g_assert_cmpstr (get (p, "ftrace_events.event.generic.event_name"), ==, "\"irq_handler_entry\"");
          g_assert_cmpuint (flags_of (p) & 2, ==, 2);
        }
    }
  /* cpus 0, 1, 2 and 3 */
  g_assert_cmpuint (bundles, ==, 4);
  g_assert_cmpint (tree_at, >=, 0);
  g_assert_cmpint (tree_at, <, first_bundle_at);
}

/* A stream not on BOOTTIME starts with a snapshot making its clock the
 * trace's, tied to BOOTTIME (the clock of kernel events). */
static void
test_clock_header (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (GPtrArray) packets = NULL;
  g_autoptr (GPtrArray) clocks = NULL;
  PerfettoWriterOptions opts;
  Packet *p;

  if (protoc_missing ())
    return;
  pt_add (in, TRACE_EVENT_INSTANT, 12345, 1, 1, "x");
  perfetto_writer_options_init (&opts);
  opts.clock = TRACE_CLOCK_MONOTONIC;
  packets = decode (in, &opts, NULL);
  p = packets->pdata[0];
  g_assert_cmpstr (get (p, "clock_snapshot.primary_trace_clock"), ==, "BUILTIN_CLOCK_MONOTONIC");
  clocks = get_all (p, "clock_snapshot.clocks.clock_id");
  g_assert_cmpuint (clocks->len, ==, 2);
  g_assert_cmpstr (clocks->pdata[0], ==, "3");
  g_assert_cmpstr (clocks->pdata[1], ==, "6");
  g_assert_cmpstr (get (p, "timestamp"), ==, "12345");
  g_assert_cmpstr (get (p, "timestamp_clock_id"), ==, "3");
  g_assert_cmpstr (get (p, "trace_packet_defaults.timestamp_clock_id"), ==, "3");
  g_assert_cmpuint (flags_of (p) & 1, ==, 1);
}

/* Samples as Chrome writes them: a sequence per sampled thread, opened
 * by its ThreadDescriptor (which clears its state), callstacks interned
 * on it before use, times as microsecond deltas from the descriptor's
 * reference; MONOTONIC (trace_processor's clock for them) is tied to the
 * stream's clock. */
static void
test_samples (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (GPtrArray) packets = NULL;
  g_autoptr (GHashTable) seqs = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) callstacks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gint64 us[2] = { 0, 0 };
  guint n[2] = { 0, 0 }, tied = 0;
  TraceEvent *ev;

  if (protoc_missing ())
    return;
  ev = pt_add (in, TRACE_EVENT_STACK_NODE, 1000, 7, 8, "main");
  ev->u.stack_node.id = 1;
  ev = pt_add (in, TRACE_EVENT_STACK_NODE, 1000, 7, 8, "work");
  ev->u.stack_node.id = 2;
  ev->u.stack_node.parent_id = 1;
  for (guint i = 0; i < 6; i++)
    {
      /* two threads, 1.4 us apart: deltas of 1 or 2 us, no drift */
      ev = pt_add (in, TRACE_EVENT_SAMPLE, 5000000 + i * 1400, 7, 8 + i % 2, NULL);
      ev->u.sample.node_id = 1 + i % 3 / 2;
    }
  packets = decode (in, NULL, NULL);
  for (guint i = 0; i < packets->len; i++)
    {
      Packet *p = packets->pdata[i];
      const char *seq = get (p, "trusted_packet_sequence_id");
      const char *tid = get (p, "thread_descriptor.tid");
      g_autoptr (GPtrArray) cs = get_all (p, "interned_data.callstacks.iid");
      g_autoptr (GPtrArray) iids = get_all (p, "streaming_profile_packet.callstack_iid");
      g_autoptr (GPtrArray) deltas = get_all (p, "streaming_profile_packet.timestamp_delta_us");

      if (get (p, "clock_snapshot.clocks.clock_id"))
        {
          g_autoptr (GPtrArray) clocks = get_all (p, "clock_snapshot.clocks.clock_id");

          tied += clocks->len == 2 && g_str_equal (clocks->pdata[1], "3");
        }
      if (tid)
        {
          g_assert_cmpstr (seq, !=, "1");
          g_assert_false (g_hash_table_contains (seqs, seq));
          g_hash_table_insert (seqs, (gpointer) seq, (gpointer) tid);
          g_assert_cmpstr (get (p, "thread_descriptor.pid"), ==, "7");
          g_assert_cmpstr (get (p, "thread_descriptor.reference_timestamp_us"), ==, g_str_equal (tid, "8") ? "5000" : "5001");
          g_assert_cmpuint (flags_of (p) & 1, ==, 1);
          g_assert_cmpstr (get (p, "first_packet_on_sequence"), ==, "true");
          us[g_str_equal (tid, "9")] = g_str_equal (tid, "8") ? 5000 : 5001;
        }
      for (guint k = 0; k < cs->len; k++)
        g_hash_table_add (callstacks, g_strconcat (seq, "/", cs->pdata[k], NULL));
      g_assert_cmpuint (iids->len, ==, deltas->len);
      for (guint k = 0; k < iids->len; k++)
        {
          g_autofree char *key = g_strconcat (seq, "/", iids->pdata[k], NULL);
          gboolean second = g_str_equal (g_hash_table_lookup (seqs, seq), "9");

          g_assert_cmpuint (flags_of (p) & 2, ==, 2);
          g_assert_true (g_hash_table_contains (callstacks, key));
          us[second] += g_ascii_strtoll (deltas->pdata[k], NULL, 10);
          /* sample n of a thread is at 5000000 + (2n + second) * 1400 ns */
          g_assert_cmpint (us[second], ==, (5000000 + (2 * (gint64) n[second] + second) * 1400 + 500) / 1000);
          n[second]++;
        }
    }
  g_assert_cmpuint (n[0], ==, 3);
  g_assert_cmpuint (n[1], ==, 3);
  g_assert_cmpuint (g_hash_table_size (seqs), ==, 2);
  g_assert_cmpuint (tied, ==, 1);
}

/* Interning off: names inline, no interned data at all. */
static void
test_not_interned (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (GPtrArray) packets = NULL;
  PerfettoWriterOptions opts;
  TraceEvent *ev;
  guint found = 0;

  if (protoc_missing ())
    return;
  ev = pt_add (in, TRACE_EVENT_INSTANT, 5, 1, 1, "tap");
  ev->category = pt_str (in, "input");
  trace_batch_add_arg_string (in, ev, "key", "value");
  perfetto_writer_options_init (&opts);
  opts.intern = FALSE;
  packets = decode (in, &opts, NULL);
  for (guint i = 0; i < packets->len; i++)
    {
      Packet *p = packets->pdata[i];

      g_assert_null (get (p, "interned_data.event_names.iid"));
      if (get (p, "track_event.type"))
        {
          g_assert_cmpstr (get (p, "track_event.name"), ==, "\"tap\"");
          g_assert_cmpstr (get (p, "track_event.categories"), ==, "\"input\"");
          g_assert_cmpstr (get (p, "track_event.debug_annotations.name"), ==, "\"key\"");
          g_assert_cmpstr (get (p, "track_event.debug_annotations.string_value"), ==, "\"value\"");
          found++;
        }
    }
  g_assert_cmpuint (found, ==, 1);
}

/* A thread whose process is unknown is named by a task_rename without
 * oldcomm (never in process_tree, whose missing tgid trace_processor
 * reads as 0); a thread of a known process is listed there with it. Our
 * reader gives both names back with the pid the input had. */
static void
test_processless_thread_name (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (GPtrArray) packets = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TraceBatch) back = NULL;
  g_autoptr (GError) error = NULL;
  guint renames = 0, tree_threads = 0, names_back = 0;
  TraceEvent *ev;

  if (protoc_missing ())
    return;
  ev = pt_add (in, TRACE_EVENT_THREAD_NAME, 1000, TRACE_ID_UNKNOWN, 17, "kworker/0:1");
  ev->cpu = 3;
  pt_add (in, TRACE_EVENT_THREAD_NAME, 1100, 209, 209, "adbd");
  packets = decode (in, NULL, NULL);
  for (guint i = 0; i < packets->len; i++)
    {
      Packet *p = packets->pdata[i];
      g_autoptr (GPtrArray) tids = get_all (p, "process_tree.threads.tid");
      g_autoptr (GPtrArray) tgids = get_all (p, "process_tree.threads.tgid");

      g_assert_cmpuint (tids->len, ==, tgids->len);
      for (guint j = 0; j < tids->len; j++)
        g_assert_cmpstr (tids->pdata[j], !=, "17");
      tree_threads += tids->len;
      if (get (p, "ftrace_events.event.task_rename.pid"))
        {
          g_assert_cmpstr (get (p, "ftrace_events.cpu"), ==, "3");
          g_assert_cmpstr (get (p, "ftrace_events.event.task_rename.pid"), ==, "17");
          g_assert_cmpstr (get (p, "ftrace_events.event.task_rename.newcomm"), ==, "\"kworker/0:1\"");
          g_assert_null (get (p, "ftrace_events.event.task_rename.oldcomm"));
          renames++;
        }
    }
  g_assert_cmpuint (renames, ==, 1);
  g_assert_cmpuint (tree_threads, ==, 1);

  bytes = pt_write (&in, 1, NULL, NULL);
  back = pt_read (bytes, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < back->n_events; i++)
    {
      const TraceEvent *e = &back->events[i];

      g_assert_cmpint (e->kind, !=, TRACE_EVENT_TASK_RENAME);
      if (e->kind == TRACE_EVENT_THREAD_NAME && e->tid == 17)
        {
          g_assert_cmpint (e->pid, ==, TRACE_ID_UNKNOWN);
          g_assert_cmpstr (trace_string_pool_get (pool, e->name), ==, "kworker/0:1");
          names_back++;
        }
    }
  g_assert_cmpuint (names_back, ==, 1);
}

/* Our output of a thread named first without its process (a task_rename
 * in a kernel bundle) and later with it (process_tree, which goes before
 * the bundle in the file), converted again: perfetto-src gives the later
 * name first, in file order, and the earlier one still goes as a
 * task_rename, not into the process learnt of the later time. */
static void
test_processless_thread_name_again (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TraceBatch) back = NULL;
  g_autoptr (GPtrArray) packets = NULL;
  g_autoptr (GError) error = NULL;
  PerfettoWriterOptions opts;
  guint renames = 0;
  TraceEvent *ev;

  if (protoc_missing ())
    return;
  ev = pt_add (in, TRACE_EVENT_THREAD_NAME, 1000, TRACE_ID_UNKNOWN, 29, "ksoftirqd/3");
  ev->cpu = 3;
  pt_add (in, TRACE_EVENT_THREAD_NAME, 1100, 29, 29, "ksoftirqd/3");
  bytes = pt_write (&in, 1, NULL, NULL);
  back = pt_read (bytes, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  perfetto_writer_options_init (&opts);
  opts.proto_kernel_events = opts.perfetto_order = TRUE;
  packets = decode (back, &opts, NULL);
  for (guint i = 0; i < packets->len; i++)
    if (get (packets->pdata[i], "ftrace_events.event.task_rename.pid"))
      {
        g_assert_cmpstr (get (packets->pdata[i], "ftrace_events.event.task_rename.pid"), ==, "29");
        g_assert_cmpstr (get (packets->pdata[i], "ftrace_events.event.timestamp"), ==, "1000");
        renames++;
      }
  g_assert_cmpuint (renames, ==, 1);
}

/* The stream's metadata is Chrome's bundle metadata (trace_processor's
 * `cr-NAME` metadata rows): strings, booleans and integers typed, the
 * rest as JSON text, nulls left out; our reader gives the object back. */
static void
test_metadata (void)
{
  static const char metadata[] = "{\"source\":\"DevTools\",\"hostDPR\":2,\"ok\":true,\"ratio\":1.5,"
                                 "\"trials\":[\"a-1\",\"b-2\"],\"gone\":null}";
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (PerfettoWriter) w = perfetto_writer_new (out, NULL);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (PerfettoReader) r = NULL;
  g_autoptr (GPtrArray) packets = NULL;
  g_autoptr (GPtrArray) names = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *back = NULL;
  TraceBatch *b = NULL;
  Packet *p = NULL;

  if (protoc_missing ())
    return;
  perfetto_writer_set_metadata (w, metadata);
  g_assert_true (perfetto_writer_finish (w, &error));
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
  text = run_protoc (bytes);
  packets = parse_text (text);
  for (guint i = 0; i < packets->len && p == NULL; i++)
    if (get (packets->pdata[i], "chrome_events.metadata.name"))
      p = packets->pdata[i];
  g_assert_nonnull (p);
  names = get_all (p, "chrome_events.metadata.name");
  g_assert_cmpuint (names->len, ==, 5);
  g_assert_cmpstr (get (p, "chrome_events.metadata.string_value"), ==, "\"DevTools\"");
  g_assert_cmpstr (get (p, "chrome_events.metadata.int_value"), ==, "2");
  g_assert_cmpstr (get (p, "chrome_events.metadata.bool_value"), ==, "true");
  g_assert_cmpstr (get (p, "chrome_events.metadata.json_value"), ==, "\"1.5\"");

  in = g_memory_input_stream_new_from_bytes (bytes);
  r = perfetto_reader_new (in, "metadata.pftrace", pool);
  while (perfetto_reader_read_batch (r, &b, &error) && b != NULL)
    trace_batch_unref (b);
  g_assert_no_error (error);
  back = perfetto_reader_get_metadata (r);
  g_assert_cmpstr (back, ==, "{\"source\":\"DevTools\",\"hostDPR\":2,\"ok\":true,\"ratio\":1.5,\"trials\":[\"a-1\",\"b-2\"]}");
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perfetto/protoc/shapes", test_shapes);
  g_test_add_func ("/perfetto/protoc/async-tracks", test_async_tracks);
  g_test_add_func ("/perfetto/protoc/kernel", test_kernel_shapes);
  g_test_add_func ("/perfetto/protoc/clock-header", test_clock_header);
  g_test_add_func ("/perfetto/protoc/samples", test_samples);
  g_test_add_func ("/perfetto/protoc/not-interned", test_not_interned);
  g_test_add_func ("/perfetto/protoc/metadata", test_metadata);
  g_test_add_func ("/perfetto/protoc/processless-thread-name", test_processless_thread_name);
  g_test_add_func ("/perfetto/protoc/processless-thread-name-again", test_processless_thread_name_again);
  return g_test_run ();
}
