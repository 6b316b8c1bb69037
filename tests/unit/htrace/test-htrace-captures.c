/* Unit tests of the htrace reader on TraceStreamer's test captures
 * (tests/data/htrace): every expectation is derived here from the file
 * with the tests' own protobuf walker (htrace-test-util.c), never copied
 * from the reader's output.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "htrace-test-util.h"

/* ---- the system monitor ---- */

typedef struct
{
  GHashTable *records; /* plugin name → count */
  guint64 first_cpu_ts;
  guint freq, usage, meminfo, proc_mem, net, names;
  GHashTable *last_name; /* pid → name */
} Sysmon;

static void
note_name (Sysmon *s,
           const guint8 *proc,
           gsize len)
{
  const guint8 *name;
  gsize name_len;
  gint64 pid = (gint32) wire_find_varint (proc, len, 1);
  g_autofree char *text = NULL;
  const char *last;

  if (pid <= 0 || !wire_find (proc, len, 2, &name, &name_len) || name_len == 0)
    return;
  text = g_strndup ((const char *) name, name_len);
  last = g_hash_table_lookup (s->last_name, &pid);
  if (g_strcmp0 (last, text) == 0)
    return;
  g_hash_table_insert (s->last_name, g_memdup2 (&pid, sizeof pid), g_steal_pointer (&text));
  s->names++;
}

static void
walk_cpu (Sysmon *s,
          const WireRecord *rec)
{
  const guint8 *usage;
  gsize usage_len;
  Wire w;

  if (s->first_cpu_ts == 0)
    s->first_cpu_ts = rec->tv_sec * 1000000000 + rec->tv_nsec;
  if (!wire_find (rec->data, rec->len, 1, &usage, &usage_len))
    return;
  wire_init (&w, usage, usage_len);
  while (wire_next (&w))
    if (w.field == 7)
      {
        const guint8 *freq;
        gsize freq_len;
        gint64 span = wire_find_varint (w.data, w.len, 5) - wire_find_varint (w.data, w.len, 3);
        gint64 busy = wire_find_varint (w.data, w.len, 4) - wire_find_varint (w.data, w.len, 2);

        if (wire_find (w.data, w.len, 6, &freq, &freq_len))
          s->freq++;
        s->usage += span > 0 && busy >= 0;
      }
}

static void
walk_memory (Sysmon *s,
             const WireRecord *rec)
{
  Wire w;

  wire_init (&w, rec->data, rec->len);
  while (wire_next (&w))
    if (w.field == 2)
      s->meminfo++;
    else if (w.field == 1)
      {
        note_name (s, w.data, w.len);
        s->proc_mem += (gint32) wire_find_varint (w.data, w.len, 1) > 0 && wire_find_varint (w.data, w.len, 3) != 0;
      }
}

static void
walk_sysmon (const WireRecord *rec,
             gpointer user_data)
{
  Sysmon *s = user_data;
  guint *count = g_hash_table_lookup (s->records, rec->name);
  const guint8 *sys;
  gsize sys_len;
  Wire w;

  if (count == NULL)
    g_hash_table_insert (s->records, g_strdup (rec->name), count = g_new0 (guint, 1));
  (*count)++;
  if (g_str_equal (rec->name, "cpu-plugin"))
    walk_cpu (s, rec);
  else if (g_str_equal (rec->name, "memory-plugin"))
    walk_memory (s, rec);
  else if (g_str_equal (rec->name, "network-plugin"))
    s->net += wire_find (rec->data, rec->len, 2, &sys, &sys_len);
  else if (g_str_equal (rec->name, "process-plugin"))
    {
      wire_init (&w, rec->data, rec->len);
      while (wire_next (&w))
        if (w.field == 1)
          note_name (s, w.data, w.len);
    }
}

static guint
records_of (Sysmon *s,
            const char *name)
{
  guint *n = g_hash_table_lookup (s->records, name);

  return n ? *n : 0;
}

