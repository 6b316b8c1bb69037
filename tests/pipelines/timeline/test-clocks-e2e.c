/* End to end: inputs on different clocks merged by clock-sync
 * into one Perfetto trace, read back with perfetto-src, and every slice
 * checked at the time the inputs themselves say it belongs:
 *
 *  sync-id     a systrace (catapult_decompressed_atrace_data.txt with a
 *              `trace_event_clock_sync: name=` line added) and a Chrome
 *              trace (lighthouse_timespan-trace-m91.json: its `c` event,
 *              with and without an issue_ts added) → the JSON's slices at
 *              marker time + (their ts − the c event's time);
 *  rhea        a RheaTrace raw capture (boot time, `monotonic_time:` pair)
 *              and a systrace of the same app (on CLOCK_MONOTONIC, or on
 *              boot time with target=monotonic), both written here from
 *              one table of what happened → method slices on the same
 *              pid/tid as the system's slices and inside them;
 *  rhea + perfetto  the same RheaTrace capture and the system trace as
 *              Android's perfetto writes it (ftrace bundles with print
 *              markers, a process tree), encoded here by protoc;
 *  arkts       an ArkTS CPU profile (ohos_ts_ut_js_cpu_profiler_results.jsonl)
 *              and a systrace of its thread with `sink_1::offset=` → every
 *              profile slice moved by exactly the offset; the same profile
 *              and a Perfetto trace whose clock snapshot pairs boot time
 *              and monotonic → moved by the pair's difference.
 *
 * Each also checks what clock-sync said on the bus (domain, offset,
 * source), and that an output whose inputs were not all on its clock
 * carries the clock snapshot (read back as a clock marker).
 */
#include <string.h>

#include "timeline-util.h"

#define FTRACE_DATA(name) TEST_DATA_DIR "/ftrace/" name
#define JSON_DATA(name) TEST_DATA_DIR "/json/" name
#define ARKTS_DATA(name) TEST_DATA_DIR "/arkts/" name

/* ---- helpers ------------------------------------------------------------------ */

static TlRun *
merge_and_read_back (const char *merge_description,
                     const char *pftrace)
{
  g_autoptr (TlRun) merge = tl_run (merge_description);
  g_autofree char *desc = g_strdup_printf ("perfetto-src location=\"%s\" ! collectsink name=out", pftrace);
  TlRun *back;

  g_assert_cmpint (merge->end->type, ==, TRACE_MESSAGE_EOS);
  back = tl_run (desc);
  g_assert_cmpint (back->end->type, ==, TRACE_MESSAGE_EOS);
  /* the merge's messages are wanted too: keep them with the read-back */
  for (guint i = 0; i < merge->messages->len; i++)
    g_ptr_array_add (back->messages, trace_message_ref (merge->messages->pdata[i]));
  return back;
}

static const TlSlice *
find_slice (GArray *slices,
            gint64 pid,
            gint64 tid,
            const char *name,
            gint64 begin)
{
  for (guint i = 0; i < slices->len; i++)
    {
      const TlSlice *s = &g_array_index (slices, TlSlice, i);

      if (s->pid == pid && s->tid == tid && s->begin == begin && g_strcmp0 (s->name, name) == 0)
        return s;
    }
  g_error ("no slice %s on %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT " at %" G_GINT64_FORMAT " ns", name, pid, tid,
           begin);
}

/* What clock-sync decided for @pad, as posted on the bus. */
static void
check_decision (TlRun *run,
                const char *pad,
                const char *domain,
                const char *source,
                gint64 offset)
{
  GVariant *d = tl_run_clock_decision (run, pad);
  const char *got_domain = NULL, *got_source = NULL;
  gint64 got_offset = 0;
  gboolean synced = FALSE, guess = TRUE;

  g_assert_nonnull (d);
  g_assert_true (g_variant_lookup (d, "domain", "&s", &got_domain));
  g_assert_true (g_variant_lookup (d, "source", "&s", &got_source));
  g_assert_true (g_variant_lookup (d, "offset", "x", &got_offset));
  g_assert_true (g_variant_lookup (d, "synced", "b", &synced));
  g_assert_true (g_variant_lookup (d, "guess", "b", &guess));
  g_assert_cmpstr (got_domain, ==, domain);
  g_assert_cmpstr (got_source, ==, source);
  g_assert_cmpint (got_offset, ==, offset);
  g_assert_true (synced);
  g_assert_false (guess);
}

/* The clock snapshots of the output, read back as PAIR markers: one must
 * tie @domain to the output's clock with @offset (= ts − other_ts). */
