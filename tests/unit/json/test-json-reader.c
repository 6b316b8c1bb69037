/* tracepipe - json plugin tests: the reader on hand-made inputs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each input is written here, so the expected events and offsets are read
 * off the input text itself.
 */
#include "config.h"

#include <string.h>

#include "json-test-util.h"

typedef struct
{
  TraceStringPool *pool;
  ChromeReader *reader;
  TraceBatch *batch;
  GError *error;
} Read;

static void
read_text (Read *rd,
           const char *text)
{
  rd->pool = trace_string_pool_new ();
  rd->error = NULL;
  rd->batch = test_read_data (text, -1, "t.json", rd->pool, &rd->reader, &rd->error);
}

/* gzip is undone before the reader, as TraceFileSrc does */
static void
read_gzip (Read *rd,
           const char *data,
           gsize len)
{
  rd->pool = trace_string_pool_new ();
  rd->error = NULL;
  rd->batch = test_read_gzip_data (data, len, "t.json", rd->pool, &rd->reader, &rd->error);
}

static void
read_clear (Read *rd)
{
  trace_batch_unref (rd->batch);
  chrome_reader_free (rd->reader);
  trace_string_pool_unref (rd->pool);
  g_clear_error (&rd->error);
}

static guint64
offset_of (const char *text,
           const char *needle)
{
  const char *hit = strstr (text, needle);

  g_assert_nonnull (hit);
  return hit - text;
}

static const ChromeSkipCount *
skipped (Read *rd,
         ChromeSkipReason reason)
{
  return &chrome_reader_get_stats (rd->reader)->skipped[reason];
}

/* ------------------------------------------------------------------ */
/* Inputs that are not a Chrome trace: an error naming file and offset */

static void
check_error (const char *text,
             gint code,
             const char *message)
{
  Read rd;

  read_text (&rd, text);
  g_assert_error (rd.error, TRACE_STREAM_ERROR, code);
  g_assert_cmpstr (rd.error->message, ==, message);
  g_assert_cmpuint (rd.batch->n_events, ==, 0);
  read_clear (&rd);
}

static void
test_bad_input (void)
{
  g_autofree char *open62 = g_strnfill (62, '['), *close62 = g_strnfill (62, ']');
  g_autofree char *open64 = g_strnfill (64, '['), *close64 = g_strnfill (64, ']');
  g_autofree char *deep = NULL;
  g_autofree char *deep_skip = NULL;
  g_autofree char *message = NULL;

  check_error ("", TRACE_STREAM_ERROR_EMPTY, "t.json: byte 0: the input is empty");
  check_error ("  \n\t", TRACE_STREAM_ERROR_EMPTY, "t.json: byte 4: the input is empty");
  check_error ("hello", TRACE_STREAM_ERROR_WRONG_TYPE,
               "t.json: byte 0: not a JSON trace: it starts with 'h', not '[' or '{'");
  check_error ("\x89PNG\r\n", TRACE_STREAM_ERROR_WRONG_TYPE,
               "t.json: byte 0: not a JSON trace: it starts with byte 0x89, not '[' or '{'");
  check_error ("{hello}", TRACE_STREAM_ERROR_WRONG_TYPE,
               "t.json: byte 1: not JSON: expected a key string");
  check_error ("  {\"a\": 1, \"b\": [1, {\"c\": 2}]}", TRACE_STREAM_ERROR_WRONG_TYPE,
               "t.json: byte 2: JSON is not a Chrome trace: the top-level object has no \"traceEvents\" array");
  check_error ("{\"nodes\":[],\"samples\":[],\"timeDeltas\":[]}", TRACE_STREAM_ERROR_WRONG_TYPE,
               "t.json: byte 0: JSON is not a Chrome trace: its top-level object has a \"nodes\" key"
               " (a V8 CPU profile or heap snapshot?)");
  check_error ("[1, 2, 3]", TRACE_STREAM_ERROR_WRONG_TYPE,
               "t.json: byte 1: JSON is not a Chrome trace: the top-level array holds a number, not event objects");
  check_error ("[{\"a\": 1}, {\"b\": 2}]", TRACE_STREAM_ERROR_WRONG_TYPE,
               "t.json: byte 0: JSON is not a Chrome trace: no element of the top-level array has a \"ph\" key");
  check_error ("{\"traceEvents\": {}}", TRACE_STREAM_ERROR_FORMAT,
               "t.json: byte 16: \"traceEvents\" is not an array");
  check_error ("{\"metadata\": {\"a\": 1}", TRACE_STREAM_ERROR_WRONG_TYPE,
               "t.json: byte 0: JSON is not a Chrome trace: the input ends before a \"traceEvents\" array");
  check_error ("{\"traceEvents\": [] \"x\": 1}", TRACE_STREAM_ERROR_FORMAT,
               "t.json: byte 19: the top-level object is broken: expected ',' or '}'");

  /* 64 levels are the limit: the 65th bracket is refused, in an event
   * ([ → 1, event → 2, args → 3, then 61 more) and in a skipped value */
  deep = g_strdup_printf ("[{\"ph\":\"i\",\"ts\":1,\"args\":{\"a\":%s%s}}]", open62, close62);
  message = g_strdup_printf ("t.json: byte %d: nesting deeper than 64 levels",
                             (int) strlen ("[{\"ph\":\"i\",\"ts\":1,\"args\":{\"a\":") + 61);
  check_error (deep, TRACE_STREAM_ERROR_TOO_LARGE, message);
  g_free (message);
  deep_skip = g_strdup_printf ("{\"x\":%s%s,\"traceEvents\":[]}", open64, close64);
  message = g_strdup_printf ("t.json: byte %d: nesting deeper than 64 levels", 5 + 63);
  check_error (deep_skip, TRACE_STREAM_ERROR_TOO_LARGE, message);
}

/* 63 levels are fine. */
static void
test_deep_but_allowed (void)
{
  g_autofree char *open = g_strnfill (60, '[');
  g_autofree char *close = g_strnfill (60, ']');
  g_autofree char *text = g_strdup_printf ("[{\"ph\":\"i\",\"ts\":1,\"args\":{\"a\":%s7%s}}]", open, close);
  g_autofree char *key = NULL;
  Read rd;

  read_text (&rd, text);
  g_assert_no_error (rd.error);
  g_assert_cmpuint (rd.batch->n_events, ==, 1);
  key = g_strdup ("a");
  for (int i = 0; i < 60; i++)
    {
      char *next = g_strconcat (key, "[0]", NULL);

      g_free (key);
      key = next;
    }
  g_assert_cmpint (test_arg (rd.batch, &rd.batch->events[0], key)->v.i, ==, 7);
  read_clear (&rd);
}

static void
test_gzip_garbage (void)
{
  static const char garbage[] = "\x1f\x8b\x08\x00garbage that is not deflate data at all";
  Read rd;

  read_gzip (&rd, garbage, sizeof garbage - 1);
  g_assert_error (rd.error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_DECODE);
  g_assert_true (g_str_has_prefix (rd.error->message, "t.json: byte 0: cannot decompress: "));
  read_clear (&rd);
}

/* ------------------------------------------------------------------ */
/* Damage inside a trace: counted with offsets, not fatal              */

