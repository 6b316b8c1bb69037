/* Unit tests of ftrace-src's line parser: process dumps (FORMATS.md §1.5)
 * and RheaTrace/btrace raw lines (§6.1, §6.4), the quoted btrace
 * fragments tested one line at a time. */
#include <string.h>

#include "ftrace-test-util.h"

#define SEC(s, us) ((gint64) (s) *1000000000 + (gint64) (us) *1000)

static void
test_process_dump (void)
{
  g_autoptr (FtraceParser) p = NULL;
  g_autoptr (TraceBatch) b = parse_text (
      "PROCESS DUMP\n"
      "USER           PID  PPID     VSZ    RSS WCHAN            ADDR S NAME                       COMM\n"
      "root             1     0 10876604  11476 SyS_epoll_wait      0 S init                       init\n"
      "u0_a57        2519   712 4413828 123456 SyS_epoll_wait      0 S com.example.app            e.example.app\n"
      "USER           PID   TID CMD\n"
      "root             1     1 init\n"
      "u0_a57        2519  2519 e.example.app\n"
      "u0_a57        2519  2530 Jit thread pool\n"
      "\n"
      "# tracer: nop\n"
      "           <...>-2530  (-----) [000] .... 5.000000: cpu_idle: state=1 cpu_id=0\n",
      &p);
  const FtraceStats *st = ftrace_parser_get_stats (p);

  g_assert_cmpuint (b->n_events, ==, 6);
  check_event (b, 0, TRACE_EVENT_PROCESS_NAME, 0, 1, TRACE_ID_UNKNOWN, "init");
  check_event (b, 1, TRACE_EVENT_PROCESS_NAME, 0, 2519, TRACE_ID_UNKNOWN, "com.example.app");
  check_event (b, 2, TRACE_EVENT_THREAD_NAME, 0, 1, 1, "init");
  check_event (b, 3, TRACE_EVENT_THREAD_NAME, 0, 2519, 2519, "e.example.app");
  check_event (b, 4, TRACE_EVENT_THREAD_NAME, 0, 2519, 2530, "Jit thread pool");
  /* the dump's tid -> pid fills a `(-----)` line */
  check_event (b, 5, TRACE_EVENT_CPU_IDLE, SEC (5, 0), 2519, 2530, NULL);
  g_assert_cmpuint (st->metadata_lines, ==, 10);
  g_assert_cmpuint (st->problems[FTRACE_PROBLEM_UNPARSABLE_LINE], ==, 0);
  g_assert_cmpuint (ftrace_parser_get_seen (p), ==, FTRACE_SEEN_DUMP | FTRACE_SEEN_HEADER | FTRACE_SEEN_FTRACE_EVENT);
}

static void
test_toolbox_ps (void)
{
  g_autoptr (TraceBatch) b = read_file ("catapult_atrace_ps_dump.txt", NULL, NULL, NULL);

  /* the state letter has no header: the name is the column after it */
  g_assert_nonnull (b);
  g_assert_cmpuint (b->n_events, ==, 7);
  check_event (b, 0, TRACE_EVENT_PROCESS_NAME, 0, 1, TRACE_ID_UNKNOWN, "/init");
  check_event (b, 3, TRACE_EVENT_PROCESS_NAME, 0, 7, TRACE_ID_UNKNOWN, "kworker/u:0H");
  check_event (b, 6, TRACE_EVENT_PROCESS_NAME, 0, 14, TRACE_ID_UNKNOWN, "netns");
}

static void
test_proc_listing (void)
{
  g_autoptr (TraceBatch) b = parse_text (
      "proc/1/task/1\n"
      "/proc/1079/task/1080\n"
      "  binder-1080 [001] .... 3.000000: cpu_idle: state=1 cpu_id=1\n",
      NULL);

  g_assert_cmpuint (b->n_events, ==, 2);
  check_event (b, 0, TRACE_EVENT_THREAD_NAME, SEC (3, 0), 1079, 1080, "binder");
}

static void
test_cgroup_dump (void)
{
  g_autoptr (FtraceParser) p = NULL;
  g_autoptr (TraceBatch) b = read_file ("catapult_cgroup_dump.txt", NULL, NULL, NULL);
  g_autofree char *path = data_path ("catapult_cgroup_dump.txt");
  g_autofree char *text = NULL;

  g_assert_nonnull (b);
  g_assert_cmpuint (b->n_events, ==, 0);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_clear_pointer (&b, trace_batch_unref);
  b = parse_text (text, &p);
  /* 17 lines, all metadata: nothing reported as unparsable */
  g_assert_cmpuint (ftrace_parser_get_stats (p)->lines, ==, 17);
  g_assert_cmpuint (ftrace_parser_get_stats (p)->metadata_lines, ==, 17);
}