static void
check_clock_snapshot (TlRun *back,
                      TraceClockDomain domain,
                      gint64 offset)
{
  guint found = 0;

  for (guint i = 0; i < back->events->n_events; i++)
    {
      const TraceEvent *ev = &back->events->events[i];

      if (ev->kind == TRACE_EVENT_CLOCK_MARKER && ev->u.clock.marker == TRACE_CLOCK_MARKER_PAIR &&
          ev->u.clock.domain == domain)
        {
          g_assert_cmpint (ev->ts - ev->u.clock.other_ts, ==, offset);
          found++;
        }
    }
  g_assert_cmpuint (found, >, 0);
}

static char *
read_text (const char *path)
{
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* ---- sync id: systrace + Chrome JSON -------------------------------------- */

#define SYNC_ID "__lighthouseTimespanStart__"
#define SYNC_MARKER_NS G_GINT64_CONSTANT (683201500000000) /* between the file's clock lines and events */

/* The corpus systrace with the line a systrace controller writes when it
 * issues a clock sync, after the file's own parent_ts/realtime_ts lines. */
static char *
write_systrace_with_sync_marker (void)
{
  char *path = tl_tmp_path ("systrace.txt");
  g_autofree char *text = read_text (FTRACE_DATA ("catapult_decompressed_atrace_data.txt"));
  g_autoptr (GString) out = g_string_new (text);
  const char *clock_line = strstr (out->str, "realtime_ts=");
  gssize at;

  g_assert_nonnull (clock_line);
  at = strchr (clock_line, '\n') + 1 - out->str;
  g_string_insert (out, at, "           <...>-19161 (-----) [001] ...1 683201.500000: tracing_mark_write: "
                            "trace_event_clock_sync: name=" SYNC_ID "\n");
  tl_write (path, out->str);
  return path;
}

/* The Lighthouse trace, its `c` event given an issue_ts @issue_before_us
 * before its ts (0: none, as in the file).  Returns the Chrome time the
 * marker stands for: the midpoint of issue_ts..ts, else ts (µs). */
static gint64
write_chrome_json (const char *path,
                   gint64 issue_before_us,
                   JsonNode **events)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (GError) error = NULL;
  JsonArray *array;
  gint64 sync_us = -1;

  json_parser_load_from_file (parser, JSON_DATA ("lighthouse_timespan-trace-m91.json"), &error);
  g_assert_no_error (error);
  array = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *ev = json_array_get_object_element (array, i);
      JsonObject *args;

      if (g_strcmp0 (json_object_get_string_member (ev, "ph"), "c") != 0)
        continue;
      args = json_object_get_object_member (ev, "args");
      g_assert_cmpstr (json_object_get_string_member (args, "sync_id"), ==, SYNC_ID);
      sync_us = json_object_get_int_member (ev, "ts");
      if (issue_before_us > 0)
        {
          json_object_set_int_member (args, "issue_ts", sync_us - issue_before_us);
          sync_us -= issue_before_us / 2;
        }
    }
  g_assert_cmpint (sync_us, >, 0);
  json_generator_set_root (gen, json_parser_get_root (parser));
  json_generator_to_file (gen, path, &error);
  g_assert_no_error (error);
  *events = json_node_copy (json_object_get_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents"));
  return sync_us;
}

/* Every X of the JSON at its ts + @offset, same pid, tid, name, duration. */
static guint
check_json_slices (JsonNode *events,
                   GArray *slices,
                   gint64 offset)
{
  JsonArray *array = json_node_get_array (events);
  guint n = 0;

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *ev = json_array_get_object_element (array, i);
      const TlSlice *s;

      if (g_strcmp0 (json_object_get_string_member (ev, "ph"), "X") != 0)
        continue;
      s = find_slice (slices, json_object_get_int_member (ev, "pid"), json_object_get_int_member (ev, "tid"),
                      json_object_get_string_member (ev, "name"), tl_json_ns (ev, "ts") + offset);
      g_assert_cmpint (s->end - s->begin, ==, tl_json_ns (ev, "dur"));
      n++;
    }
  return n;
}

static char *
sync_id_description (const char *sys,
                     const char *app,
                     const char *out)
{
  return g_strdup_printf ("clock-sync name=m ! perfetto-sink location=\"%s\"  "
                          "ftrace-src location=\"%s\" ! m.  json-src location=\"%s\" ! m.",
                          out, sys, app);
}