static void
test_truncated (void)
{
  const char *texts[] = {
    "[{\"ph\":\"B\",\"ts\":1,\"pid\":1,\"tid\":1,\"name\":\"a\"},\n{\"ph\":\"E\",\"ts\":2,\"pi",
    "{\"traceEvents\":[{\"ph\":\"B\",\"ts\":1,\"pid\":1,\"tid\":1,\"name\":\"a\"},\n{\"ph\":\"E\",\"ts\"",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      Read rd;

      read_text (&rd, texts[i]);
      g_assert_no_error (rd.error);
      g_assert_cmpuint (rd.batch->n_events, ==, 1);
      g_assert_cmpstr (test_str (rd.batch, rd.batch->events[0].name), ==, "a");
      g_assert_cmpuint (skipped (&rd, CHROME_SKIP_TRUNCATED)->count, ==, 1);
      g_assert_cmpuint (skipped (&rd, CHROME_SKIP_TRUNCATED)->offsets[0], ==,
                        offset_of (texts[i], "{\"ph\":\"E\""));
      read_clear (&rd);
    }
}

/* Trailing commas inside objects and arrays; {} placeholders. */
static void
test_lenient (void)
{
  const char *text =
      "[{},\n{\"ph\":\"X\",\"ts\":1,\"dur\":2,\"pid\":1,\"tid\":1,\"name\":\"x\","
      "\"args\":{\"a\":1,\"l\":[1,2,],},},\n{}\n]";
  g_autofree char *unsupported = NULL;
  Read rd;

  read_text (&rd, text);
  g_assert_no_error (rd.error);
  g_assert_cmpuint (rd.batch->n_events, ==, 1);
  g_assert_cmpint (test_arg (rd.batch, &rd.batch->events[0], "a")->v.i, ==, 1);
  g_assert_cmpint (test_arg (rd.batch, &rd.batch->events[0], "l[1]")->v.i, ==, 2);
  g_assert_cmpuint (chrome_reader_get_stats (rd.reader)->empty_objects, ==, 2);
  g_assert_false (chrome_reader_has_damage (rd.reader));
  g_assert_null (chrome_reader_get_summary (rd.reader, FALSE));
  /* not damage, but counted and said */
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_EMPTY_OBJECT)->count, ==, 2);
  unsupported = chrome_reader_get_unsupported_summary (rd.reader);
  g_assert_cmpstr (unsupported, ==, "t.json: skipped 2: 2 empty object (at byte 1, 87)");
  read_clear (&rd);
}

static void
test_damage (void)
{
  const char *text =
      "[{\"ph\":\"i\",\"ts\":1,\"name\":\"one\"}, 42, \"str\",\n"
      "{\"ph\":\"i\",\"ts\":2 \"name\":\"broken\"},\n"
      "{\"ph\":\"i\",\"ts\":3,\"name\":\"two\"}{\"ph\":\"i\",\"ts\":4,\"name\":\"three\"},\n"
      "{\"ph\":\"Q\",\"ts\":5}, {\"ts\":6}, {\"ph\":\"i\",\"ts\":\"abc\"}, {\"ph\":\"X\",\"ts\":7},\n"
      "{\"ph\":\"b\",\"ts\":8,\"name\":\"noid\"}, {\"ph\":\"i\",\"ts\":9,\"s\":\"x\"},\n"
      "{\"ph\":\"i\",\"ts\":10,\"name\":\"four\"}] trailing";
  g_autofree char *summary = NULL;
  g_autofree char *expected = NULL;
  Read rd;

  read_text (&rd, text);
  g_assert_no_error (rd.error);
  g_assert_cmpuint (rd.batch->n_events, ==, 4);
  g_assert_cmpstr (test_str (rd.batch, rd.batch->events[0].name), ==, "one");
  g_assert_cmpstr (test_str (rd.batch, rd.batch->events[1].name), ==, "two");
  g_assert_cmpstr (test_str (rd.batch, rd.batch->events[2].name), ==, "three");
  g_assert_cmpstr (test_str (rd.batch, rd.batch->events[3].name), ==, "four");
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_NOT_AN_OBJECT)->count, ==, 2);
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_NOT_AN_OBJECT)->offsets[0], ==, offset_of (text, "42"));
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_NOT_AN_OBJECT)->offsets[1], ==, offset_of (text, "\"str\""));
  /* the broken event, and the missing comma before "three" */
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_MALFORMED)->count, ==, 2);
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_MALFORMED)->offsets[0], ==, offset_of (text, "\"name\":\"broken\""));
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_MALFORMED)->offsets[1], ==, offset_of (text, "{\"ph\":\"i\",\"ts\":4"));
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_UNKNOWN_PHASE)->offsets[0], ==, offset_of (text, "{\"ph\":\"Q\""));
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_NO_PHASE)->offsets[0], ==, offset_of (text, "{\"ts\":6}"));
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_BAD_TIMESTAMP)->offsets[0], ==, offset_of (text, "{\"ph\":\"i\",\"ts\":\"abc\""));
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_BAD_DURATION)->offsets[0], ==, offset_of (text, "{\"ph\":\"X\""));
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_BAD_ID)->offsets[0], ==, offset_of (text, "{\"ph\":\"b\""));
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_BAD_SCOPE)->offsets[0], ==, offset_of (text, "{\"ph\":\"i\",\"ts\":9"));
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_TRAILING_DATA)->offsets[0], ==, offset_of (text, "trailing"));
  g_assert_true (chrome_reader_has_damage (rd.reader));
  summary = chrome_reader_get_summary (rd.reader, FALSE);
  expected = g_strdup_printf (
      "t.json: skipped 11: 2 malformed (at byte %d, %d), 2 not an object (at byte %d, %d), "
      "1 no phase (at byte %d), 1 unknown phase (at byte %d), 1 bad timestamp (at byte %d), "
      "1 bad duration (at byte %d), 1 bad id (at byte %d), 1 bad scope (at byte %d), "
      "1 trailing data (at byte %d)",
      (int) offset_of (text, "\"name\":\"broken\""), (int) offset_of (text, "{\"ph\":\"i\",\"ts\":4"),
      (int) offset_of (text, "42"), (int) offset_of (text, "\"str\""), (int) offset_of (text, "{\"ts\":6}"),
      (int) offset_of (text, "{\"ph\":\"Q\""), (int) offset_of (text, "{\"ph\":\"i\",\"ts\":\"abc\""),
      (int) offset_of (text, "{\"ph\":\"X\""), (int) offset_of (text, "{\"ph\":\"b\""),
      (int) offset_of (text, "{\"ph\":\"i\",\"ts\":9"), (int) offset_of (text, "trailing"));
  g_assert_cmpstr (summary, ==, expected);
  read_clear (&rd);
}

/* Object snapshots (O, N, D), contexts and marks are carried as Chrome
 * phase events: phase, id as given, scope, thread time, args. Memory
 * dumps (v, V) and other metadata are valid input the model has no
 * place for: counted, but not damage. */
