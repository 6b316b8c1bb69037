/* The ftrace plugin's kernel events the ftrace engine keeps generically
 * (irq, softirq, ipi, workqueue, binder): an htrace file written here
 * holds them as OpenHarmony's ftrace plugin records them, and htrace-src
 * must give exactly the events ftrace-src gives for the lines ftrace
 * prints for them: name, time, cpu, thread, process and every arg with
 * its type and value. The lines are written by hand below, not by the
 * code under test.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "htrace-test-util.h"

#define SEC 1000000000LL

/* An event's own message, built by each case. */
typedef void (*BodyFunc) (GByteArray *body);

typedef struct
{
  const char *text; /* the line ftrace prints for the event */
  const char *comm;
  gint tid, tgid;
  guint cpu;
  gint64 ts;
  guint field; /* the event's number in FtraceEvent's oneof */
  BodyFunc body;
} Case;

static void
irq_entry (GByteArray *b)
{
  wire_put_varint (b, 1, 27);
  wire_put_bytes (b, 2, "arch_timer", 10);
}

static void
irq_exit (GByteArray *b)
{
  wire_put_varint (b, 1, 27);
  wire_put_varint (b, 2, 1);
}

/* a negative int32 is ten varint bytes on the wire */
static void
irq_exit_negative (GByteArray *b)
{
  wire_put_varint (b, 1, 3);
  wire_put_varint (b, 2, (guint64) (gint64) -1);
}

static void
softirq (GByteArray *b)
{
  wire_put_varint (b, 1, 1);
}

/* proto3 writers leave zeros out: to_thread and reply are absent */
static void
binder_transaction (GByteArray *b)
{
  wire_put_varint (b, 1, 4711);
  wire_put_varint (b, 2, 12);
  wire_put_varint (b, 3, 800);
  wire_put_varint (b, 6, 3);
  wire_put_varint (b, 7, 16);
}

static void
binder_lock (GByteArray *b)
{
  wire_put_bytes (b, 1, "binder_ioctl", 12);
}

static void
workqueue_start (GByteArray *b)
{
  wire_put_varint (b, 1, G_GUINT64_CONSTANT (0xffffff80123456f0));
  wire_put_varint (b, 2, G_GUINT64_CONSTANT (0xffffffc0100a2b3c));
}

static void
ipi_raise (GByteArray *b)
{
  wire_put_varint (b, 1, 3);
  wire_put_bytes (b, 2, "Rescheduling interrupts", 23);
}

/* field 3 is none of irq_handler_entry's: a newer writer's, left out */
static void
irq_entry_extra_field (GByteArray *b)
{
  irq_entry (b);
  wire_put_varint (b, 3, 99);
}

static const Case cases[] = {
  { "  surfaceflinger-612   (  612) [001] ..... 5.000100200: irq_handler_entry: irq=27 name=arch_timer",
    "surfaceflinger", 612, 612, 1, 5000100200, 1500, irq_entry },
  { "  surfaceflinger-612   (  612) [001] ..... 5.000100900: softirq_raise: vec=1", "surfaceflinger", 612, 612, 1,
    5000100900, 1504, softirq },
  { "  surfaceflinger-612   (  612) [001] ..... 5.000101000: irq_handler_exit: irq=27 ret=1", "surfaceflinger", 612,
    612, 1, 5000101000, 1501, irq_exit },
  { "  surfaceflinger-612   (  612) [001] ..... 5.000101100: softirq_entry: vec=1", "surfaceflinger", 612, 612, 1,
    5000101100, 1502, softirq },
  { "  surfaceflinger-612   (  612) [001] ..... 5.000102000: softirq_exit: vec=1", "surfaceflinger", 612, 612, 1,
    5000102000, 1503, softirq },
  { "  binder:612_2-640   (  612) [002] ..... 5.000200000: binder_lock: tag=binder_ioctl", "binder:612_2", 640, 612,
    2, 5000200000, 109, binder_lock },
  { "  binder:612_2-640   (  612) [002] ..... 5.000201000: binder_transaction: debug_id=4711 target_node=12 "
    "to_proc=800 to_thread=0 reply=0 code=3 flags=16",
    "binder:612_2", 640, 612, 2, 5000201000, 113, binder_transaction },
  { "  kworker/2:1-77   (-----) [002] ..... 5.000300000: workqueue_execute_start: work=0xffffff80123456f0 "
    "function=0xffffffc0100a2b3c",
    "kworker/2:1", 77, 0, 2, 5000300000, 3102, workqueue_start },
  { "  <idle>-0   (-----) [000] ..... 5.000400000: ipi_raise: target_cpus=3 reason=Rescheduling interrupts",
    "<idle>", 0, 0, 0, 5000400000, 1402, ipi_raise },
  { "  <idle>-0   (-----) [003] ..... 5.000500000: irq_handler_exit: irq=3 ret=-1", "<idle>", 0, 0, 3, 5000500000,
    1501, irq_exit_negative },
  { "  surfaceflinger-612   (  612) [001] ..... 5.000600000: irq_handler_entry: irq=27 name=arch_timer",
    "surfaceflinger", 612, 612, 1, 5000600000, 1500, irq_entry_extra_field },
};