static void
test_sync_id (gconstpointer data)
{
  gint64 issue_before_us = GPOINTER_TO_INT (data);
  g_autofree char *sys = write_systrace_with_sync_marker ();
  g_autofree char *app = tl_tmp_path ("chrome.json");
  g_autofree char *out = tl_tmp_path ("merged.pftrace");
  g_autoptr (JsonNode) events = NULL;
  g_autofree char *desc = NULL;
  g_autoptr (TlRun) back = NULL;
  g_autoptr (GArray) slices = NULL;
  gint64 sync_us = write_chrome_json (app, issue_before_us, &events);
  gint64 offset = SYNC_MARKER_NS - sync_us * TL_US;

  desc = sync_id_description (sys, app, out);
  back = merge_and_read_back (desc, out);
  check_decision (back, "sink_0", "boottime", "stream-start", 0);
  check_decision (back, "sink_1", "unknown", "sync-id", offset);
  g_assert_nonnull (tl_run_find (back, TRACE_MESSAGE_INFO, "m", "sink_1 (chrome-json, clock unknown): shifted by"));
  g_assert_cmpint (back->out_clock, ==, TRACE_CLOCK_BOOTTIME);

  slices = tl_slices_from_batch (back->events);
  g_assert_cmpuint (check_json_slices (events, slices, offset), ==, 7);
  /* the systrace stays where it was: its first frame (line 21 of the file) */
  find_slice (slices, 18926, 18926, "Choreographer#doFrame", G_GINT64_CONSTANT (683202115809000));
  g_test_message ("sync id %s: offset %" G_GINT64_FORMAT " ns (issue_ts %" G_GINT64_FORMAT " us before ts)",
                  SYNC_ID, offset, issue_before_us);
  tl_tmp_cleanup ();
}

/* trace-launch -v says the same to a user: the INFO line per input and
 * the output's clock source in the link summary. */
static void
test_sync_id_verbose (void)
{
  const char *launch = g_getenv ("TRACE_LAUNCH");
  g_autofree char *sys = NULL, *app = NULL, *out = NULL, *desc = NULL;
  g_autofree char *std_out = NULL, *std_err = NULL;
  g_autoptr (JsonNode) events = NULL;
  g_autoptr (GError) error = NULL;
  gint status;

  if (launch == NULL)
    {
      g_test_skip ("TRACE_LAUNCH is not set: run through meson test");
      return;
    }
  sys = write_systrace_with_sync_marker ();
  app = tl_tmp_path ("chrome.json");
  out = tl_tmp_path ("merged.pftrace");
  write_chrome_json (app, 0, &events);
  desc = sync_id_description (sys, app, out);
  {
    const char *argv[] = { launch, "-v", desc, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &std_out, &std_err, &status, &error);
  }
  g_assert_no_error (error);
  g_test_message ("stderr: %s", std_err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (std_err, "INFO: from /pipeline0/m: sink_0 (ftrace, clock boottime): not shifted"));
  /* 683201.500000 s (the marker line) − 260759.206050 s (the c event's ts) */
  g_assert_nonnull (strstr (std_err, "INFO: from /pipeline0/m: sink_1 (chrome-json, clock unknown): shifted by "
                                     "+422442.29395 s onto the boottime clock, from sync-id"));
  g_assert_nonnull (strstr (std_err, "sync id \"" SYNC_ID "\""));
  /* -v reports on stderr, like every status line */
  g_assert_nonnull (strstr (std_err, "sink_1 unknown +422442.29395 s (sync-id)"));
  g_assert_cmpstr (std_out, ==, "");
  tl_tmp_cleanup ();
}

/* ---- RheaTrace + systrace of the same app ---------------------------------- */

#define APP_PID 4321
#define WORKER_TID 4335
#define BOOT0_US G_GINT64_CONSTANT (52000000000)          /* 52000 s after boot */
#define BOOT_MINUS_MONO_US G_GINT64_CONSTANT (1234567890) /* 20 min suspended */

/* What happened in the app, in µs after BOOT0_US: the framework's atrace
 * slices (in the systrace) and the methods RheaTrace saw (one threw, its
 * caller caught it). */
typedef struct
{
  gboolean system; /* a systrace slice, else a RheaTrace method */
  gint64 tid;
  const char *name;
  gint64 begin_us;
  gint64 end_us;
  gboolean threw; /* ended by its own throw (T:) */
} AppSlice;

static const AppSlice app_slices[] = {
  { TRUE, APP_PID, "Choreographer#doFrame", 1000, 9000 },
  { TRUE, WORKER_TID, "binder transaction", 3000, 7000 },
  { TRUE, APP_PID, "Choreographer#doFrame", 17000, 25000 },
  { FALSE, APP_PID, "MainActivity:onDraw", 1100, 5000 },
  { FALSE, APP_PID, "ListView:layout", 1200, 2000 },
  { FALSE, APP_PID, "Loader:load", 5100, 8000 },
  { FALSE, APP_PID, "Parser:parse", 5200, 6000, TRUE },
  { FALSE, WORKER_TID, "Worker:fetch", 3100, 6900 },
  { FALSE, WORKER_TID, "Net:read", 3200, 6000 },
  { FALSE, APP_PID, "MainActivity:onDraw", 17100, 20000 },
};

typedef struct
{
  gint64 us;
  char *text;
} TimedLine;

static gint
timed_line_order (gconstpointer a,
                  gconstpointer b)
{
  const TimedLine *x = a, *y = b;

  return x->us < y->us ? -1 : x->us > y->us;
}