static void
test_unsupported (void)
{
  const TraceEvent *ev;
  Read rd;

  read_text (&rd, "[{\"ph\":\"O\",\"ts\":1,\"tts\":0.5,\"id\":\"0x1f\",\"scope\":\"cc\",\"name\":\"Layer\","
                  "\"pid\":1,\"tid\":2,\"args\":{\"snapshot\":{\"n\":3}}},"
                  "{\"ph\":\"N\",\"ts\":1,\"id2\":{\"local\":\"0x2\"}},{\"ph\":\"D\",\"ts\":2},"
                  "{\"ph\":\"v\",\"ts\":3,\"args\":{\"dumps\":{}}},"
                  "{\"ph\":\"M\",\"name\":\"num_cpus\",\"args\":{\"number\":8}}]");
  g_assert_no_error (rd.error);
  g_assert_cmpuint (rd.batch->n_events, ==, 3);
  ev = &rd.batch->events[0];
  g_assert_cmpint (ev->kind, ==, TRACE_EVENT_CHROME_PHASE);
  g_assert_cmpint (ev->u.chrome_phase.phase, ==, 'O');
  g_assert_cmpint (ev->u.chrome_phase.id_kind, ==, TRACE_CHROME_ID_UNSCOPED);
  g_assert_cmpuint (ev->u.chrome_phase.id, ==, 0x1f);
  g_assert_cmpstr (trace_string_pool_get (rd.batch->pool, ev->u.chrome_phase.scope), ==, "cc");
  g_assert_cmpint (trace_event_get_thread_ts (ev), ==, 500);
  g_assert_cmpint (ev->pid, ==, 1);
  g_assert_cmpint (ev->tid, ==, 2);
  g_assert_cmpuint (ev->n_args, ==, 1);
  ev = &rd.batch->events[1];
  g_assert_cmpint (ev->u.chrome_phase.phase, ==, 'N');
  g_assert_cmpint (ev->u.chrome_phase.id_kind, ==, TRACE_CHROME_ID_LOCAL);
  g_assert_cmpuint (ev->u.chrome_phase.id, ==, 2);
  g_assert_cmpint (trace_event_get_thread_ts (ev), ==, -1);
  ev = &rd.batch->events[2];
  g_assert_cmpint (ev->u.chrome_phase.phase, ==, 'D');
  g_assert_cmpint (ev->u.chrome_phase.id_kind, ==, TRACE_CHROME_ID_NONE);
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_UNSUPPORTED_PHASE)->count, ==, 1);
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_OTHER_METADATA)->count, ==, 1);
  g_assert_false (chrome_reader_has_damage (rd.reader));
  g_assert_null (chrome_reader_get_summary (rd.reader, FALSE));
  read_clear (&rd);
}

/* Perfetto's T without an id is a thread state: the state is its name,
 * with its duration and args; with an id it is a legacy async step; with
 * neither an id nor a duration it has no meaning (trace_processor
 * rejects it). */
static void
test_thread_states (void)
{
  const TraceEvent *ev;
  Read rd;

  read_text (&rd, "[{\"ph\":\"T\",\"ts\":3,\"dur\":4.5,\"name\":\"Running\",\"cat\":\"thread_state\",\"pid\":1,"
                  "\"tid\":2,\"args\":{\"cpu\":1}},"
                  "{\"ph\":\"T\",\"ts\":8,\"dur\":1,\"name\":\"D\",\"pid\":1,\"tid\":2,"
                  "\"args\":{\"io_wait\":1,\"blocked_function\":\"f\"}},"
                  "{\"ph\":\"T\",\"ts\":9,\"id\":\"0x1\",\"name\":\"step\",\"pid\":1,\"tid\":2},"
                  "{\"ph\":\"T\",\"ts\":9,\"name\":\"neither\",\"pid\":1,\"tid\":2}]");
  g_assert_no_error (rd.error);
  g_assert_cmpuint (rd.batch->n_events, ==, 3);
  ev = &rd.batch->events[0];
  g_assert_cmpint (ev->kind, ==, TRACE_EVENT_THREAD_STATE);
  g_assert_cmpint (ev->ts, ==, 3000);
  g_assert_cmpint (ev->u.thread_state.dur, ==, 4500);
  g_assert_cmpint (ev->tid, ==, 2);
  g_assert_cmpstr (trace_batch_get_string (rd.batch, ev->name), ==, "Running");
  g_assert_cmpint (trace_batch_find_arg (rd.batch, ev, trace_string_pool_intern (rd.batch->pool, "cpu"))->v.i, ==, 1);
  ev = &rd.batch->events[1];
  g_assert_cmpint (ev->kind, ==, TRACE_EVENT_THREAD_STATE);
  g_assert_cmpuint (ev->n_args, ==, 2);
  g_assert_cmpint (rd.batch->events[2].kind, ==, TRACE_EVENT_ASYNC_STEP);
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_BAD_ID)->count, ==, 1);
  read_clear (&rd);
}

/* ------------------------------------------------------------------ */
/* Typing of pids, tids, timestamps and ids                            */

/* String pids and tids as trace_processor reads them: any string is a
 * name with a made-up id ("1" is not tid 1), the same for the same string;
 * a process_name/thread_name of a string id is kept only if no event of
 * the id comes at its time or later, and then comes at the end. */