static void
test_sysmon (void)
{
  g_autoptr (GBytes) file = htrace_test_read ("ohos_sysmon_ability.htrace");
  g_autoptr (GError) error = NULL;
  g_autoptr (HtraceRun) run = htrace_run_file ("ohos_sysmon_ability.htrace", &error);
  Sysmon s = { g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free), 0, 0, 0, 0, 0, 0, 0,
               g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free) };
  guint records = wire_foreach_record (file, walk_sysmon, &s);
  HtraceReaderStats st;
  g_autofree char *summary = htrace_reader_get_summary (run->reader);
  const char *per_sample[] = { "cpu.total_load", "cpu.user_load", "cpu.sys_load", "cpu.process_num" };
  const char *disk[] = { "disk.read", "disk.written", "disk.read_rate", "disk.write_rate" };
  const char *net[] = { "net.rx", "net.tx", "net.rx_packets", "net.tx_packets" };
  const char *proc[] = { "mem.rss", "mem.rss_anon", "mem.rss_file", "mem.rss_shmem", "mem.vm_size", "mem.swap" };
  guint mem_global = 0;

  g_assert_no_error (error);
  g_assert_null (summary);
  htrace_reader_copy_stats (run->reader, &st);
  g_assert_cmpuint (st.records, ==, records);
  g_assert_cmpuint (st.config_records, ==, 5);
  /* the header holds no clock readings: the records' realtime */
  g_assert_cmpint (htrace_reader_get_clock_domain (run->reader), ==, TRACE_CLOCK_REALTIME);
  g_assert_cmpint (htrace_run_first (run, TRACE_EVENT_COUNTER, "cpu.total_load")->ts, ==, s.first_cpu_ts);
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_COUNTER, per_sample[i]), ==, records_of (&s, "cpu-plugin"));
      g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_COUNTER, disk[i]), ==, records_of (&s, "diskio-plugin"));
      g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_COUNTER, net[i]), ==, s.net);
    }
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_CPU_FREQUENCY, NULL), ==, s.freq);
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_COUNTER, "cpu.usage"), ==, s.usage);
  for (guint i = 0; i < G_N_ELEMENTS (proc); i++)
    g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_COUNTER, proc[i]), ==, s.proc_mem);
  for (guint b = 0; b < run->batches->len; b++)
    {
      TraceBatch *batch = run->batches->pdata[b];

      for (guint i = 0; i < batch->n_events; i++)
        mem_global += batch->events[i].kind == TRACE_EVENT_COUNTER && batch->events[i].pid == TRACE_ID_UNKNOWN &&
                      g_str_has_prefix (htrace_run_string (run, batch->events[i].name), "mem.");
    }
  g_assert_cmpuint (mem_global, ==, s.meminfo);
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_PROCESS_NAME, NULL), ==, s.names);
  g_test_message ("cpu %u, memory %u, disk %u, network %u, process %u records; %u frequencies, %u loads, %u meminfo, "
                  "%u process memory samples, %u names",
                  records_of (&s, "cpu-plugin"), records_of (&s, "memory-plugin"), records_of (&s, "diskio-plugin"),
                  records_of (&s, "network-plugin"), records_of (&s, "process-plugin"), s.freq, s.usage, s.meminfo,
                  s.proc_mem, s.names);
  g_assert_cmpuint (s.names, >, 100);
  g_hash_table_unref (s.records);
  g_hash_table_unref (s.last_name);
}

/* ---- FFRT ---- */

typedef struct
{
  guint begin, end, state, other, threads, processes;
  guint64 first_begin_ts;
} Ffrt;

static void
walk_ffrt_event (Ffrt *f,
                 const guint8 *ev,
                 gsize len)
{
  const guint8 *trace, *type, *label, *name;
  gsize trace_len, type_len, label_len = 0, name_len;

  if (!wire_find (ev, len, 8, &trace, &trace_len))
    {
      f->threads += wire_find (ev, len, 7, &name, &name_len) && name_len > 0;
      f->processes += wire_find (ev, len, 6, &name, &name_len) && name_len > 0;
      return;
    }
  g_assert_true (wire_find (trace, trace_len, 2, &type, &type_len));
  wire_find (trace, trace_len, 3, &label, &label_len);
  if (type_len == 1 && type[0] == 'B' && f->begin++ == 0)
    f->first_begin_ts = wire_find_varint (ev, len, 1) * 1000000000 + wire_find_varint (ev, len, 2);
  else if (type_len == 1 && type[0] == 'E')
    f->end++;
  else if (type_len == 1 && type[0] == 'F')
    f->state++;
  else if (!(type_len == 1 && type[0] == 'B'))
    f->other++;
}

static void
walk_ffrt (const WireRecord *rec,
           gpointer user_data)
{
  Wire w;

  if (!g_str_equal (rec->name, "ffrt-profiler"))
    return;
  wire_init (&w, rec->data, rec->len);
  while (wire_next (&w))
    if (w.field == 1)
      walk_ffrt_event (user_data, w.data, w.len);
}