static void
timed_line_clear (gpointer p)
{
  g_free (((TimedLine *) p)->text);
}

static void
add_line (GArray *lines,
          gint64 us,
          char *text)
{
  TimedLine l = { us, text };

  g_array_append_val (lines, l);
}

/* Lines sorted by time (a stable sort keeps a begin before its end when
 * both are at one time), joined after @header. */
static void
write_sorted (const char *path,
              const char *header,
              GArray *lines,
              const char *footer)
{
  g_autoptr (GString) out = g_string_new (header);

  g_array_sort (lines, timed_line_order);
  for (guint i = 0; i < lines->len; i++)
    g_string_append (out, g_array_index (lines, TimedLine, i).text);
  g_string_append (out, footer);
  tl_write (path, out->str);
}

static GArray *
new_lines (void)
{
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (TimedLine));

  g_array_set_clear_func (lines, timed_line_clear);
  return lines;
}

/* btrace 1.x, all-threads form: `sec.usec tid: B|pid|B:Class:method` */
static void
write_rhea_capture (const char *path)
{
  g_autoptr (GArray) lines = new_lines ();
  g_autofree char *start = tl_format_us (BOOT0_US), *mono = tl_format_us (BOOT0_US - BOOT_MINUS_MONO_US);
  g_autofree char *header = g_strdup_printf ("512|TRACE_START|%" G_GINT64_FORMAT "|%d|2147483647|2|7\n"
                                             "%s %d: B|%d|monotonic_time: %s\n",
                                             BOOT0_US * TL_US, APP_PID, start, APP_PID, APP_PID, mono);
  g_autofree char *footer = g_strdup_printf ("513|TRACE_END|%" G_GINT64_FORMAT "|%d|2147483647|2|7\n",
                                             (BOOT0_US + 30000) * TL_US, APP_PID);

  for (guint i = 0; i < G_N_ELEMENTS (app_slices); i++)
    {
      const AppSlice *s = &app_slices[i];
      g_autofree char *b = tl_format_us (BOOT0_US + s->begin_us), *e = tl_format_us (BOOT0_US + s->end_us);

      if (s->system)
        continue;
      add_line (lines, s->begin_us, g_strdup_printf ("%s %" G_GINT64_FORMAT ": B|%d|B:%s\n", b, s->tid, APP_PID, s->name));
      add_line (lines, s->end_us, g_strdup_printf ("%s %" G_GINT64_FORMAT ": B|%d|%c:%s\n", e, s->tid, APP_PID, s->threw ? 'T' : 'E', s->name));
    }
  write_sorted (path, header, lines, footer);
}

/* The systrace's atrace lines, with TGID column, on @clock_offset_us
 * from boot time (−BOOT_MINUS_MONO_US: CLOCK_MONOTONIC). */
static void
write_app_systrace (const char *path,
                    const char *clock_header,
                    gint64 clock_offset_us)
{
  g_autoptr (GArray) lines = new_lines ();
  g_autofree char *header = g_strdup_printf ("# tracer: nop\n%s#\n"
                                             "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n",
                                             clock_header);

  for (guint i = 0; i < G_N_ELEMENTS (app_slices); i++)
    {
      const AppSlice *s = &app_slices[i];
      const char *task = s->tid == APP_PID ? "com.example.app" : "AsyncTask #1";
      g_autofree char *b = tl_format_us (BOOT0_US + s->begin_us + clock_offset_us);
      g_autofree char *e = tl_format_us (BOOT0_US + s->end_us + clock_offset_us);

      if (!s->system)
        continue;
      add_line (lines, s->begin_us, g_strdup_printf ("%16s-%-5" G_GINT64_FORMAT " (%5d) [001] ...1 %s: "
                                                     "tracing_mark_write: B|%d|%s\n",
                                                     task, s->tid, APP_PID, b, APP_PID, s->name));
      add_line (lines, s->end_us, g_strdup_printf ("%16s-%-5" G_GINT64_FORMAT " (%5d) [001] ...1 %s: "
                                                   "tracing_mark_write: E|%d\n",
                                                   task, s->tid, APP_PID, e, APP_PID));
    }
  write_sorted (path, header, lines, "");
}

/* Every slice of the table on the app's pid and its tid, at its time on
 * the output clock (@to_output_us: boot time → output clock); each method
 * inside the system slice of its thread that encloses it in truth. */