static void
test_string_ids (void)
{
  const char *text =
      "{\"traceEvents\":["
      "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":7,\"tid\":\"-1\",\"args\":{\"name\":\"app\"}},"
      "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":7,\"tid\":\"abc\",\"args\":{\"name\":\"meta-abc\"}},"
      "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":7,\"tid\":\"only\",\"args\":{\"name\":\"meta-only\"}},"
      "{\"ph\":\"X\",\"name\":\"x1\",\"ts\":1,\"dur\":2,\"pid\":7,\"tid\":\"abc\"},"
      "{\"ph\":\"X\",\"name\":\"x2\",\"ts\":1,\"dur\":2,\"pid\":7,\"tid\":\"1\"},"
      "{\"ph\":\"X\",\"name\":\"x3\",\"ts\":1,\"dur\":2,\"pid\":7,\"tid\":1},"
      "{\"ph\":\"X\",\"name\":\"x4\",\"ts\":2,\"dur\":2,\"pid\":7,\"tid\":\"late\"},"
      "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":7,\"tid\":\"late\",\"ts\":10,\"args\":{\"name\":\"meta-late\"}},"
      "{\"ph\":\"X\",\"name\":\"x5\",\"ts\":3,\"dur\":1,\"pid\":7,\"tid\":\"late\"},"
      "{\"ph\":\"X\",\"name\":\"x6\",\"ts\":5,\"dur\":2,\"pid\":\"proc\",\"tid\":3},"
      "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":\"proc\",\"tid\":3,\"args\":{\"name\":\"meta-proc\"}},"
      "{\"ph\":\"Q\",\"name\":\"x7\",\"ts\":6,\"pid\":7,\"tid\":\"unknown-phase\"},"
      "{\"ph\":\"X\",\"name\":\"x8\",\"ts\":7,\"dur\":1,\"pid\":\"proc\",\"tid\":\"proc\"}],"
      "\"samples\":[{\"ts\":8,\"pid\":7,\"tid\":\"sampled\",\"sf\":1},"
      "{\"ts\":9,\"pid\":7,\"tid\":\"only\",\"sf\":1}],"
      "\"stackFrames\":{\"1\":{\"name\":\"f\"}}}";
  static const struct
  {
    TraceEventKind kind;
    gint64 ts, pid, tid;
    const char *name;
  } names[] = {
    { TRACE_EVENT_THREAD_NAME, 0, 7, 1809317173, "-1" },
    { TRACE_EVENT_PROCESS_NAME, 0, 7, 1809317173, "app" },
    { TRACE_EVENT_THREAD_NAME, 0, 7, 1497358113, "abc" },
    { TRACE_EVENT_THREAD_NAME, 0, 7, 1984372838, "only" },
    { TRACE_EVENT_THREAD_NAME, 1000, 7, 2072980420, "1" },
    { TRACE_EVENT_THREAD_NAME, 2000, 7, 1097068215, "late" },
    { TRACE_EVENT_PROCESS_NAME, 5000, 1627246673, 3, "proc" },
    { TRACE_EVENT_THREAD_NAME, 6000, 7, 1171214965, "unknown-phase" },
    { TRACE_EVENT_THREAD_NAME, 7000, 1627246673, 1627246673, "proc" },
    { TRACE_EVENT_THREAD_NAME, 8000, 7, 1972249951, "sampled" },
    /* held back to the end, in file order */
    { TRACE_EVENT_THREAD_NAME, 0, 7, 1984372838, "meta-only" },
    { TRACE_EVENT_THREAD_NAME, 10000, 7, 1097068215, "meta-late" },
  };
  guint n = 0;
  Read rd;

  read_text (&rd, text);
  g_assert_no_error (rd.error);
  for (guint i = 0; i < rd.batch->n_events; i++)
    {
      const TraceEvent *ev = &rd.batch->events[i];

      if (ev->kind != TRACE_EVENT_THREAD_NAME && ev->kind != TRACE_EVENT_PROCESS_NAME)
        continue;
      g_assert_cmpuint (n, <, G_N_ELEMENTS (names));
      g_assert_cmpint (ev->kind, ==, names[n].kind);
      g_assert_cmpint (ev->ts, ==, names[n].ts);
      g_assert_cmpint (ev->pid, ==, names[n].pid);
      g_assert_cmpint (ev->tid, ==, names[n].tid);
      g_assert_cmpstr (test_str (rd.batch, ev->name), ==, names[n].name);
      n++;
    }
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (names));
  /* "1" and 1 are two threads */
  g_assert_cmpint (test_find (rd.batch, TRACE_EVENT_SLICE_COMPLETE, "x2", 0)->tid, ==, 2072980420);
  g_assert_cmpint (test_find (rd.batch, TRACE_EVENT_SLICE_COMPLETE, "x3", 0)->tid, ==, 1);
  /* meta-abc (an event of "abc" at its time or later), meta-proc (ts 0,
   * before the event of "proc" read earlier) */
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_NAME_OVERRIDDEN)->count, ==, 2);
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_NAME_OVERRIDDEN)->offsets[0], ==, offset_of (text, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":7,\"tid\":\"abc\""));
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_NAME_OVERRIDDEN)->offsets[1], ==, offset_of (text, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":\"proc\""));
  /* an event of an unknown phase names its string thread all the same
   * (trace_processor does so before it looks at the phase) */
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_UNKNOWN_PHASE)->count, ==, 1);
  read_clear (&rd);
}

static void
test_pids_and_tids (void)
{
  const char *text =
      "[{\"ph\":\"i\",\"ts\":1,\"pid\":\"Browser\",\"tid\":\"Main\",\"name\":\"a\"},"
      "{\"ph\":\"i\",\"ts\":2,\"pid\":\"Browser\",\"tid\":\"Main\",\"name\":\"b\"},"
      "{\"ph\":\"i\",\"ts\":3,\"pid\":140229393893120,\"tid\":-5,\"name\":\"c\"},"
      "{\"ph\":\"i\",\"ts\":4,\"pid\":12.7,\"name\":\"d\"},"
      "{\"ph\":\"i\",\"ts\":5,\"pid\":5,\"tid\":0,\"name\":\"e\"},"
      "{\"ph\":\"i\",\"ts\":6,\"pid\":\"42\",\"tid\":\"43\",\"name\":\"f\"},"
      "{\"ph\":\"i\",\"ts\":7,\"name\":\"g\"},"
      "{\"ph\":\"i\",\"ts\":8,\"pid\":999999999,\"tid\":1000000000,\"name\":\"h\"},"
      "{\"ph\":\"i\",\"ts\":9,\"pid\":007,\"tid\":1e2,\"name\":\"i\"}]";
  const TraceEvent *ev;
  Read rd;

  read_text (&rd, text);
  g_assert_no_error (rd.error);
  /* named once, before the event that introduced the string; "42" and
   * "43" are strings too (trace_processor's reading) */
  g_assert_cmpuint (test_count_kind (rd.batch, TRACE_EVENT_PROCESS_NAME), ==, 2);
  g_assert_cmpuint (test_count_kind (rd.batch, TRACE_EVENT_THREAD_NAME), ==, 2);
  ev = test_find (rd.batch, TRACE_EVENT_PROCESS_NAME, "Browser", 0);
  g_assert_true (ev == &rd.batch->events[0]);
  /* 2^30 | 30 bits of FNV-1a 64 */
  g_assert_cmpint (ev->pid, ==, 1447277197);
  g_assert_cmpint (test_find (rd.batch, TRACE_EVENT_INSTANT, "b", 0)->pid, ==, ev->pid);
  ev = test_find (rd.batch, TRACE_EVENT_THREAD_NAME, "Main", 0);
  g_assert_cmpint (ev->tid, ==, 2006317335);
  g_assert_cmpint (test_find (rd.batch, TRACE_EVENT_INSTANT, "a", 0)->tid, ==, ev->tid);
  ev = test_find (rd.batch, TRACE_EVENT_INSTANT, "c", 0);
  g_assert_cmpint (ev->pid, ==, G_GINT64_CONSTANT (140229393893120));
  g_assert_cmpint (ev->tid, ==, -5);
  ev = test_find (rd.batch, TRACE_EVENT_INSTANT, "d", 0);
  g_assert_cmpint (ev->pid, ==, 12);
  g_assert_cmpint (ev->tid, ==, 12);
  g_assert_cmpint (test_find (rd.batch, TRACE_EVENT_INSTANT, "e", 0)->tid, ==, 5);
  ev = test_find (rd.batch, TRACE_EVENT_INSTANT, "f", 0);
  g_assert_cmpint (ev->pid, ==, 1795713597);
  g_assert_cmpint (ev->tid, ==, 1795712110);
  g_assert_cmpint (test_find (rd.batch, TRACE_EVENT_PROCESS_NAME, "42", 0)->pid, ==, ev->pid);
  g_assert_cmpint (test_find (rd.batch, TRACE_EVENT_THREAD_NAME, "43", 0)->tid, ==, ev->tid);
  ev = test_find (rd.batch, TRACE_EVENT_INSTANT, "g", 0);
  g_assert_cmpint (ev->pid, ==, TRACE_ID_UNKNOWN);
  g_assert_cmpint (ev->tid, ==, TRACE_ID_UNKNOWN);
  /* nine digits are read by the short path, ten and other forms by the
   * general one: the same numbers either way */
  ev = test_find (rd.batch, TRACE_EVENT_INSTANT, "h", 0);
  g_assert_cmpint (ev->pid, ==, 999999999);
  g_assert_cmpint (ev->tid, ==, 1000000000);
  ev = test_find (rd.batch, TRACE_EVENT_INSTANT, "i", 0);
  g_assert_cmpint (ev->pid, ==, 7);
  g_assert_cmpint (ev->tid, ==, 100);
  read_clear (&rd);
}

