/* Unit tests of the kernel record engine (plugins/kernel-engine): a
 * record gives exactly the events ftrace-src gives for the line the
 * kernel prints of it. The formats are a 6.x kernel's (from tracefs);
 * the records are written here by hand at the formats' offsets.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "../ftrace/ftrace-test-util.h"
#include "kernel-engine.h"

#define COMMON_FIELDS                                                            \
  "format:\n"                                                                    \
  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"         \
  "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"         \
  "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
  "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#define TASK_MASK "((((0x0000 | 0x0001 | 0x0002 | 0x0004 | 0x0008 | 0x0010 | 0x0020 | 0x0040) + 1) << 1) - 1)"

static const char switch_format[] =
    "name: sched_switch\nID: 372\n" COMMON_FIELDS
    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
    "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
    "print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d "
    "next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & " TASK_MASK
    ") ? __print_flags(REC->prev_state & " TASK_MASK ", \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, "
    "{ 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, "
    "{ 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & (((0x0000 | 0x0001 | 0x0002 | "
    "0x0004 | 0x0008 | 0x0010 | 0x0020 | 0x0040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, REC->next_pid, "
    "REC->next_prio\n";

static const char waking_format[] =
    "name: sched_waking\nID: 377\n" COMMON_FIELDS
    "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n"
    "print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu\n";

static const char print_format[] = "name: print\nID: 5\n" COMMON_FIELDS
                                   "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
                                   "\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n\n"
                                   "print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";

static const char irq_format[] = "name: irq_handler_entry\nID: 225\n" COMMON_FIELDS
                                 "\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
                                 "\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n\n"
                                 "print fmt: \"irq=%d name=%s\", REC->irq, __get_str(name)\n";

/* The lines the kernel prints of the records below. */
static const char lines[] =
    "          <idle>-0       [001] d..2.  1212.465395: sched_waking: comm=app pid=40 prio=120 target_cpu=001\n"
    "          <idle>-0       [001] d..2.  1212.465441: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 "
    "prev_state=R+ ==> next_comm=app next_pid=40 next_prio=120\n"
    "             app-40      [001] .....  1212.465500: tracing_mark_write: B|40|load\n"
    "             app-40      [001] d.h1.  1212.465510: irq_handler_entry: irq=9 name=acpi\n"
    "             app-40      [001] .....  1212.465600: tracing_mark_write: E|40\n"
    "             app-40      [001] d..2.  1212.465700: sched_switch: prev_comm=app prev_pid=40 prev_prio=120 "
    "prev_state=S ==> next_comm=kworker/1:1 next_pid=50 next_prio=120\n"
    "     kworker/1:1-50      [001] d..2.  1212.465800: sched_switch: prev_comm=kworker/1:1 prev_pid=50 "
    "prev_prio=120 prev_state=I ==> next_comm=swapper/1 next_pid=0 next_prio=120\n";

#define NS(s, us) ((gint64) (s) *1000000000 + (gint64) (us) *1000)

typedef struct
{
  struct tep_handle *tep;
  guint8 data[128];
  struct tep_record rec;
} Fixture;

static void
put (guint8 *d,
     guint offset,
     guint size,
     guint64 v)
{
  for (guint i = 0; i < size; i++)
    d[offset + i] = (v >> (8 * i)) & 0xff; /* the formats' byte order: little-endian */
}

static struct tep_record *
record (Fixture *f,
        guint16 type,
        gint32 pid,
        gint64 ts,
        gsize size)
{
  memset (f->data, 0, sizeof f->data);
  put (f->data, 0, 2, type);
  put (f->data, 4, 4, (guint32) pid);
  f->rec = (struct tep_record){ .ts = ts, .size = size, .data = f->data, .cpu = 1 };
  return &f->rec;
}

static void
add_switch (Fixture *f,
            KernelEngine *ke,
            TraceBatch *b,
            gint64 ts,
            const char *prev,
            gint32 prev_pid,
            guint64 state,
            const char *next,
            gint32 next_pid)
{
  struct tep_record *r = record (f, 372, prev_pid, ts, 64);

  memcpy (f->data + 8, prev, strlen (prev));
  put (f->data, 24, 4, prev_pid);
  put (f->data, 28, 4, 120);
  put (f->data, 32, 8, state);
  memcpy (f->data + 40, next, strlen (next));
  put (f->data, 56, 4, next_pid);
  put (f->data, 60, 4, 120);
  kernel_engine_add_record (ke, r, 1, b);
}

static void
add_print (Fixture *f,
           KernelEngine *ke,
           TraceBatch *b,
           gint64 ts,
           const char *text)
{
  struct tep_record *r = record (f, 5, 40, ts, 16 + strlen (text) + 1);

  memcpy (f->data + 16, text, strlen (text));
  kernel_engine_add_record (ke, r, 1, b);
}

static void
add_irq (Fixture *f,
         KernelEngine *ke,
         TraceBatch *b,
         gint64 ts,
         guint16 loc_offset)
{
  struct tep_record *r = record (f, 225, 40, ts, 24);

  put (f->data, 8, 4, 9);
  put (f->data, 12, 4, (5u << 16) | loc_offset);
  memcpy (f->data + 16, "acpi", 5);
  kernel_engine_add_record (ke, r, 1, b);
}