static void
check_app_slices (GArray *slices,
                  gint64 to_output_us)
{
  for (guint i = 0; i < G_N_ELEMENTS (app_slices); i++)
    {
      const AppSlice *s = &app_slices[i];
      const TlSlice *got = find_slice (slices, APP_PID, s->tid, s->name, (BOOT0_US + s->begin_us + to_output_us) * TL_US);

      g_assert_cmpint (got->end, ==, (BOOT0_US + s->end_us + to_output_us) * TL_US);
      g_assert_cmpstr (got->repair, ==, s->threw ? "exited-by-throw" : NULL);
      for (guint j = 0; j < G_N_ELEMENTS (app_slices) && !s->system; j++)
        {
          const AppSlice *sys = &app_slices[j];
          const TlSlice *outer;

          if (!sys->system || sys->tid != s->tid || sys->begin_us > s->begin_us || sys->end_us < s->end_us)
            continue;
          outer = find_slice (slices, APP_PID, sys->tid, sys->name, (BOOT0_US + sys->begin_us + to_output_us) * TL_US);
          g_assert_cmpint (outer->begin, <=, got->begin);
          g_assert_cmpint (outer->end, >=, got->end);
        }
    }
  g_assert_cmpuint (slices->len, ==, G_N_ELEMENTS (app_slices));
}

static char *
rhea_description (const char *rhea,
                  const char *sys,
                  const char *target,
                  const char *out)
{
  return g_strdup_printf ("clock-sync name=m target=%s ! perfetto-sink location=\"%s\"  "
                          "ftrace-src location=\"%s\" ! rhea-repair ! m.  ftrace-src location=\"%s\" ! m.",
                          target, out, rhea, sys);
}

/* The systrace on CLOCK_MONOTONIC (it says so: `# clock_type=`), the
 * output on boot time: the systrace moves by boot − mono, as the
 * RheaTrace `monotonic_time:` pair says. */
static void
test_rhea_and_monotonic_systrace (void)
{
  g_autofree char *rhea = tl_tmp_path ("rhea-atrace"), *sys = tl_tmp_path ("systrace.txt");
  g_autofree char *out = tl_tmp_path ("app.pftrace"), *desc = NULL;
  g_autoptr (TlRun) back = NULL;
  g_autoptr (GArray) slices = NULL;

  write_rhea_capture (rhea);
  write_app_systrace (sys, "# clock_type=LINUX_CLOCK_MONOTONIC\n", -BOOT_MINUS_MONO_US);
  desc = rhea_description (rhea, sys, "boottime", out);
  back = merge_and_read_back (desc, out);
  check_decision (back, "sink_0", "boottime", "stream-start", 0);
  check_decision (back, "sink_1", "monotonic", "clock-pair", BOOT_MINUS_MONO_US * TL_US);
  g_assert_cmpint (back->out_clock, ==, TRACE_CLOCK_BOOTTIME);
  slices = tl_slices_from_batch (back->events);
  check_app_slices (slices, 0);
  /* the monotonic input's clock, tied to the output's */
  check_clock_snapshot (back, TRACE_CLOCK_MONOTONIC, BOOT_MINUS_MONO_US * TL_US);
  tl_tmp_cleanup ();
}

/* Both on boot time, the output on CLOCK_MONOTONIC: everything moves by
 * mono − boot, and the Perfetto output, on a clock that is not boot time,
 * says so with a clock snapshot. */
static void
test_rhea_and_systrace_to_monotonic (void)
{
  g_autofree char *rhea = tl_tmp_path ("rhea-atrace"), *sys = tl_tmp_path ("systrace.txt");
  g_autofree char *out = tl_tmp_path ("app.pftrace"), *desc = NULL;
  g_autoptr (TlRun) back = NULL;
  g_autoptr (GArray) slices = NULL;

  write_rhea_capture (rhea);
  write_app_systrace (sys, "", 0);
  desc = rhea_description (rhea, sys, "monotonic", out);
  back = merge_and_read_back (desc, out);
  check_decision (back, "sink_0", "boottime", "clock-pair", -BOOT_MINUS_MONO_US * TL_US);
  check_decision (back, "sink_1", "boottime", "clock-pair", -BOOT_MINUS_MONO_US * TL_US);
  g_assert_cmpint (back->out_clock, ==, TRACE_CLOCK_MONOTONIC);
  slices = tl_slices_from_batch (back->events);
  check_app_slices (slices, -BOOT_MINUS_MONO_US);
  check_clock_snapshot (back, TRACE_CLOCK_BOOTTIME, -BOOT_MINUS_MONO_US * TL_US);
  tl_tmp_cleanup ();
}

/* ---- RheaTrace + a Perfetto system trace ------------------------------------ */

/* Encodes @text, a Trace in protobuf text format, with protoc and the
 * project's .proto files (an encoder that knows nothing of perfetto-sink)
 * into @path. */
static void
encode_textproto (const char *text,
                  const char *path)
{
  g_autoptr (GSubprocess) protoc = NULL;
  g_autoptr (GBytes) in = NULL, out = NULL;
  g_autoptr (GError) error = NULL;

  protoc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, PROTOC_PATH,
                             "--encode=perfetto.protos.Trace", "-I", PERFETTO_PROTO_DIR,
                             PERFETTO_PROTO_DIR "/trace.proto", NULL);
  g_assert_no_error (error);
  in = g_bytes_new (text, strlen (text));
  g_assert_true (g_subprocess_communicate (protoc, in, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_successful (protoc));
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (out, NULL), g_bytes_get_size (out), NULL));
}