static void
test_timestamps (void)
{
  const char *text =
      "[{\"ph\":\"X\",\"ts\":\"5.1\",\"dur\":\"0.001\",\"name\":\"str\"},"
      "{\"ph\":\"X\",\"ts\":1234.5678,\"dur\":1e1,\"name\":\"float\"},"
      "{\"ph\":\"X\",\"ts\":1700000000000000.123,\"dur\":0,\"name\":\"big\"},"
      "{\"ph\":\"XXX\",\"ts\":-3,\"dur\":2,\"name\":\"phase\"}]";
  const TraceEvent *ev;
  Read rd;

  read_text (&rd, text);
  g_assert_no_error (rd.error);
  ev = test_find (rd.batch, TRACE_EVENT_SLICE_COMPLETE, "str", 0);
  g_assert_cmpint (ev->ts, ==, 5100);
  g_assert_cmpint (ev->u.slice.dur, ==, 1);
  ev = test_find (rd.batch, TRACE_EVENT_SLICE_COMPLETE, "float", 0);
  g_assert_cmpint (ev->ts, ==, 1234568);
  g_assert_cmpint (ev->u.slice.dur, ==, 10000);
  /* as trace_processor reads it: through a double, which at 1.7e15 µs
   * holds quarters of a µs */
  ev = test_find (rd.batch, TRACE_EVENT_SLICE_COMPLETE, "big", 0);
  g_assert_cmpint (ev->ts, ==, G_GINT64_CONSTANT (1700000000000000000));
  ev = test_find (rd.batch, TRACE_EVENT_SLICE_COMPLETE, "phase", 0);
  g_assert_cmpint (ev->ts, ==, -3000);
  read_clear (&rd);
}

static void
test_async_ids (void)
{
  const char *text =
      "[{\"ph\":\"b\",\"ts\":1,\"pid\":1,\"name\":\"hex\",\"cat\":\"c\",\"id\":\"0x10\"},"
      "{\"ph\":\"e\",\"ts\":2,\"pid\":1,\"name\":\"int\",\"id\":16},"
      "{\"ph\":\"n\",\"ts\":3,\"pid\":1,\"name\":\"local\",\"id2\":{\"local\":\"0x10\"}},"
      "{\"ph\":\"b\",\"ts\":4,\"pid\":1,\"name\":\"global\",\"id2\":{\"global\":7},\"scope\":\"sc\"},"
      "{\"ph\":\"b\",\"ts\":5,\"pid\":1,\"name\":\"word\",\"id\":\"abc-def\"},"
      "{\"ph\":\"e\",\"ts\":6,\"pid\":1,\"name\":\"word\",\"id\":\"abc-def\"},"
      "{\"ph\":\"b\",\"ts\":7,\"pid\":1,\"name\":\"empty\",\"id\":\"\"},"
      "{\"ph\":\"s\",\"ts\":8,\"pid\":1,\"tid\":1,\"name\":\"empty\",\"id\":\"\"}]";
  const TraceEvent *ev;
  Read rd;

  read_text (&rd, text);
  g_assert_no_error (rd.error);
  ev = test_find (rd.batch, TRACE_EVENT_ASYNC_BEGIN, "hex", 0);
  g_assert_cmpuint (ev->u.async.id, ==, 16);
  g_assert_cmpuint (ev->flags, ==, TRACE_EVENT_FLAG_ID_GLOBAL);
  g_assert_cmpuint (test_find (rd.batch, TRACE_EVENT_ASYNC_END, "int", 0)->u.async.id, ==, 16);
  ev = test_find (rd.batch, TRACE_EVENT_ASYNC_INSTANT, "local", 0);
  g_assert_cmpuint (ev->u.async.id, ==, 16);
  g_assert_cmpuint (ev->flags, ==, 0);
  ev = test_find (rd.batch, TRACE_EVENT_ASYNC_BEGIN, "global", 0);
  g_assert_cmpuint (ev->u.async.id, ==, 7);
  g_assert_cmpuint (ev->flags, ==, TRACE_EVENT_FLAG_ID_GLOBAL);
  g_assert_cmpstr (test_str (rd.batch, ev->u.async.scope), ==, "sc");
  g_assert_cmpuint (test_find (rd.batch, TRACE_EVENT_ASYNC_BEGIN, "word", 0)->u.async.id, ==,
                    test_find (rd.batch, TRACE_EVENT_ASYNC_END, "word", 0)->u.async.id);
  /* "" is an async id (trace_processor's too), no flow id (it reads
   * those as hex) */
  ev = test_find (rd.batch, TRACE_EVENT_ASYNC_BEGIN, "empty", 0);
  g_assert_nonnull (ev);
  g_assert_cmpuint (ev->flags, ==, TRACE_EVENT_FLAG_ID_GLOBAL);
  g_assert_null (test_find (rd.batch, TRACE_EVENT_FLOW_START, "empty", 0));
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_BAD_ID)->count, ==, 1);
  read_clear (&rd);
}

/* The one flow an async event binds, from its args. */
static void
assert_async_flow (const TraceBatch *batch,
                   const TraceEvent *ev,
                   guint64 want_in,
                   guint64 want_out)
{
  guint64 in = 0, out = 0;
  guint iter = 0;

  g_assert_true (ev->flags & TRACE_EVENT_FLAG_MORE_FLOWS);
  g_assert_true (trace_batch_next_slice_flow (batch, ev, &iter, &in, &out));
  g_assert_cmpuint (in, ==, want_in);
  g_assert_cmpuint (out, ==, want_out);
  g_assert_false (trace_batch_next_slice_flow (batch, ev, &iter, &in, &out));
}

/* flow v2: ids on B/X slices, and on b/n async slices (their args), as
 * trace_processor binds them; an `e` binds none. */
static void
test_flow_v2 (void)
{
  const char *text =
      "[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"out\",\"bind_id\":\"0x5\",\"flow_out\":true},"
      "{\"ph\":\"B\",\"ts\":2,\"pid\":1,\"tid\":2,\"name\":\"step\",\"bind_id\":5,\"flow_in\":true,\"flow_out\":true},"
      "{\"ph\":\"X\",\"ts\":3,\"dur\":1,\"pid\":1,\"tid\":3,\"name\":\"in\",\"bind_id\":\"0x5\",\"flow_in\":true},"
      "{\"ph\":\"b\",\"ts\":4,\"pid\":1,\"tid\":3,\"name\":\"async\",\"id\":1,\"bind_id\":\"0x9\",\"flow_out\":true},"
      "{\"ph\":\"n\",\"ts\":5,\"pid\":1,\"tid\":3,\"name\":\"mark\",\"id\":1,\"bind_id\":9,\"flow_in\":true,\"flow_out\":true,"
      "\"args\":{\"a\":1}},"
      "{\"ph\":\"e\",\"ts\":6,\"pid\":1,\"tid\":3,\"name\":\"async\",\"id\":1,\"bind_id\":9,\"flow_in\":true}]";
  const TraceEvent *ev;
  Read rd;

  read_text (&rd, text);
  g_assert_no_error (rd.error);
  ev = test_find (rd.batch, TRACE_EVENT_SLICE_COMPLETE, "out", 0);
  g_assert_cmpuint (ev->u.slice.flow_out, ==, 5);
  g_assert_cmpuint (ev->u.slice.flow_in, ==, 0);
  ev = test_find (rd.batch, TRACE_EVENT_SLICE_BEGIN, "step", 0);
  g_assert_cmpuint (ev->u.slice.flow_out, ==, 5);
  g_assert_cmpuint (ev->u.slice.flow_in, ==, 5);
  ev = test_find (rd.batch, TRACE_EVENT_SLICE_COMPLETE, "in", 0);
  g_assert_cmpuint (ev->u.slice.flow_in, ==, 5);
  ev = test_find (rd.batch, TRACE_EVENT_ASYNC_BEGIN, "async", 0);
  g_assert_cmpuint (ev->u.async.id, ==, 1);
  assert_async_flow (rd.batch, ev, 0, 9);
  ev = test_find (rd.batch, TRACE_EVENT_ASYNC_INSTANT, "mark", 0);
  g_assert_cmpuint (ev->n_args, ==, 3); /* a, flow_in, flow_out */
  assert_async_flow (rd.batch, ev, 9, 9);
  ev = test_find (rd.batch, TRACE_EVENT_ASYNC_END, "async", 0);
  g_assert_false (ev->flags & TRACE_EVENT_FLAG_MORE_FLOWS);
  g_assert_null (test_find (rd.batch, TRACE_EVENT_FLOW_START, NULL, 0));
  read_clear (&rd);
}

