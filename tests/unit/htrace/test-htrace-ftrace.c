/* The ftrace plugin's kernel events inside htrace: no public capture
 * holds any, so these tests write small htrace files here from the
 * project's ftrace corpus: each line of a supported event is parsed by
 * the test (its own patterns) and written as the FtraceEvent OpenHarmony's
 * ftrace plugin would record; htrace-src must give exactly the events the
 * ftrace text engine gives for those lines as text.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "htrace-test-util.h"

#define SEC 1000000000LL

typedef struct
{
  GRegex *prefix, *sched_switch, *wakeup;
  GByteArray *events; /* FtraceCpuDetailMsg records of the current result */
  GByteArray *file;
  GString *text; /* the same events as text lines */
  guint written, pending;
} Writer;

/* ftrace's letters as the kernel's task-state bits (traceevent.h's 4.4
 * layout) */
static guint64
state_bits (const char *s)
{
  guint64 bits = 0;

  for (; *s; s++)
    switch (*s)
      {
      case 'S':
        bits |= TRACE_TASK_STATE_INTERRUPTIBLE;
        break;
      case 'D':
        bits |= TRACE_TASK_STATE_UNINTERRUPTIBLE;
        break;
      case 'x':
        bits |= TRACE_TASK_STATE_DEAD;
        break;
      case '+':
        bits |= TRACE_TASK_STATE_PREEMPTED;
        break;
      default:
        break;
      }
  return bits;
}

static gint64
num (GMatchInfo *m,
     int group)
{
  g_autofree char *s = g_match_info_fetch (m, group);

  return s && *s ? g_ascii_strtoll (s, NULL, 10) : 0;
}

static void
put_string (GByteArray *b,
            guint field,
            GMatchInfo *m,
            int group)
{
  g_autofree char *s = g_match_info_fetch (m, group);

  wire_put_bytes (b, field, s, strlen (s));
}

/* The event's own message, or FALSE for a line of another event. */
static gboolean
event_body (Writer *w,
            const char *name,
            const char *args,
            GByteArray *body,
            guint *field)
{
  g_autoptr (GMatchInfo) m = NULL;

  if (g_str_equal (name, "tracing_mark_write"))
    {
      *field = 1109;
      wire_put_bytes (body, 2, args, strlen (args));
      return TRUE;
    }
  if (g_str_equal (name, "sched_switch") && g_regex_match (w->sched_switch, args, 0, &m))
    {
      g_autofree char *state = g_match_info_fetch (m, 4);

      *field = 2417;
      put_string (body, 1, m, 1);
      wire_put_varint (body, 2, num (m, 2));
      wire_put_varint (body, 3, num (m, 3));
      wire_put_varint (body, 4, state_bits (state));
      put_string (body, 5, m, 5);
      wire_put_varint (body, 6, num (m, 6));
      wire_put_varint (body, 7, num (m, 7));
      return TRUE;
    }
  if (g_str_equal (name, "sched_wakeup") && g_regex_match (w->wakeup, args, 0, &m))
    {
      *field = 2420;
      put_string (body, 1, m, 1);
      wire_put_varint (body, 2, num (m, 2));
      wire_put_varint (body, 3, num (m, 3));
      wire_put_varint (body, 4, num (m, 4));
      wire_put_varint (body, 5, num (m, 5));
      return TRUE;
    }
  return FALSE;
}

static void
flush (Writer *w)
{
  g_autoptr (GByteArray) result = g_byte_array_new ();
  g_autoptr (GByteArray) stats = g_byte_array_new ();

  if (w->pending == 0)
    return;
  wire_put_bytes (stats, 3, "boot", 4);
  wire_put_bytes (result, 1, stats->data, stats->len);
  g_byte_array_append (result, w->events->data, w->events->len);
  wire_file_add_record (w->file, "ftrace-plugin", 1, 0, result);
  g_byte_array_set_size (w->events, 0);
  w->pending = 0;
}

static void
write_line (Writer *w,
            const char *line)
{
  g_autoptr (GMatchInfo) m = NULL;
  g_autoptr (GByteArray) body = g_byte_array_new ();
  g_autoptr (GByteArray) event = g_byte_array_new ();
  g_autoptr (GByteArray) common = g_byte_array_new ();
  g_autoptr (GByteArray) detail = g_byte_array_new ();
  g_autofree char *name = NULL, *args = NULL, *frac = NULL;
  guint field;
  gint64 ns;

  if (!g_regex_match (w->prefix, line, 0, &m))
    return;
  name = g_match_info_fetch (m, 7);
  args = g_match_info_fetch (m, 8);
  if (!event_body (w, name, args, body, &field))
    return;
  frac = g_match_info_fetch (m, 6);
  ns = num (m, 5) * SEC + g_ascii_strtoll (frac, NULL, 10) * (strlen (frac) == 6 ? 1000 : 1);
  wire_put_varint (common, 4, num (m, 2));
  wire_put_varint (event, 1, ns);
  wire_put_varint (event, 2, num (m, 3) > 0 ? num (m, 3) : 0);
  put_string (event, 3, m, 1);
  wire_put_bytes (event, 50, common->data, common->len);
  wire_put_bytes (event, field, body->data, body->len);
  wire_put_varint (detail, 1, num (m, 4));
  wire_put_bytes (detail, 2, event->data, event->len);
  wire_put_bytes (w->events, 2, detail->data, detail->len);
  g_string_append_printf (w->text, "%s\n", line);
  w->written++;
  if (++w->pending == 50)
    flush (w);
}

/* An event of a kind the subset does not declare (block_rq_issue's
 * field number, 211, is not among them): counted, no event. */