/* ------------------------------------------------------------- RheaTrace */

typedef struct
{
  const char *line;
  guint n_events;
  TraceEventKind kind; /* of the last event */
  gint64 ts, pid, tid;
  const char *name;
} RheaLine;

/* Every line of btrace_documented_line_examples.txt that is no comment,
 * with the events it gives alone (each line is parsed by a new parser). */
static const RheaLine rhea_lines[] = {
  { "5108949.231989: B|28045| TestCrash:a", 1, TRACE_EVENT_SLICE_BEGIN, SEC (5108949, 231989), 28045, 28045, " TestCrash:a" },
  { "5108949.232055: B|28045| TestCrash:b", 1, TRACE_EVENT_SLICE_BEGIN, SEC (5108949, 232055), 28045, 28045, " TestCrash:b" },
  { "5108949.232554: B|28045| TestCrash:c", 1, TRACE_EVENT_SLICE_BEGIN, SEC (5108949, 232554), 28045, 28045, " TestCrash:c" },
  { "5108949.232580: E|28045", 1, TRACE_EVENT_SLICE_END, SEC (5108949, 232580), 28045, 28045, "" },
  { "5108949.231989: B|28045|B:TestCrash:a", 1, TRACE_EVENT_SLICE_BEGIN, SEC (5108949, 231989), 28045, 28045, "B:TestCrash:a" },
  { "5108949.232055: B|28045|B:TestCrash:b", 1, TRACE_EVENT_SLICE_BEGIN, SEC (5108949, 232055), 28045, 28045, "B:TestCrash:b" },
  { "5108949.232554: B|28045|B:TestCrash:c", 1, TRACE_EVENT_SLICE_BEGIN, SEC (5108949, 232554), 28045, 28045, "B:TestCrash:c" },
  { "5108949.232580: B|28045|E:TestCrash:a", 1, TRACE_EVENT_SLICE_BEGIN, SEC (5108949, 232580), 28045, 28045, "E:TestCrash:a" },
  { "5108949.231989: B|28045|TestCrash:a", 1, TRACE_EVENT_SLICE_BEGIN, SEC (5108949, 231989), 28045, 28045, "TestCrash:a" },
  { "5108949.232055: B|28045|TestCrash:b", 1, TRACE_EVENT_SLICE_BEGIN, SEC (5108949, 232055), 28045, 28045, "TestCrash:b" },
  { "5108949.232554: B|28045|TestCrash:c", 1, TRACE_EVENT_SLICE_BEGIN, SEC (5108949, 232554), 28045, 28045, "TestCrash:c" },
  /* an end's name is not kept: it ends the innermost slice */
  { "5108949.232554: E|28045|TestCrash:c", 1, TRACE_EVENT_SLICE_END, SEC (5108949, 232554), 28045, 28045, "" },
  { "5108949.232554: E|28045|TestCrash:b", 1, TRACE_EVENT_SLICE_END, SEC (5108949, 232554), 28045, 28045, "" },
  { "5108949.232580: E|28045|TestCrash:a", 1, TRACE_EVENT_SLICE_END, SEC (5108949, 232580), 28045, 28045, "" },
  { "512|TRACE_START|1059724457403076|13923|2147483647|2|18316", 0 },
  { "948220.911051: B|18557|monotonic_time: 232073.280777", 1, TRACE_EVENT_CLOCK_MARKER, SEC (948220, 911051), 18557, 18557, NULL },
  { "360.554760 12086: B|11992|T:ApkSigningBlockUtils:findApkSigningBlock", 1, TRACE_EVENT_SLICE_BEGIN, SEC (360, 554760), 11992, 12086, "T:ApkSigningBlockUtils:findApkSigningBlock" },
  { "4451304.157739 19786: B|19526|ReentrantLock[147755888]:locked", 1, TRACE_EVENT_SLICE_BEGIN, SEC (4451304, 157739), 19526, 19786, "ReentrantLock[147755888]:locked" },
  { "601868.050568: B|3920|ReentrantLock[260395896]:lock", 1, TRACE_EVENT_SLICE_BEGIN, SEC (601868, 50568), 3920, 3920, "ReentrantLock[260395896]:lock" },
  { "4451304.157739 19786: B|19526|Future[147755888]:exe", 1, TRACE_EVENT_SLICE_BEGIN, SEC (4451304, 157739), 19526, 19786, "Future[147755888]:exe" },
  { "601868.050568: B|3920|Future[260395896]:get", 1, TRACE_EVENT_SLICE_BEGIN, SEC (601868, 50568), 3920, 3920, "Future[260395896]:get" },
  { "<...>-32347   (  32347) [007] .... 239854.417866: task_newtask: pid=32390 comm=.sample.android clone_flags=3d0f00 oom_score_adj=0", 2, TRACE_EVENT_TASK_NEWTASK, SEC (239854, 417866), 32347, 32347, NULL },
  { "<...>-32390   (  32347) [005] ...1 239854.417989: task_rename: pid=32390 oldcomm=.sample.android newcomm=Thread 2 oom_score_adj=0", 2, TRACE_EVENT_TASK_RENAME, SEC (239854, 417989), 32347, 32390, NULL },
  { "<...>-32390   (  32347) [004] .n.1 239854.418157: task_rename: pid=32390 oldcomm=Thread 2 newcomm=lock_test 0 oom_score_adj=0", 2, TRACE_EVENT_TASK_RENAME, SEC (239854, 418157), 32347, 32390, NULL },
  { "27438.977315541 28095: B|28069|open", 1, TRACE_EVENT_SLICE_BEGIN, 27438977315541, 28069, 28095, "open" },
  { "24903.044390707 25135: B|25135|B:RheaApplication:printApplicationName[rhea.sample.android.app.RheaApplication]", 1, TRACE_EVENT_SLICE_BEGIN, 24903044390707, 25135, 25135, "B:RheaApplication:printApplicationName[rhea.sample.android.app.RheaApplication]" },
  { "11207.478111764: B|14220|ResourcesImpl#updateConfiguration", 1, TRACE_EVENT_SLICE_BEGIN, 11207478111764, 14220, 14220, "ResourcesImpl#updateConfiguration" },
  /* binder.txt and methodMapping.txt lines: not trace lines */
  { "TRANSACTION_addToDisplay:1", 0 },
  { "TRANSACTION_addToDisplayAsUser:2", 0 },
  { "<rhea-draft>binder transact[android.content.pm.IPackageManager:9]", 0 },
  { "1,17,rhea.sample.android.app.SecondFragment$onViewCreated$1 onClick (Landroid/view/View;)V", 0 },
};

