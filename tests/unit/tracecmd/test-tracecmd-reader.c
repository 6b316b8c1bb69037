/* Unit tests of tracecmd-src's reader (plugins/tracecmd): the fixtures of
 * tests/data/tracecmd are one capture read three ways (the kernel's text,
 * trace.dat v7, v6). Both trace.dat files give the events ftrace-src
 * gives of the text, in the same order, with the same threads, names and
 * args, at the nanosecond where the text rounds to the microsecond.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "../ftrace/ftrace-test-util.h"
#include "tracecmd-private.h"

static char *
fixture (const char *name)
{
  return g_build_filename (TEST_DATA_DIR, "tracecmd", name, NULL);
}

static TraceBatch *
read_dat (const char *name,
          const char *buffer,
          TracecmdReaderStats *stats,
          GError **error)
{
  g_autofree char *path = fixture (name);
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TracecmdReader) r = tracecmd_reader_new (path, name, buffer, pool, error);
  TraceBatch *all, *b;

  if (r == NULL)
    return NULL;
  all = trace_batch_new (pool, 0);
  while (tracecmd_reader_read_batch (r, &b, error) && b != NULL)
    {
      for (guint i = 0; i < b->n_events; i++)
        trace_batch_append_event (all, &b->events[i], b);
      trace_batch_unref (b);
    }
  if (stats)
    tracecmd_reader_copy_stats (r, stats);
  return all;
}

static TraceBatch *
read_text (void)
{
  g_autofree char *path = fixture ("capture.txt");
  g_autofree char *text = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  return read_bytes (text, len, "capture.txt", NULL, NULL, NULL);
}

/* The text's event and ours: the same but for the time's precision. */
static void
assert_same_event (TraceBatch *text,
                   const TraceEvent *x,
                   TraceBatch *dat,
                   const TraceEvent *y)
{
  g_assert_cmpint (x->kind, ==, y->kind);
  /* the kernel prints the time rounded to the nearest microsecond */
  g_assert_cmpint (x->ts, ==, (y->ts + 500) / 1000 * 1000);
  g_assert_cmpint (x->pid, ==, y->pid);
  g_assert_cmpint (x->tid, ==, y->tid);
  g_assert_cmpint (x->cpu, ==, y->cpu);
  g_assert_cmpstr (str (text, x->name), ==, str (dat, y->name));
  if (x->kind == TRACE_EVENT_SCHED_SWITCH)
    {
      g_assert_cmpint (x->u.sched_switch.prev_state, ==, y->u.sched_switch.prev_state);
      g_assert_cmpint (x->u.sched_switch.next_tid, ==, y->u.sched_switch.next_tid);
      g_assert_cmpstr (str (text, x->u.sched_switch.next_comm), ==, str (dat, y->u.sched_switch.next_comm));
    }
}

static void
test_same_as_text (gconstpointer data)
{
  g_autoptr (TraceBatch) text = read_text ();
  g_autoptr (GError) error = NULL;
  TracecmdReaderStats stats;
  g_autoptr (TraceBatch) dat = read_dat (data, NULL, &stats, &error);
  guint sub_us = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (stats.records, ==, 1169); /* the text's entries-in-buffer */
  g_assert_cmpuint (stats.skipped_unknown_events + stats.skipped_fields + stats.lost_events, ==, 0);
  g_assert_cmpuint (count_kind (dat, TRACE_EVENT_SCHED_SWITCH), ==, 322);
  g_assert_cmpuint (count_kind (dat, TRACE_EVENT_SLICE_BEGIN), ==, 32);
  g_assert_cmpuint (count_kind (dat, TRACE_EVENT_COUNTER), ==, 16);
  g_assert_cmpuint (dat->n_events, ==, text->n_events);
  for (guint i = 0; i < text->n_events; i++)
    {
      assert_same_event (text, &text->events[i], dat, &dat->events[i]);
      assert_same_args (text, &text->events[i], dat, &dat->events[i]);
      sub_us += dat->events[i].ts % 1000 != 0;
    }
  /* nanoseconds, not the text's microseconds */
  g_assert_cmpuint (sub_us, >, dat->n_events / 2);
}

/* An irq event is generic, its fields typed args. */
static void
test_generic_fields (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceBatch) dat = read_dat ("capture.v7.dat", NULL, NULL, &error);
  guint irqs = 0;

  g_assert_no_error (error);
  for (guint i = 0; i < dat->n_events; i++)
    {
      const TraceEvent *ev = &dat->events[i];

      if (ev->kind != TRACE_EVENT_FTRACE || !g_str_equal (str (dat, ev->name), "irq_handler_entry"))
        continue;
      irqs++;
      g_assert_cmpint (find_arg (dat, ev, "irq")->type, ==, TRACE_ARG_INT);
      g_assert_cmpint (find_arg (dat, ev, "name")->type, ==, TRACE_ARG_STRING);
    }
  g_assert_cmpuint (irqs, ==, 5);
}

/* buffer= picks the buffers: the instance by name, none of another name. */
static void
test_buffers (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceBatch) instance = read_dat ("capture.v7.dat", "tp-fixtures", NULL, &error);
  g_autoptr (TraceBatch) top = NULL;
  g_autoptr (TraceBatch) none = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (count_kind (instance, TRACE_EVENT_SCHED_SWITCH), ==, 322);
  top = read_dat ("capture.v7.dat", "top", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_kind (top, TRACE_EVENT_SCHED_SWITCH), ==, 0);
  none = read_dat ("capture.v7.dat", "nope", NULL, &error);
  g_assert_null (none);
  g_assert_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "no buffer \"nope\" (the file has: top, tp-fixtures)"));
}

/* The clock the file names: trace-cmd's default, `local`. */
static void
test_clock (void)
{
  g_autofree char *path = fixture ("capture.v6.dat");
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TracecmdReader) r = tracecmd_reader_new (path, "capture.v6.dat", NULL, pool, NULL);

  g_assert_nonnull (r);
  g_assert_cmpstr (tracecmd_reader_get_clock_name (r), ==, "local");
  g_assert_cmpint (tracecmd_reader_get_clock_domain (r), ==, TRACE_CLOCK_FTRACE_LOCAL);
}

static void
test_magic (void)
{
  g_autofree char *text = fixture ("capture.txt");
  g_autofree char *v6 = fixture ("capture.v6.dat");
  g_autofree char *what = tracecmd_describe_header (v6);

  g_assert_true (tracecmd_has_magic ((const guint8 *) "\x17\x08\x44tracing6", 11));
  g_assert_false (tracecmd_has_magic ((const guint8 *) "\x17\x08\x44tracin", 9));
  g_assert_cmpstr (what, ==, "a trace.dat of version 6");
  g_free (what);
  what = tracecmd_describe_header (text);
  g_assert_cmpstr (what, ==, "no trace.dat (no trace-cmd magic at byte 0)");
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/tracecmd/reader/v7-same-as-text", "capture.v7.dat", test_same_as_text);
  g_test_add_data_func ("/tracecmd/reader/v6-same-as-text", "capture.v6.dat", test_same_as_text);
  g_test_add_func ("/tracecmd/reader/generic-fields", test_generic_fields);
  g_test_add_func ("/tracecmd/reader/buffers", test_buffers);
  g_test_add_func ("/tracecmd/reader/clock", test_clock);
  g_test_add_func ("/tracecmd/reader/magic", test_magic);
  return g_test_run ();
}