/* The system side as Android's `perfetto` writes it: ftrace bundles on
 * boot time carrying the atrace markers as print events, and a process
 * tree naming the app's threads. Written here as protobuf text and
 * encoded by protoc with the project's .proto files, an encoder that knows
 * nothing of perfetto-sink. Returns: FALSE when protoc is not installed */
static gboolean
write_perfetto_system_trace (const char *path)
{
  g_autoptr (GArray) lines = new_lines ();
  g_autoptr (GString) text = g_string_new (NULL);

  if (PROTOC_PATH[0] == '\0')
    return FALSE;
  g_string_append_printf (text,
                          "packet {\n  trusted_packet_sequence_id: 1\n  process_tree {\n"
                          "    processes { pid: %d ppid: 1 cmdline: \"com.example.app\" }\n"
                          "    threads { tid: %d tgid: %d name: \"com.example.app\" }\n"
                          "    threads { tid: %d tgid: %d name: \"AsyncTask #1\" }\n  }\n}\n"
                          "packet {\n  trusted_packet_sequence_id: 1\n  ftrace_events {\n    cpu: 1\n",
                          APP_PID, APP_PID, APP_PID, WORKER_TID, APP_PID);
  for (guint i = 0; i < G_N_ELEMENTS (app_slices); i++)
    {
      const AppSlice *s = &app_slices[i];

      if (!s->system)
        continue;
      add_line (lines, s->begin_us,
                g_strdup_printf ("    event { timestamp: %" G_GINT64_FORMAT " pid: %" G_GINT64_FORMAT
                                 " print { ip: 0 buf: \"B|%d|%s\\n\" } }\n",
                                 (BOOT0_US + s->begin_us) * TL_US, s->tid, APP_PID, s->name));
      add_line (lines, s->end_us,
                g_strdup_printf ("    event { timestamp: %" G_GINT64_FORMAT " pid: %" G_GINT64_FORMAT
                                 " print { ip: 0 buf: \"E|%d\\n\" } }\n",
                                 (BOOT0_US + s->end_us) * TL_US, s->tid, APP_PID));
    }
  g_array_sort (lines, timed_line_order);
  for (guint i = 0; i < lines->len; i++)
    g_string_append (text, g_array_index (lines, TimedLine, i).text);
  g_string_append (text, "  }\n}\n");
  encode_textproto (text->str, path);
  return TRUE;
}

/* A RheaTrace capture merged with the Perfetto system
 * trace of the same device. Both are on boot time (the capture by its
 * TRACE_START line, the Perfetto trace by its ftrace clock): every method
 * lands on the app's pid and tid, inside the system slice that encloses
 * it in truth, with no shift. */
static void
test_rhea_and_perfetto_system_trace (void)
{
  g_autofree char *rhea = tl_tmp_path ("rhea-atrace"), *sys = tl_tmp_path ("system.pftrace");
  g_autofree char *out = tl_tmp_path ("app.pftrace"), *desc = NULL;
  g_autoptr (TlRun) back = NULL;
  g_autoptr (GArray) slices = NULL;

  if (!write_perfetto_system_trace (sys))
    {
      g_test_skip ("protoc is not installed (Debian: protobuf-compiler)");
      tl_tmp_cleanup ();
      return;
    }
  write_rhea_capture (rhea);
  desc = g_strdup_printf ("clock-sync name=m target=boottime ! perfetto-sink location=\"%s\"  "
                          "ftrace-src location=\"%s\" ! rhea-repair ! m.  perfetto-src location=\"%s\" ! m.",
                          out, rhea, sys);
  back = merge_and_read_back (desc, out);
  check_decision (back, "sink_0", "boottime", "stream-start", 0);
  check_decision (back, "sink_1", "boottime", "stream-start", 0);
  g_assert_cmpint (back->out_clock, ==, TRACE_CLOCK_BOOTTIME);
  slices = tl_slices_from_batch (back->events);
  check_app_slices (slices, 0);
  tl_tmp_cleanup ();
}

/* ---- ArkTS CPU profile + systrace, explicit offset -------------------------- */

#define PROFILE_TID 1394
#define ARKTS_OFFSET_NS G_GINT64_CONSTANT (90123456789) /* sink_1::offset= */

typedef struct
{
  const char *name;
  gint64 begin_us; /* on the profile's clock (monotonic µs) */
} ProfileRun;

/* The profile as a reader of the file sees it: sample i is at startTime
 * + the sum of timeDeltas[0..i]; consecutive samples of one node are one
 * slice of that node's function, from its first sample on. */