static void
fixture_setup (Fixture *f,
               gconstpointer data)
{
  const char *formats[] = { switch_format, waking_format, print_format, irq_format };

  f->tep = tep_alloc ();
  tep_set_long_size (f->tep, 8);
  tep_set_file_bigendian (f->tep, TEP_LITTLE_ENDIAN);
  tep_set_local_bigendian (f->tep, G_BYTE_ORDER == G_BIG_ENDIAN ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    g_assert_cmpint (tep_parse_event (f->tep, formats[i], strlen (formats[i]), i < 2 ? "sched" : i == 2 ? "ftrace"
                                                                                                        : "irq"),
                     ==, 0);
  tep_register_comm (f->tep, "app", 40);
  tep_register_comm (f->tep, "kworker/1:1", 50);
}

static void
fixture_teardown (Fixture *f,
                  gconstpointer data)
{
  tep_free (f->tep);
}

static void
add_records (Fixture *f,
             KernelEngine *ke,
             TraceBatch *b)
{
  struct tep_record *r = record (f, 377, 0, NS (1212, 465395), 36);

  memcpy (f->data + 8, "app", 3);
  put (f->data, 24, 4, 40);
  put (f->data, 28, 4, 120);
  put (f->data, 32, 4, 1);
  kernel_engine_add_record (ke, r, 1, b);
  add_switch (f, ke, b, NS (1212, 465441), "swapper/1", 0, 0x100, "app", 40);
  add_print (f, ke, b, NS (1212, 465500), "B|40|load\n");
  add_irq (f, ke, b, NS (1212, 465510), 16);
  add_print (f, ke, b, NS (1212, 465600), "E|40\n");
  add_switch (f, ke, b, NS (1212, 465700), "app", 40, 0x1, "kworker/1:1", 50);
  add_switch (f, ke, b, NS (1212, 465800), "kworker/1:1", 50, 0x80, "swapper/1", 0);
}

/* Every event, its fields, args, names and threads as from the text. */
static void
test_records_are_text (Fixture *f,
                       gconstpointer data)
{
  g_autoptr (FtraceParser) text_parser = NULL;
  g_autoptr (TraceBatch) text = parse_text (lines, &text_parser);
  g_autoptr (FtraceParser) p = ftrace_parser_new (text->pool);
  g_autoptr (TraceBatch) typed = trace_batch_new (text->pool, 64);
  g_autoptr (KernelEngine) ke = kernel_engine_new (f->tep, p);

  add_records (f, ke, typed);
  ftrace_parser_finish (p, typed);
  g_assert_cmpuint (count_kind (text, TRACE_EVENT_SLICE_BEGIN), ==, 1);
  g_assert_cmpuint (count_kind (text, TRACE_EVENT_SCHED_SWITCH), ==, 3);
  g_assert_cmpuint (typed->n_events, ==, text->n_events);
  for (guint i = 0; i < text->n_events; i++)
    {
      TraceEvent x = text->events[i], y = typed->events[i];

      assert_same_args (text, &x, typed, &y);
      x.first_arg = y.first_arg = 0;
      g_assert_cmpmem (&x, sizeof x, &y, sizeof y);
    }
  g_assert_cmpint (nth_of_kind (typed, TRACE_EVENT_SCHED_SWITCH, 0)->u.sched_switch.prev_state, ==,
                   TRACE_TASK_STATE_PREEMPTED);
  g_assert_cmpint (nth_of_kind (typed, TRACE_EVENT_SCHED_SWITCH, 2)->u.sched_switch.prev_state, ==,
                   TRACE_TASK_STATE_IDLE);
  g_assert_null (kernel_engine_stats_to_summary (kernel_engine_get_stats (ke)));
}

/* What cannot be read is counted: an id without a format, a string that
 * lies past the record's end; nothing is read outside the record. */
static void
test_damage_counted (Fixture *f,
                     gconstpointer data)
{
  g_autoptr (FtraceParser) p = ftrace_parser_new (NULL);
  g_autoptr (TraceBatch) b = trace_batch_new (NULL, 16);
  g_autoptr (KernelEngine) ke = kernel_engine_new (f->tep, p);
  g_autofree char *summary = NULL;
  const TraceEvent *irq;

  kernel_engine_add_record (ke, record (f, 999, 40, 1000, 16), 0, b);
  g_assert_cmpuint (b->n_events, ==, 0);
  add_irq (f, ke, b, 2000, 200);
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_FTRACE), ==, 1);
  irq = nth_of_kind (b, TRACE_EVENT_FTRACE, 0);
  g_assert_cmpstr (str (b, irq->name), ==, "irq_handler_entry");
  g_assert_cmpuint (irq->n_args, ==, 1);
  g_assert_cmpint (find_arg (b, irq, "irq")->v.i, ==, 9);
  g_assert_cmpuint (kernel_engine_get_stats (ke)->records, ==, 2);
  g_assert_cmpuint (kernel_engine_get_stats (ke)->unknown_events, ==, 1);
  g_assert_cmpuint (kernel_engine_get_stats (ke)->unread_fields, ==, 1);
  summary = kernel_engine_stats_to_summary (kernel_engine_get_stats (ke));
  g_assert_nonnull (strstr (summary, "1 records of event ids without a format"));
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/kernel-engine/records-are-text", Fixture, NULL, fixture_setup, test_records_are_text,
              fixture_teardown);
  g_test_add ("/kernel-engine/damage-counted", Fixture, NULL, fixture_setup, test_damage_counted,
              fixture_teardown);
  return g_test_run ();
}