static void
check_rhea_line (const char *line)
{
  g_autoptr (FtraceParser) p = NULL;
  g_autoptr (TraceBatch) b = parse_text (line, &p);
  const FtraceStats *st = ftrace_parser_get_stats (p);
  const RheaLine *want = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (rhea_lines); i++)
    if (strcmp (rhea_lines[i].line, line) == 0)
      want = &rhea_lines[i];
  g_test_message ("line: %s", line);
  g_assert_nonnull (want);
  g_assert_cmpuint (b->n_events, ==, want->n_events);
  if (want->n_events > 0)
    {
      check_event (b, b->n_events - 1, want->kind, want->ts, want->pid, want->tid, want->name);
      g_assert_cmpuint (st->problems[FTRACE_PROBLEM_UNPARSABLE_LINE], ==, 0);
    }
  else if (strstr (line, "TRACE_START") != NULL)
    {
      g_assert_cmpint (ftrace_parser_get_rhea_pid (p), ==, 13923);
      g_assert_cmpuint (st->problems[FTRACE_PROBLEM_RHEA_CUT_OFF], ==, 1);
    }
  else
    g_assert_cmpuint (st->problems[FTRACE_PROBLEM_UNPARSABLE_LINE], ==, 1);
}

static void
test_rhea_fragments (void)
{
  g_autofree char *path = data_path ("btrace_documented_line_examples.txt");
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  guint tested = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] == '\0' || lines[i][0] == '#')
        continue;
      check_rhea_line (lines[i]);
      tested++;
    }
  g_assert_cmpuint (tested, ==, G_N_ELEMENTS (rhea_lines));
}