/* One counter per key; values may be numeric strings. */
static void
test_counters (void)
{
  const char *text =
      "[{\"ph\":\"C\",\"ts\":1,\"pid\":3,\"name\":\"mem\",\"cat\":\"m\",\"args\":{\"rss\":1024,\"ratio\":\"2.5\",\"bad\":\"x\",\"obj\":{}}},"
      "{\"ph\":\"C\",\"ts\":2,\"pid\":3,\"name\":\"noargs\"}]";
  const TraceEvent *ev;
  Read rd;

  read_text (&rd, text);
  g_assert_no_error (rd.error);
  g_assert_cmpuint (rd.batch->n_events, ==, 2);
  ev = test_find (rd.batch, TRACE_EVENT_COUNTER, "mem rss", 0);
  g_assert_cmpfloat (ev->u.counter.value, ==, 1024);
  g_assert_true (ev->flags & TRACE_EVENT_FLAG_COUNTER_INT);
  g_assert_cmpstr (test_str (rd.batch, ev->category), ==, "m");
  ev = test_find (rd.batch, TRACE_EVENT_COUNTER, "mem ratio", 0);
  g_assert_cmpfloat (ev->u.counter.value, ==, 2.5);
  g_assert_false (ev->flags & TRACE_EVENT_FLAG_COUNTER_INT);
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_BAD_VALUE)->count, ==, 3);
  read_clear (&rd);
}

/* A string counter value reads as trace_processor reads it: whatever C's
 * strtod takes whole; an integer literal (with a sign) stays an integer. */
static void
test_counter_string_forms (void)
{
  const char *text =
      "[{\"ph\":\"C\",\"ts\":1,\"pid\":3,\"name\":\"gpu\",\"args\":{\"a\":\".75\",\"b\":\"+10.5\",\"c\":\"1e3\","
      "\"d\":\" 12\",\"e\":\"0x1A\",\"f\":\"+7\",\"g\":\"12 MB\",\"h\":\"-\",\"i\":\"\"}}]";
  static const struct
  {
    const char *name;
    double value;
    gboolean is_int;
  } want[] = { { "gpu a", 0.75, FALSE }, { "gpu b", 10.5, FALSE }, { "gpu c", 1000, FALSE }, { "gpu d", 12, FALSE }, { "gpu e", 26, FALSE }, { "gpu f", 7, TRUE } };
  Read rd;

  read_text (&rd, text);
  g_assert_no_error (rd.error);
  g_assert_cmpuint (rd.batch->n_events, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      const TraceEvent *ev = test_find (rd.batch, TRACE_EVENT_COUNTER, want[i].name, 0);

      g_assert_cmpfloat (ev->u.counter.value, ==, want[i].value);
      g_assert_cmpint (!!(ev->flags & TRACE_EVENT_FLAG_COUNTER_INT), ==, want[i].is_int);
    }
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_BAD_VALUE)->count, ==, 3);
  read_clear (&rd);
}

/* Chrome's thread time: tts on B, E, X and thread instants (numbers or
 * numeric strings, µs), tdur on X only. */
static void
test_thread_time (void)
{
  const char *text =
      "[{\"ph\":\"X\",\"ts\":1,\"dur\":5,\"tts\":2.5,\"tdur\":\"3\",\"pid\":1,\"tid\":2,\"name\":\"x\"},"
      "{\"ph\":\"B\",\"ts\":10,\"tts\":\"7\",\"tdur\":9,\"pid\":1,\"tid\":2,\"name\":\"b\"},"
      "{\"ph\":\"E\",\"ts\":12,\"tts\":8,\"pid\":1,\"tid\":2,\"name\":\"b\"},"
      "{\"ph\":\"i\",\"ts\":13,\"tts\":8.5,\"pid\":1,\"tid\":2,\"name\":\"i\"},"
      "{\"ph\":\"X\",\"ts\":20,\"dur\":1,\"pid\":1,\"tid\":2,\"name\":\"none\"}]";
  const TraceEvent *ev;
  Read rd;

  read_text (&rd, text);
  g_assert_no_error (rd.error);
  ev = test_find (rd.batch, TRACE_EVENT_SLICE_COMPLETE, "x", 0);
  g_assert_true (ev->flags & TRACE_EVENT_FLAG_THREAD_TIME);
  g_assert_cmpint (ev->u.slice.thread_ts, ==, 2500);
  g_assert_cmpint (ev->u.slice.thread_dur, ==, 3000);
  ev = test_find (rd.batch, TRACE_EVENT_SLICE_BEGIN, "b", 0);
  g_assert_cmpint (ev->u.slice.thread_ts, ==, 7000);
  g_assert_cmpint (ev->u.slice.thread_dur, ==, -1);
  ev = test_find (rd.batch, TRACE_EVENT_SLICE_END, "b", 0);
  g_assert_cmpint (ev->u.slice.thread_ts, ==, 8000);
  ev = test_find (rd.batch, TRACE_EVENT_INSTANT, "i", 0);
  g_assert_cmpint (ev->u.slice.thread_ts, ==, 8500);
  ev = test_find (rd.batch, TRACE_EVENT_SLICE_COMPLETE, "none", 0);
  g_assert_false (ev->flags & TRACE_EVENT_FLAG_THREAD_TIME);
  read_clear (&rd);
}

static void
test_metadata_events (void)
{
  const char *text =
      "[{\"ph\":\"M\",\"pid\":1,\"tid\":2,\"name\":\"thread_name\",\"args\":{\"name\":\"Main \\\"T\\\"\"}},"
      "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":-3.7}},"
      "{\"ph\":\"M\",\"pid\":1,\"tid\":2,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":\"4\"}},"
      "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_labels\",\"args\":{\"labels\":\"a,b\"}},"
      "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{}},"
      "{\"ph\":\"c\",\"ts\":10,\"pid\":1,\"tid\":2,\"name\":\"clock_sync\",\"args\":{\"sync_id\":\"abc\",\"issue_ts\":9.5}}]";
  const TraceEvent *ev;
  Read rd;

  read_text (&rd, text);
  g_assert_no_error (rd.error);
  ev = test_find (rd.batch, TRACE_EVENT_THREAD_NAME, "Main \"T\"", 0);
  g_assert_cmpint (ev->tid, ==, 2);
  g_assert_cmpint (ev->ts, ==, 0);
  g_assert_cmpint (test_find (rd.batch, TRACE_EVENT_PROCESS_SORT_INDEX, NULL, 0)->u.meta.value, ==, -3);
  g_assert_cmpint (test_find (rd.batch, TRACE_EVENT_THREAD_SORT_INDEX, NULL, 0)->u.meta.value, ==, 4);
  g_assert_nonnull (test_find (rd.batch, TRACE_EVENT_PROCESS_LABEL, "a,b", 0));
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_BAD_VALUE)->count, ==, 1);
  ev = test_find (rd.batch, TRACE_EVENT_CLOCK_MARKER, NULL, 0);
  g_assert_cmpint (ev->ts, ==, 10000);
  g_assert_cmpint (ev->u.clock.issue_ts, ==, 9500);
  g_assert_cmpstr (test_str (rd.batch, ev->u.clock.sync_id), ==, "abc");
  read_clear (&rd);
}