static void
write_unsupported (Writer *w)
{
  g_autoptr (GByteArray) result = g_byte_array_new ();
  g_autoptr (GByteArray) detail = g_byte_array_new ();
  g_autoptr (GByteArray) event = g_byte_array_new ();

  wire_put_varint (event, 1, 5 * SEC);
  wire_put_bytes (event, 211, "", 0);
  wire_put_bytes (detail, 2, event->data, event->len);
  wire_put_bytes (result, 2, detail->data, detail->len);
  wire_file_add_record (w->file, "ftrace-plugin", 1, 0, result);
}

static void
assert_same_events (GArray *a,
                    GArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      const TraceEvent *x = &g_array_index (a, TraceEvent, i), *y = &g_array_index (b, TraceEvent, i);

      g_assert_cmpint (x->kind, ==, y->kind);
      g_assert_cmpint (x->ts, ==, y->ts);
      g_assert_cmpint (x->tid, ==, y->tid);
      g_assert_cmpint (x->pid, ==, y->pid);
      g_assert_cmpint (x->cpu, ==, y->cpu);
      g_assert_cmpuint (x->name, ==, y->name);
      if (x->kind == TRACE_EVENT_SCHED_SWITCH)
        {
          g_assert_cmpint (x->u.sched_switch.prev_tid, ==, y->u.sched_switch.prev_tid);
          g_assert_cmpint (x->u.sched_switch.next_tid, ==, y->u.sched_switch.next_tid);
          g_assert_cmpint (x->u.sched_switch.prev_state, ==, y->u.sched_switch.prev_state);
          g_assert_cmpuint (x->u.sched_switch.next_comm, ==, y->u.sched_switch.next_comm);
        }
      if (x->kind == TRACE_EVENT_SCHED_WAKEUP)
        {
          g_assert_cmpint (x->u.wakeup.tid, ==, y->u.wakeup.tid);
          g_assert_cmpint (x->u.wakeup.target_cpu, ==, y->u.wakeup.target_cpu);
        }
    }
}

static void
test_corpus (gconstpointer data)
{
  const char *name = data;
  g_autofree char *path = g_build_filename (TEST_DATA_DIR, "ftrace", name, NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  Writer w = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (HtraceRun) run = NULL;
  g_autoptr (TraceBatch) expected = NULL;
  g_autoptr (FtraceParser) parser = NULL;
  g_autoptr (GArray) ours = g_array_new (FALSE, FALSE, sizeof (TraceEvent));
  g_autoptr (GArray) theirs = g_array_new (FALSE, FALSE, sizeof (TraceEvent));
  HtraceReaderStats st;

  w.prefix = g_regex_new ("^\\s*(.*?)-(\\d+)\\s+(?:\\(\\s*([-\\d]+)\\)\\s+)?\\[(\\d+)\\]\\s+(?:\\S+\\s+)?(\\d+)\\.(\\d+):"
                          "\\s+([a-z_]+):\\s(.*)$",
                          0, 0, NULL);
  w.sched_switch = g_regex_new ("^prev_comm=(.*) prev_pid=(\\d+) prev_prio=(\\d+) prev_state=(\\S+) ==> "
                                "next_comm=(.*) next_pid=(\\d+) next_prio=(\\d+)$",
                                0, 0, NULL);
  w.wakeup = g_regex_new ("^comm=(.*) pid=(\\d+) prio=(\\d+)(?: success=(\\d+))? target_cpu=(\\d+)$", 0, 0, NULL);
  w.events = g_byte_array_new ();
  w.file = wire_file_new (1 * SEC, 1700000000 * SEC, 0);
  w.text = g_string_new (NULL);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    write_line (&w, g_strchomp (lines[i]));
  flush (&w);
  write_unsupported (&w);
  g_test_message ("%s: %u events written", name, w.written);
  g_assert_cmpuint (w.written, >, 100);

  run = htrace_run_bytes (w.file->data, w.file->len, &error);
  g_assert_no_error (error);
  htrace_reader_copy_stats (run->reader, &st);
  g_assert_cmpuint (st.ftrace_events, ==, w.written + 1);
  g_assert_cmpuint (st.skipped[HTRACE_SKIP_FTRACE_OTHER], ==, 1);
  for (guint b = 0; b < run->batches->len; b++)
    {
      TraceBatch *batch = run->batches->pdata[b];

      /* not the header's clock pair: the text has no header */
      for (guint i = 0; i < batch->n_events; i++)
        if (batch->events[i].kind != TRACE_EVENT_CLOCK_MARKER ||
            batch->events[i].u.clock.marker != TRACE_CLOCK_MARKER_PAIR)
          g_array_append_val (ours, batch->events[i]);
    }
  /* the same lines through the text path */
  parser = ftrace_parser_new (run->pool);
  expected = trace_batch_new (run->pool, 64);
  ftrace_parser_parse_text (parser, w.text->str, w.text->len, expected);
  ftrace_parser_finish (parser, expected);
  g_array_append_vals (theirs, expected->events, expected->n_events);
  assert_same_events (ours, theirs);

  g_regex_unref (w.prefix);
  g_regex_unref (w.sched_switch);
  g_regex_unref (w.wakeup);
  g_byte_array_unref (w.events);
  g_byte_array_unref (w.file);
  g_string_free (w.text, TRUE);
}

int
main (int argc,
      char **argv)
{
  static const char *const corpus[] = { "catapult_atrace_data.txt", "catapult_decompressed_atrace_data.txt" };

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
    {
      g_autofree char *path = g_strdup_printf ("/htrace/ftrace/%s", corpus[i]);

      g_test_add_data_func (path, corpus[i], test_corpus);
    }
  return g_test_run ();
}