static GArray *
profile_runs (void)
{
  g_autofree char *text = read_text (ARKTS_DATA ("ohos_ts_ut_js_cpu_profiler_results.jsonl"));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (JsonParser) parser = json_parser_new ();
  GArray *runs = g_array_new (FALSE, FALSE, sizeof (ProfileRun));
  JsonObject *profile, *result;
  JsonArray *nodes, *samples, *deltas;
  gint64 t, last_node = -1;

  /* line 2 holds the profile (line 1 starts the profiler, line 3 is a
   * result without one) */
  g_assert_true (json_parser_load_from_data (parser, lines[1], -1, NULL));
  result = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "result");
  profile = json_object_get_object_member (result, "profile");
  g_assert_cmpint (json_object_get_int_member (profile, "tid"), ==, PROFILE_TID);
  nodes = json_object_get_array_member (profile, "nodes");
  samples = json_object_get_array_member (profile, "samples");
  deltas = json_object_get_array_member (profile, "timeDeltas");
  t = json_object_get_int_member (profile, "startTime");
  for (guint i = 0; i < json_array_get_length (samples); i++)
    {
      gint64 node = json_array_get_int_element (samples, i);

      t += json_array_get_int_element (deltas, i);
      if (node == last_node)
        continue;
      last_node = node;
      for (guint n = 0; n < json_array_get_length (nodes); n++)
        {
          JsonObject *o = json_array_get_object_element (nodes, n);
          ProfileRun r = { NULL, t };

          if (json_object_get_int_member (o, "id") != node)
            continue;
          r.name = g_intern_string (json_object_get_string_member (json_object_get_object_member (o, "callFrame"),
                                                                   "functionName"));
          g_array_append_val (runs, r);
        }
    }
  return runs;
}

/* The systrace's slice begins 100 µs before the profile's first sample,
 * once that is on boot time. */
static gint64
system_slice_begin_us (GArray *runs)
{
  return g_array_index (runs, ProfileRun, 0).begin_us + ARKTS_OFFSET_NS / TL_US - 100;
}

/* The app's own systrace on boot time: its main thread (tid 1394 = pid). */
static void
write_ohos_systrace (const char *path,
                     GArray *runs)
{
  gint64 begin_us = system_slice_begin_us (runs);
  g_autofree char *b = tl_format_us (begin_us), *e = tl_format_us (begin_us + 5000);
  g_autofree char *text = g_strdup_printf ("# tracer: nop\n#\n"
                                           "  com.ohos.music-%d  (%5d) [000] ...1 %s: tracing_mark_write: B|%d|H:onPageShow\n"
                                           "  com.ohos.music-%d  (%5d) [000] ...1 %s: tracing_mark_write: E|%d\n",
                                           PROFILE_TID, PROFILE_TID, b, PROFILE_TID, PROFILE_TID, PROFILE_TID, e,
                                           PROFILE_TID);

  tl_write (path, text);
}

static void
test_arkts_with_offset (void)
{
  g_autofree char *sys = tl_tmp_path ("hitrace.txt"), *out = tl_tmp_path ("music.pftrace"), *desc = NULL;
  g_autoptr (GArray) runs = profile_runs ();
  g_autoptr (TlRun) back = NULL;
  g_autoptr (GArray) slices = NULL;

  write_ohos_systrace (sys, runs);
  desc = g_strdup_printf ("clock-sync name=m sink_1::offset=%" G_GINT64_FORMAT " ! perfetto-sink location=\"%s\"  "
                          "ftrace-src location=\"%s\" ! m.  arkts-src location=\"%s\" ! m.",
                          ARKTS_OFFSET_NS, out, sys, ARKTS_DATA ("ohos_ts_ut_js_cpu_profiler_results.jsonl"));
  back = merge_and_read_back (desc, out);
  check_decision (back, "sink_0", "boottime", "stream-start", 0);
  check_decision (back, "sink_1", "monotonic", "offset-property", ARKTS_OFFSET_NS);
  slices = tl_slices_from_batch (back->events);
  /* every run of samples, moved by exactly the offset, on the thread of
   * the app's main thread in the systrace; each ends where the next
   * begins */
  for (guint i = 0; i < runs->len; i++)
    {
      const ProfileRun *r = &g_array_index (runs, ProfileRun, i);
      const TlSlice *s = find_slice (slices, PROFILE_TID, PROFILE_TID, r->name, r->begin_us * TL_US + ARKTS_OFFSET_NS);

      if (i + 1 < runs->len)
        g_assert_cmpint (s->end, ==, g_array_index (runs, ProfileRun, i + 1).begin_us * TL_US + ARKTS_OFFSET_NS);
    }
  g_assert_cmpuint (runs->len, ==, 6);
  /* the systrace's slice stays where it was written */
  find_slice (slices, PROFILE_TID, PROFILE_TID, "H:onPageShow", system_slice_begin_us (runs) * TL_US);
  /* the profile's clock, tied to the output's by the offset */
  check_clock_snapshot (back, TRACE_CLOCK_MONOTONIC, ARKTS_OFFSET_NS);
  tl_tmp_cleanup ();
}