static void
test_args (void)
{
  const char *text =
      "[{\"ph\":\"E\",\"ts\":1,\"pid\":1,\"tid\":1,\"args\":{"
      "\"s\":\"t\\u00e9\\n\",\"neg\":-1,\"big\":18446744073709551615,\"f\":1.5,\"t\":true,\"n\":null,"
      "\"a\":[1,{\"b\":\"x\"}],\"o\":{\"p\":{\"q\":0}},\"e\":{},\"a.b\":2}}]";
  const TraceEvent *ev;
  const TraceArg *arg;
  Read rd;

  read_text (&rd, text);
  g_assert_no_error (rd.error);
  ev = &rd.batch->events[0];
  g_assert_cmpuint (ev->kind, ==, TRACE_EVENT_SLICE_END);
  g_assert_cmpuint (ev->n_args, ==, 11);
  g_assert_cmpstr (test_arg_str (rd.batch, ev, "s"), ==, "té\n");
  g_assert_cmpint (test_arg (rd.batch, ev, "neg")->v.i, ==, -1);
  arg = test_arg (rd.batch, ev, "big");
  g_assert_cmpint (arg->type, ==, TRACE_ARG_UINT);
  g_assert_cmpuint (arg->v.u, ==, G_MAXUINT64);
  arg = test_arg (rd.batch, ev, "f");
  g_assert_cmpint (arg->type, ==, TRACE_ARG_DOUBLE);
  g_assert_cmpfloat (arg->v.d, ==, 1.5);
  g_assert_true (test_arg (rd.batch, ev, "t")->v.b);
  /* null and {} kept without a value, for json-sink */
  g_assert_cmpint (test_arg (rd.batch, ev, "n")->type, ==, TRACE_ARG_NULL);
  g_assert_cmpint (test_arg (rd.batch, ev, "e")->type, ==, TRACE_ARG_EMPTY_OBJECT);
  g_assert_cmpint (test_arg (rd.batch, ev, "a[0]")->v.i, ==, 1);
  g_assert_cmpstr (test_arg_str (rd.batch, ev, "a[1].b"), ==, "x");
  g_assert_cmpint (test_arg (rd.batch, ev, "o.p.q")->v.i, ==, 0);
  g_assert_cmpint (test_arg (rd.batch, ev, "a.b")->v.i, ==, 2);
  read_clear (&rd);
}

static void
test_too_many_args (void)
{
  g_autoptr (GString) text = g_string_new ("[{\"ph\":\"i\",\"ts\":1,\"args\":{");
  Read rd;

  for (guint i = 0; i < CHROME_MAX_ARGS + 10; i++)
    g_string_append_printf (text, "%s\"k%u\":%u", i ? "," : "", i, i);
  g_string_append (text, "}}]");
  read_text (&rd, text->str);
  g_assert_no_error (rd.error);
  g_assert_cmpuint (rd.batch->events[0].n_args, ==, CHROME_MAX_ARGS);
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_ARGS_DROPPED)->count, ==, 1);
  /* not damage, but data lost: warned */
  g_assert_true (chrome_reader_has_damage (rd.reader));
  read_clear (&rd);
}

/* ------------------------------------------------------------------ */
/* The object form                                                     */

static void
test_object_form (void)
{
  const char *text =
      "\xEF\xBB\xBF {\"metadata\":{\"clock-domain\":\"LINUX_CLOCK_MONOTONIC\",\"num-cpus\":8,"
      "\"tracepipe-clock-markers\":[{\"marker\":\"parent_ts\",\"ts_ns\":5,\"other_ts_ns\":7,\"domain\":\"boottime\"}]},"
      "\"powerTraceAsString\":\"x\\\"]}{[\",\"controllerTraceDataKey\":{\"a\":[1,{\"b\":\"]\"}]},"
      "\"number\":-1.5e3,\"flag\":true,"
      "\"systemTraceEvents\":\"# tracer: nop\\n  <idle>-0 [000] d..3 1.000001: cpu_idle: state=1 cpu_id=0 \\u00e9\\ud83d\\ude00\\n\","
      "\"displayTimeUnit\":\"ms\","
      "\"traceEvents\":[{\"ph\":\"i\",\"ts\":1,\"name\":\"only\"}],"
      "\"samples\":[],\"stackFrames\":{}}";
  g_autoptr (GInputStream) sys = NULL;
  char buf[256];
  gsize n = 0;
  const TraceEvent *ev;
  Read rd;

  read_text (&rd, text);
  g_assert_no_error (rd.error);
  g_assert_cmpuint (test_count_kind (rd.batch, TRACE_EVENT_INSTANT), ==, 1);
  g_assert_cmpuint (chrome_reader_get_clock_domain (rd.reader), ==, TRACE_CLOCK_MONOTONIC);
  g_assert_cmpstr (chrome_reader_get_display_time_unit (rd.reader), ==, "ms");
  g_assert_cmpint (json_object_get_int_member (chrome_reader_get_metadata (rd.reader), "num-cpus"), ==, 8);
  ev = test_find (rd.batch, TRACE_EVENT_CLOCK_MARKER, NULL, 0);
  g_assert_cmpuint (ev->u.clock.marker, ==, TRACE_CLOCK_MARKER_PARENT_TS);
  g_assert_cmpint (ev->ts, ==, 5);
  g_assert_cmpint (ev->u.clock.other_ts, ==, 7);
  g_assert_cmpuint (ev->u.clock.domain, ==, TRACE_CLOCK_BOOTTIME);
  g_assert_true (chrome_reader_has_system_trace (rd.reader));
  sys = chrome_reader_open_system_trace (rd.reader, NULL);
  g_assert_true (g_input_stream_read_all (sys, buf, sizeof buf - 1, &n, NULL, NULL));
  buf[n] = '\0';
  g_assert_cmpstr (buf, ==, "# tracer: nop\n  <idle>-0 [000] d..3 1.000001: cpu_idle: state=1 cpu_id=0 é😀\n");
  read_clear (&rd);

  read_text (&rd, "{\"traceEvents\":[],\"systemTraceEvents\":\"\"}");
  g_assert_no_error (rd.error);
  g_assert_false (chrome_reader_has_system_trace (rd.reader));
  g_assert_null (chrome_reader_open_system_trace (rd.reader, NULL));
  read_clear (&rd);
}

/* A file of several MiB: events, escapes and the system trace string
 * cross every block boundary, one event is larger than a block. */