static void
add_event (GByteArray *details,
           const Case *c)
{
  g_autoptr (GByteArray) body = g_byte_array_new ();
  g_autoptr (GByteArray) event = g_byte_array_new ();
  g_autoptr (GByteArray) common = g_byte_array_new ();
  g_autoptr (GByteArray) detail = g_byte_array_new ();

  c->body (body);
  wire_put_varint (common, 4, c->tid);
  wire_put_varint (event, 1, c->ts);
  wire_put_varint (event, 2, c->tgid);
  wire_put_bytes (event, 3, c->comm, strlen (c->comm));
  wire_put_bytes (event, 50, common->data, common->len);
  wire_put_bytes (event, c->field, body->data, body->len);
  wire_put_varint (detail, 1, c->cpu);
  wire_put_bytes (detail, 2, event->data, event->len);
  wire_put_bytes (details, 2, detail->data, detail->len);
}

/* block_rq_issue (211), a kind the subset does not declare */
static void
add_undeclared (GByteArray *details)
{
  g_autoptr (GByteArray) event = g_byte_array_new ();
  g_autoptr (GByteArray) detail = g_byte_array_new ();

  wire_put_varint (event, 1, 6 * SEC);
  wire_put_bytes (event, 211, "\x08\x01", 2);
  wire_put_bytes (detail, 2, event->data, event->len);
  wire_put_bytes (details, 2, detail->data, detail->len);
}

static void
assert_same_args (const TraceBatch *ours,
                  const TraceEvent *x,
                  const TraceBatch *theirs,
                  const TraceEvent *y)
{
  const TraceArg *a = trace_batch_get_args (ours, x), *b = trace_batch_get_args (theirs, y);

  g_assert_cmpuint (x->n_args, ==, y->n_args);
  for (guint i = 0; i < x->n_args; i++)
    {
      g_assert_cmpuint (a[i].key, ==, b[i].key);
      g_assert_cmpuint (a[i].type, ==, b[i].type);
      if (a[i].type == TRACE_ARG_STRING)
        g_assert_cmpuint (a[i].v.s, ==, b[i].v.s);
      else
        g_assert_cmpuint (a[i].v.u, ==, b[i].v.u);
    }
}

static void
assert_same_events (const TraceBatch *ours,
                    const TraceBatch *theirs)
{
  guint n = 0;

  for (guint i = 0; i < ours->n_events; i++)
    {
      const TraceEvent *x = &ours->events[i], *y;

      /* not the header's clock pairs: the text has no header */
      if (x->kind == TRACE_EVENT_CLOCK_MARKER)
        continue;
      g_assert_cmpuint (n, <, theirs->n_events);
      y = &theirs->events[n++];
      g_assert_cmpint (x->kind, ==, y->kind);
      g_assert_cmpuint (x->name, ==, y->name);
      g_assert_cmpint (x->ts, ==, y->ts);
      g_assert_cmpint (x->cpu, ==, y->cpu);
      g_assert_cmpint (x->tid, ==, y->tid);
      g_assert_cmpint (x->pid, ==, y->pid);
      assert_same_args (ours, x, theirs, y);
    }
  g_assert_cmpuint (n, ==, theirs->n_events);
}

static guint
count_kind (const TraceBatch *batch,
            TraceEventKind kind)
{
  guint n = 0;

  for (guint i = 0; i < batch->n_events; i++)
    n += batch->events[i].kind == kind;
  return n;
}

/* All the events of a run in one batch, so that args can be compared. */
static TraceBatch *
run_events (HtraceRun *run)
{
  TraceBatch *all = trace_batch_new (run->pool, 64);

  for (guint b = 0; b < run->batches->len; b++)
    {
      TraceBatch *batch = run->batches->pdata[b];

      for (guint i = 0; i < batch->n_events; i++)
        trace_batch_append_event (all, &batch->events[i], batch);
    }
  return all;
}