static void
test_rhea_clock_pair (void)
{
  g_autoptr (TraceBatch) b = parse_text ("948220.911051: B|18557|monotonic_time: 232073.280777\n", NULL);
  const TraceEvent *e = &b->events[0];

  g_assert_cmpuint (e->u.clock.marker, ==, TRACE_CLOCK_MARKER_PAIR);
  g_assert_cmpuint (e->u.clock.domain, ==, TRACE_CLOCK_MONOTONIC);
  g_assert_cmpint (e->u.clock.other_ts, ==, SEC (232073, 280777));
}

static void
test_rhea_capture (void)
{
  g_autoptr (FtraceParser) p = ftrace_parser_new (NULL);
  g_autoptr (TraceBatch) b = trace_batch_new (NULL, 0);
  const char *text =
      "512|TRACE_START|1059724457403076|13923|2147483647|2|18316\n"
      "948220.911051: B|13923|monotonic_time: 232073.280777\n"
      "948220.911060: B|13923|B:Main:onCreate\n"
      "948220.911070 13950: B|13923|B:Worker:run\n"
      "948220.911080: B|13923|E:Main:onCreate\n"
      "948220.911090: E|13923\n"
      "1|TRACE_END|1059724457403099|13923|0|0|0\n";

  ftrace_parser_set_rhea_process (p, 0, "com.example.rhea");
  ftrace_parser_parse_text (p, text, strlen (text), b);
  ftrace_parser_finish (p, b);
  g_assert_cmpuint (b->n_events, ==, 6);
  /* TRACE_START gives the pid: main-thread lines are its thread */
  check_event (b, 0, TRACE_EVENT_PROCESS_NAME, 0, 13923, TRACE_ID_UNKNOWN, "com.example.rhea");
  check_event (b, 1, TRACE_EVENT_CLOCK_MARKER, SEC (948220, 911051), 13923, 13923, NULL);
  check_event (b, 2, TRACE_EVENT_SLICE_BEGIN, SEC (948220, 911060), 13923, 13923, "B:Main:onCreate");
  check_event (b, 3, TRACE_EVENT_SLICE_BEGIN, SEC (948220, 911070), 13923, 13950, "B:Worker:run");
  check_event (b, 4, TRACE_EVENT_SLICE_BEGIN, SEC (948220, 911080), 13923, 13923, "E:Main:onCreate");
  check_event (b, 5, TRACE_EVENT_SLICE_END, SEC (948220, 911090), 13923, 13923, "");
  g_assert_cmpuint (ftrace_parser_get_stats (p)->problems[FTRACE_PROBLEM_RHEA_CUT_OFF], ==, 0);
  g_assert_cmpuint (ftrace_parser_get_seen (p), ==, FTRACE_SEEN_RHEA_EVENT);
}

static void
test_rhea_headerless_with_pid (void)
{
  g_autoptr (FtraceParser) p = ftrace_parser_new (NULL);
  g_autoptr (TraceBatch) b = trace_batch_new (NULL, 0);
  const char *text = "100.000001: B|777|B:A:a\n100.000002: B|777|E:A:a\n";

  /* the user's pid names the main thread of a capture without TRACE_START */
  ftrace_parser_set_rhea_process (p, 777, "app");
  ftrace_parser_parse_text (p, text, strlen (text), b);
  ftrace_parser_finish (p, b);
  g_assert_cmpuint (b->n_events, ==, 3);
  check_event (b, 0, TRACE_EVENT_PROCESS_NAME, 0, 777, TRACE_ID_UNKNOWN, "app");
  check_event (b, 1, TRACE_EVENT_SLICE_BEGIN, SEC (100, 1), 777, 777, "B:A:a");
  check_event (b, 2, TRACE_EVENT_SLICE_BEGIN, SEC (100, 2), 777, 777, "E:A:a");
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ftrace/dumps/process-dump", test_process_dump);
  g_test_add_func ("/ftrace/dumps/toolbox-ps", test_toolbox_ps);
  g_test_add_func ("/ftrace/dumps/proc-listing", test_proc_listing);
  g_test_add_func ("/ftrace/dumps/cgroup", test_cgroup_dump);
  g_test_add_func ("/ftrace/rhea/fragments", test_rhea_fragments);
  g_test_add_func ("/ftrace/rhea/clock-pair", test_rhea_clock_pair);
  g_test_add_func ("/ftrace/rhea/capture", test_rhea_capture);
  g_test_add_func ("/ftrace/rhea/headerless-with-pid", test_rhea_headerless_with_pid);
  return g_test_run ();
}