static void
test_large_input (void)
{
  g_autoptr (GString) text = g_string_new ("{\"systemTraceEvents\":\"");
  g_autoptr (GString) expected_sys = g_string_new (NULL);
  g_autoptr (GString) big = g_string_new (NULL);
  g_autoptr (GInputStream) sys = NULL;
  g_autofree char *sys_text = NULL;
  const guint n_events = 40000;
  gsize n = 0;
  Read rd;

  for (guint i = 0; i < 30000; i++)
    {
      g_string_append_printf (text, "line %u \\\"q\\\" \\u00e9\\ud83d\\ude00\\\\\\n", i);
      g_string_append_printf (expected_sys, "line %u \"q\" é😀\\\n", i);
    }
  g_string_append (text, "\",\"traceEvents\":[\n");
  for (guint i = 0; i < n_events; i++)
    g_string_append_printf (text, "{\"ph\":\"X\",\"ts\":%u.%03u,\"dur\":1,\"pid\":1,\"tid\":%u,"
                                  "\"name\":\"ev\\u00e9 %u\",\"args\":{\"i\":%u}},\n",
                            i, i % 1000, i % 7, i, i);
  g_string_set_size (big, 3 * 1024 * 1024);
  memset (big->str, 'z', big->len);
  g_string_append_printf (text, "{\"ph\":\"i\",\"ts\":1,\"name\":\"big\",\"args\":{\"blob\":\"%s\"}}]}", big->str);
  read_text (&rd, text->str);
  g_assert_no_error (rd.error);
  g_assert_cmpuint (rd.batch->n_events, ==, n_events + 1);
  for (guint i = 0; i < n_events; i += 997)
    {
      const TraceEvent *ev = &rd.batch->events[i];
      g_autofree char *name = g_strdup_printf ("evé %u", i);

      g_assert_cmpstr (test_str (rd.batch, ev->name), ==, name);
      g_assert_cmpint (ev->ts, ==, (gint64) i * 1000 + i % 1000);
      g_assert_cmpint (test_arg (rd.batch, ev, "i")->v.i, ==, i);
    }
  g_assert_cmpuint (strlen (test_arg_str (rd.batch, &rd.batch->events[n_events], "blob")),
                    ==, big->len);
  sys = chrome_reader_open_system_trace (rd.reader, NULL);
  sys_text = g_malloc (expected_sys->len + 16);
  g_assert_true (g_input_stream_read_all (sys, sys_text, expected_sys->len + 16, &n, NULL, NULL));
  g_assert_cmpuint (n, ==, expected_sys->len);
  g_assert_true (memcmp (sys_text, expected_sys->str, n) == 0);
  g_assert_cmpuint (chrome_reader_get_bytes_read (rd.reader), ==, text->len);
  read_clear (&rd);
}

static void
test_gzip (void)
{
  const char *text = "[{\"ph\":\"i\",\"ts\":1.5,\"pid\":2,\"tid\":3,\"name\":\"zipped\"}]";
  g_autoptr (GZlibCompressor) gz = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 9);
  g_autoptr (GOutputStream) mem = g_memory_output_stream_new_resizable ();
  g_autoptr (GOutputStream) out = g_converter_output_stream_new (mem, G_CONVERTER (gz));
  gsize len;
  Read rd;

  g_assert_true (g_output_stream_write_all (out, text, strlen (text), NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  len = g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (mem));
  rd.pool = trace_string_pool_new ();
  rd.error = NULL;
  rd.batch = test_read_gzip_data (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (mem)), len,
                                  "t.json.gz", rd.pool, &rd.reader, &rd.error);
  g_assert_no_error (rd.error);
  g_assert_cmpuint (rd.batch->n_events, ==, 1);
  g_assert_cmpint (rd.batch->events[0].ts, ==, 1500);
  g_assert_cmpstr (test_str (rd.batch, rd.batch->events[0].name), ==, "zipped");
  read_clear (&rd);

  /* a cut gzip file keeps what was decompressed, and counts the cut */
  rd.pool = trace_string_pool_new ();
  rd.batch = test_read_gzip_data (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (mem)), len - 12,
                                  "t.json.gz", rd.pool, &rd.reader, &rd.error);
  g_assert_no_error (rd.error);
  g_assert_cmpuint (skipped (&rd, CHROME_SKIP_TRUNCATED)->count, ==, 1);
  read_clear (&rd);
}

/* 20 MiB of whitespace before the one event: no call reads it all at
 * once (the caller's main loop, where Ctrl-C is handled, runs between
 * calls); the calls before the event return empty batches. */
static void
test_input_bound (void)
{
  g_autoptr (GString) s = g_string_new ("{\"traceEvents\":[");
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (GError) error = NULL;
  ChromeReader *r;
  TraceBatch *b;
  guint empty = 0, events = 0;

  g_string_set_size (s, 20 * 1024 * 1024);
  memset (s->str + strlen ("{\"traceEvents\":["), ' ', s->len - strlen ("{\"traceEvents\":["));
  g_string_append (s, "{\"ph\":\"i\",\"name\":\"a\",\"ts\":1,\"pid\":1,\"tid\":1}]}");
  in = g_memory_input_stream_new_from_data (s->str, s->len, NULL);
  r = chrome_reader_new (in, "spaces.json", pool);
  while (chrome_reader_read_batch (r, &b, &error) && b != NULL)
    {
      empty += b->n_events == 0;
      events += b->n_events;
      trace_batch_unref (b);
    }
  g_assert_no_error (error);
  g_assert_cmpuint (events, ==, 1);
  g_assert_cmpuint (empty, >=, 20 * 1024 * 1024 / TRACE_BATCH_MAX_INPUT_BYTES - 1);
  chrome_reader_free (r);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json/reader/bad-input", test_bad_input);
  g_test_add_func ("/json/reader/input-bound", test_input_bound);
  g_test_add_func ("/json/reader/deep-but-allowed", test_deep_but_allowed);
  g_test_add_func ("/json/reader/gzip-garbage", test_gzip_garbage);
  g_test_add_func ("/json/reader/truncated", test_truncated);
  g_test_add_func ("/json/reader/lenient", test_lenient);
  g_test_add_func ("/json/reader/damage", test_damage);
  g_test_add_func ("/json/reader/unsupported", test_unsupported);
  g_test_add_func ("/json/reader/thread-states", test_thread_states);
  g_test_add_func ("/json/reader/pids-and-tids", test_pids_and_tids);
  g_test_add_func ("/json/reader/string-ids", test_string_ids);
  g_test_add_func ("/json/reader/timestamps", test_timestamps);
  g_test_add_func ("/json/reader/async-ids", test_async_ids);
  g_test_add_func ("/json/reader/flow-v2", test_flow_v2);
  g_test_add_func ("/json/reader/counters", test_counters);
  g_test_add_func ("/json/reader/counter-string-forms", test_counter_string_forms);
  g_test_add_func ("/json/reader/thread-time", test_thread_time);
  g_test_add_func ("/json/reader/metadata-events", test_metadata_events);
  g_test_add_func ("/json/reader/args", test_args);
  g_test_add_func ("/json/reader/too-many-args", test_too_many_args);
  g_test_add_func ("/json/reader/object-form", test_object_form);
  g_test_add_func ("/json/reader/large-input", test_large_input);
  g_test_add_func ("/json/reader/gzip", test_gzip);
  return g_test_run ();
}