/* The ArkTS profile merged with a Perfetto system trace
 * of the device, through the boot-time/monotonic pair its clock snapshot
 * carries (no offset given): every run of samples moved by that pair's
 * difference, the system's slice where the trace put it. The trace is
 * encoded here by protoc from the project's own .proto subset. */
static gboolean
write_perfetto_trace_with_snapshot (const char *path,
                                    GArray *runs)
{
  gint64 mono = (g_array_index (runs, ProfileRun, 0).begin_us - 1000) * TL_US;
  gint64 begin = system_slice_begin_us (runs) * TL_US;
  g_autofree char *text = g_strdup_printf (
      "packet { timestamp: %" G_GINT64_FORMAT " clock_snapshot {"
      " clocks { clock_id: 6 timestamp: %" G_GINT64_FORMAT " } clocks { clock_id: 3 timestamp: %" G_GINT64_FORMAT " } } }\n"
      "packet { ftrace_events { cpu: 0\n"
      "  event { timestamp: %" G_GINT64_FORMAT " pid: %d print { ip: 0 buf: \"B|%d|H:onPageShow\\n\" } }\n"
      "  event { timestamp: %" G_GINT64_FORMAT " pid: %d print { ip: 0 buf: \"E|%d\\n\" } } } }\n",
      mono + ARKTS_OFFSET_NS, mono + ARKTS_OFFSET_NS, mono, begin, PROFILE_TID, PROFILE_TID, begin + 5000 * TL_US,
      PROFILE_TID, PROFILE_TID);

  if (PROTOC_PATH[0] == '\0')
    return FALSE;
  encode_textproto (text, path);
  return TRUE;
}

static void
test_arkts_and_perfetto_clock_pair (void)
{
  g_autofree char *sys = tl_tmp_path ("device.pftrace"), *out = tl_tmp_path ("music.pftrace"), *desc = NULL;
  g_autoptr (GArray) runs = profile_runs ();
  g_autoptr (TlRun) back = NULL;
  g_autoptr (GArray) slices = NULL;

  if (!write_perfetto_trace_with_snapshot (sys, runs))
    {
      g_test_skip ("protoc is not installed (Debian: protobuf-compiler)");
      tl_tmp_cleanup ();
      return;
    }
  desc = g_strdup_printf ("clock-sync name=m target=boottime ! perfetto-sink location=\"%s\"  "
                          "perfetto-src location=\"%s\" ! m.  arkts-src location=\"%s\" ! m.",
                          out, sys, ARKTS_DATA ("ohos_ts_ut_js_cpu_profiler_results.jsonl"));
  back = merge_and_read_back (desc, out);
  check_decision (back, "sink_0", "boottime", "stream-start", 0);
  check_decision (back, "sink_1", "monotonic", "clock-pair", ARKTS_OFFSET_NS);
  slices = tl_slices_from_batch (back->events);
  for (guint i = 0; i < runs->len; i++)
    {
      const ProfileRun *r = &g_array_index (runs, ProfileRun, i);

      find_slice (slices, PROFILE_TID, PROFILE_TID, r->name, r->begin_us * TL_US + ARKTS_OFFSET_NS);
    }
  g_assert_cmpuint (runs->len, ==, 6);
  find_slice (slices, PROFILE_TID, PROFILE_TID, "H:onPageShow", system_slice_begin_us (runs) * TL_US);
  tl_tmp_cleanup ();
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  test_register_collect_sink ();
  g_test_add_data_func ("/timeline/clock-sync/sync-id", GINT_TO_POINTER (0), test_sync_id);
  g_test_add_data_func ("/timeline/clock-sync/sync-id-issue-ts", GINT_TO_POINTER (80), test_sync_id);
  g_test_add_func ("/timeline/clock-sync/sync-id-verbose", test_sync_id_verbose);
  g_test_add_func ("/timeline/clock-sync/rhea-and-monotonic-systrace", test_rhea_and_monotonic_systrace);
  g_test_add_func ("/timeline/clock-sync/rhea-and-systrace-to-monotonic", test_rhea_and_systrace_to_monotonic);
  g_test_add_func ("/timeline/clock-sync/rhea-and-perfetto-system-trace", test_rhea_and_perfetto_system_trace);
  g_test_add_func ("/timeline/clock-sync/arkts-with-offset", test_arkts_with_offset);
  g_test_add_func ("/timeline/clock-sync/arkts-and-perfetto-clock-pair", test_arkts_and_perfetto_clock_pair);
  return g_test_run ();
}