static void
test_ffrt (void)
{
  g_autoptr (GBytes) file = htrace_test_read ("ohos_ffrt.htrace");
  g_autoptr (GError) error = NULL;
  g_autoptr (HtraceRun) run = htrace_run_file ("ohos_ffrt.htrace", &error);
  Ffrt f = { 0 };
  HtraceReaderStats st;
  const TraceEvent *instant;

  wire_foreach_record (file, walk_ffrt, &f);
  g_assert_no_error (error);
  htrace_reader_copy_stats (run->reader, &st);
  g_test_message ("FFRT: %u B, %u E, %u task states, %u other, %u thread and %u process names", f.begin, f.end,
                  f.state, f.other, f.threads, f.processes);
  g_assert_cmpuint (f.other, ==, 0);
  g_assert_cmpuint (st.ffrt_events, ==, f.begin + f.end + f.state + MAX (f.threads, f.processes));
  /* the header has clock readings: the stream is on boottime, the FFRT
   * configuration's clock, and the header's other clocks are pairs */
  g_assert_cmpint (htrace_reader_get_clock_domain (run->reader), ==, TRACE_CLOCK_BOOTTIME);
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_CLOCK_MARKER, NULL), ==, 3);
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_SLICE_BEGIN, NULL), ==, f.begin);
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_SLICE_END, NULL), ==, f.end);
  g_assert_cmpint (htrace_run_first (run, TRACE_EVENT_SLICE_BEGIN, NULL)->ts, ==, f.first_begin_ts);
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_INSTANT, NULL), ==, f.state);
  instant = htrace_run_first (run, TRACE_EVENT_INSTANT, NULL);
  g_assert_cmpuint (instant->n_args, ==, 2);
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_PROCESS_NAME, "ffrt_profiler_test_exe"), ==, f.processes);
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_THREAD_NAME, NULL), >=, f.threads);
}

/* ---- native hook ---- */

typedef struct
{
  guint alloc, free, matched, mmap, munmap;
  GHashTable *live; /* "pid/addr" → size */
  gint64 heap;      /* live bytes at the end, all processes */
} Hook;

static void
walk_hook_event (Hook *h,
                 const guint8 *ev,
                 gsize len)
{
  Wire w;

  wire_init (&w, ev, len);
  while (wire_next (&w))
    {
      g_autofree char *key = NULL;
      gpointer size;

      if (w.wire_type != 2 || w.field < 3 || w.field > 6)
        continue;
      key = g_strdup_printf ("%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT, wire_find_varint (w.data, w.len, 1),
                             wire_find_varint (w.data, w.len, 3));
      if (w.field == 3)
        {
          h->alloc++;
          h->heap += wire_find_varint (w.data, w.len, 4);
          g_hash_table_insert (h->live, g_steal_pointer (&key), GSIZE_TO_POINTER (wire_find_varint (w.data, w.len, 4)));
        }
      else if (w.field == 4)
        {
          h->free++;
          if (g_hash_table_lookup_extended (h->live, key, NULL, &size))
            {
              h->matched++;
              h->heap -= GPOINTER_TO_SIZE (size);
              g_hash_table_remove (h->live, key);
            }
        }
      else
        *(w.field == 5 ? &h->mmap : &h->munmap) += 1;
    }
}

static void
walk_hook (const WireRecord *rec,
           gpointer user_data)
{
  Wire w, e;

  if (!g_str_equal (rec->name, "nativehook"))
    return;
  wire_init (&w, rec->data, rec->len);
  while (wire_next (&w))
    if (w.field == 1)
      {
        wire_init (&e, w.data, w.len);
        walk_hook_event (user_data, w.data, w.len);
      }
}

static void
test_native_hook (void)
{
  g_autoptr (GBytes) file = htrace_test_read ("ohos_nativehook_mmap.htrace");
  g_autoptr (GError) error = NULL;
  g_autoptr (HtraceRun) run = htrace_run_file ("ohos_nativehook_mmap.htrace", &error);
  Hook h = { 0, 0, 0, 0, 0, g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL), 0 };
  HtraceReaderStats st;
  gint64 last_heap = 0;

  wire_foreach_record (file, walk_hook, &h);
  g_assert_no_error (error);
  htrace_reader_copy_stats (run->reader, &st);
  g_test_message ("native hook: %u allocs, %u frees (%u of allocations seen), %u mmaps, %u munmaps", h.alloc,
                  h.free, h.matched, h.mmap, h.munmap);
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_COUNTER, "heap.live"), ==, h.alloc + h.matched);
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_COUNTER, "mmap.live"), ==, h.mmap + h.munmap);
  g_assert_cmpuint (st.skipped[HTRACE_SKIP_HOOK_UNMATCHED_FREE], ==, h.free - h.matched);
  for (guint b = 0; b < run->batches->len; b++)
    {
      TraceBatch *batch = run->batches->pdata[b];

      for (guint i = 0; i < batch->n_events; i++)
        if (batch->events[i].kind == TRACE_EVENT_COUNTER &&
            g_str_equal (htrace_run_string (run, batch->events[i].name), "heap.live"))
          last_heap = (gint64) batch->events[i].u.counter.value;
    }
  /* one process in this capture: its last value is what stays allocated */
  g_assert_cmpint (last_heap, ==, h.heap);
  g_hash_table_unref (h.live);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/htrace/captures/sysmon", test_sysmon);
  g_test_add_func ("/htrace/captures/ffrt", test_ffrt);
  g_test_add_func ("/htrace/captures/native-hook", test_native_hook);
  return g_test_run ();
}