static void
test_generic_events (void)
{
  g_autoptr (GByteArray) file = wire_file_new (1 * SEC, 1700000000 * SEC, 0);
  g_autoptr (GByteArray) result = g_byte_array_new ();
  g_autoptr (GByteArray) stats = g_byte_array_new ();
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (HtraceRun) run = NULL;
  g_autoptr (TraceBatch) ours = NULL, theirs = NULL;
  g_autoptr (FtraceParser) parser = NULL;
  g_autofree char *summary = NULL;
  const TraceEvent *irq;
  const TraceArg *args;
  HtraceReaderStats st;

  wire_put_bytes (stats, 3, "boot", 4);
  wire_put_bytes (result, 1, stats->data, stats->len);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      add_event (result, &cases[i]);
      g_string_append_printf (text, "%s\n", cases[i].text);
    }
  add_undeclared (result);
  wire_file_add_record (file, "ftrace-plugin", 1, 0, result);

  run = htrace_run_bytes (file->data, file->len, &error);
  g_assert_no_error (error);
  htrace_reader_copy_stats (run->reader, &st);
  g_assert_cmpuint (st.ftrace_events, ==, G_N_ELEMENTS (cases) + 1);
  g_assert_cmpuint (st.skipped[HTRACE_SKIP_FTRACE_OTHER], ==, 1);
  g_assert_cmpuint (st.skipped[HTRACE_SKIP_FTRACE_FIELD], ==, 1);
  /* the WARNING names the undeclared kind by the only name the file
   * gives it, its number */
  summary = htrace_reader_get_summary (run->reader);
  g_assert_nonnull (strstr (summary, ": 1 kernel events of kinds the protobuf subset does not declare "
                                     "(the first at byte 1024): FtraceEvent field 211: 1;"));
  g_assert_nonnull (strstr (summary, "; 1 kernel event fields a text line cannot carry (the events are kept) "
                                     "(the first at byte 1024)"));

  /* what a user reads first: the irq is an event of its name with args */
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_FTRACE, "irq_handler_entry"), ==, 2);
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_FTRACE, "workqueue_execute_start"), ==, 1);
  irq = htrace_run_first (run, TRACE_EVENT_FTRACE, "irq_handler_entry");
  g_assert_nonnull (irq);
  g_assert_cmpint (irq->ts, ==, 5000100200);
  g_assert_cmpint (irq->tid, ==, 612);
  g_assert_cmpuint (irq->n_args, ==, 2);

  ours = run_events (run);
  parser = ftrace_parser_new (run->pool);
  theirs = trace_batch_new (run->pool, 64);
  ftrace_parser_parse_text (parser, text->str, text->len, theirs);
  ftrace_parser_finish (parser, theirs);
  /* the kernel events, besides the thread and process names the engine
   * learns from the lines */
  g_assert_cmpuint (count_kind (theirs, TRACE_EVENT_FTRACE), ==, G_N_ELEMENTS (cases));
  assert_same_events (ours, theirs);

  /* and the values themselves, not only their agreement */
  for (guint i = 0; i < ours->n_events; i++)
    if (ours->events[i].name == irq->name)
      {
        args = trace_batch_get_args (ours, &ours->events[i]);
        g_assert_cmpstr (htrace_run_string (run, args[0].key), ==, "irq");
        g_assert_cmpint (args[0].v.i, ==, 27);
        g_assert_cmpstr (htrace_run_string (run, args[1].v.s), ==, "arch_timer");
      }
}

/* 70 undeclared kinds (numbers 200 to 269, block and cgroup events in
 * OpenHarmony's numbering): the first HTRACE_MAX_FTRACE_KINDS by number,
 * the rest together */
static void
test_many_undeclared_kinds (void)
{
  g_autoptr (GByteArray) file = wire_file_new (1 * SEC, 1700000000 * SEC, 0);
  g_autoptr (GByteArray) result = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (HtraceRun) run = NULL;
  g_autofree char *summary = NULL, *last = NULL;
  HtraceReaderStats st;

  for (guint number = 200; number < 270; number++)
    {
      g_autoptr (GByteArray) event = g_byte_array_new ();
      g_autoptr (GByteArray) detail = g_byte_array_new ();

      wire_put_varint (event, 1, 6 * SEC);
      wire_put_bytes (event, number, "", 0);
      wire_put_bytes (detail, 2, event->data, event->len);
      wire_put_bytes (result, 2, detail->data, detail->len);
    }
  wire_file_add_record (file, "ftrace-plugin", 1, 0, result);
  run = htrace_run_bytes (file->data, file->len, &error);
  g_assert_no_error (error);
  htrace_reader_copy_stats (run->reader, &st);
  g_assert_cmpuint (st.skipped[HTRACE_SKIP_FTRACE_OTHER], ==, 70);
  summary = htrace_reader_get_summary (run->reader);
  g_assert_nonnull (strstr (summary, "(the first at byte 1024): FtraceEvent field 200: 1, FtraceEvent field 201: 1, "));
  last = g_strdup_printf ("FtraceEvent field %u: 1, other: %u", 200 + HTRACE_MAX_FTRACE_KINDS - 1,
                          70 - HTRACE_MAX_FTRACE_KINDS);
  g_assert_nonnull (strstr (summary, last));
  g_assert_null (strstr (summary, "FtraceEvent field 269"));
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/htrace/ftrace/generic", test_generic_events);
  g_test_add_func ("/htrace/ftrace/many-undeclared-kinds", test_many_undeclared_kinds);
  return g_test_run ();
}
