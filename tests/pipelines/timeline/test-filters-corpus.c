/* End to end on the corpus: `filter tid=main` and
 * `main-thread-filter` keep exactly the events of main threads, as the
 * test reads them from the file itself (the TGID column, the pid in
 * atrace markers, the process dumps), keep every metadata event, and keep
 * or drop each slice whole; `filter start=… end=…` clips slices at the
 * window's edges and keeps the output balanced.
 *
 * Corpus files with a TGID column or dumps (tests/data/ftrace/):
 *   catapult_decompressed_atrace_data.txt  TGID column mostly (-----): the
 *                                          pids come from the markers
 *   ohos_ut_bytrace_input_thread.txt       TGID column, some (-----)
 *   trappy_trace_systrace_stripped.html    TGID column inside systrace HTML
 *   catapult_atrace_missing_tgids.txt      only (-----): nothing decidable
 *                                          but the idle task, not a main
 *                                          thread
 *   catapult_atrace_procfs_dump.txt +      dumps (/proc/PID/task/TID and a
 *   catapult_atrace_ps_dump.txt +          ps table) put before a trace
 *   catapult_atrace_data.txt               without TGID column
 * (The perfetto_inline_* files hold 2-6 lines; the others have neither.)
 */
#include <string.h>

#include "timeline-util.h"

#define DATA(name) TEST_DATA_DIR "/ftrace/" name

typedef enum
{
  THREAD_MAIN,
  THREAD_OTHER,
  THREAD_UNKNOWN, /* its process cannot be known yet */
} ThreadClass;

/* What the text says, line by line, in file order. */
typedef struct
{
  GHashTable *pid_of;     /* tid -> pid, learnt so far */
  GHashTable *known_pids; /* every pid seen: a tid that is one is a main thread */
  GHashTable *open;       /* tid -> GArray of the classes of its open B| slices */
  GHashTable *lines;      /* "ts tid" -> GQueue of ThreadClass, one per event line */
  gboolean ps_has_tid;    /* in a ps table: its header has a TID column */
  gboolean in_ps;
  guint n_lines;
} Text;

static GRegex *event_re, *proc_re;

static void
learn (Text *t,
       gint64 tid,
       gint64 pid)
{
  g_hash_table_insert (t->pid_of, GINT_TO_POINTER ((gint) tid), GINT_TO_POINTER ((gint) pid));
  g_hash_table_add (t->known_pids, GINT_TO_POINTER ((gint) pid));
}

/* ps tables: `USER PID TID ... CMD` (threads) or `USER PID PPID ... NAME`
 * (processes: the pid's main thread). */
static gboolean
read_dump_line (Text *t,
                const char *line)
{
  g_autoptr (GMatchInfo) m = NULL;
  g_auto (GStrv) cols = NULL;
  g_autofree char *trimmed = NULL;
  gint64 pid;

  if (g_regex_match (proc_re, line, 0, &m))
    {
      g_autofree char *p = g_match_info_fetch (m, 1), *tid = g_match_info_fetch (m, 2);

      learn (t, g_ascii_strtoll (tid, NULL, 10), g_ascii_strtoll (p, NULL, 10));
      return TRUE;
    }
  trimmed = g_strstrip (g_strdup (line));
  cols = g_regex_split_simple ("\\s+", trimmed, 0, 0);
  if (g_strv_length (cols) >= 4 && g_str_equal (cols[0], "USER") && g_str_equal (cols[1], "PID"))
    {
      t->in_ps = TRUE;
      t->ps_has_tid = g_str_equal (cols[2], "TID");
      return TRUE;
    }
  if (!t->in_ps || g_strv_length (cols) < 4 || !g_ascii_string_to_signed (cols[1], 10, 0, G_MAXINT, &pid, NULL))
    return (t->in_ps = FALSE);
  learn (t, t->ps_has_tid ? g_ascii_strtoll (cols[2], NULL, 10) : pid, pid);
  return TRUE;
}

/* The pid an event line gives its event: the atrace marker's (`B|pid|`),
 * else the TGID column, else what earlier lines taught about the tid. */
static ThreadClass
classify (Text *t,
          gint64 tid,
          const char *tgid,
          const char *payload)
{
  gint64 pid = -1;
  gpointer learnt;

  if (strlen (payload) > 2 && strchr ("BESFCINGH", payload[0]) && payload[1] == '|' && g_ascii_isdigit (payload[2]))
    pid = g_ascii_strtoll (payload + 2, NULL, 10);
  else if (tgid && g_ascii_isdigit (tgid[0]))
    pid = g_ascii_strtoll (tgid, NULL, 10);
  else if (tid == 0)
    pid = 0; /* the idle task, swapper/N */
  else if (g_hash_table_lookup_extended (t->pid_of, GINT_TO_POINTER ((gint) tid), NULL, &learnt))
    pid = GPOINTER_TO_INT (learnt);
  else if (g_hash_table_contains (t->known_pids, GINT_TO_POINTER ((gint) tid)))
    pid = tid;
  if (pid < 0)
    return THREAD_UNKNOWN;
  learn (t, tid, pid);
  /* The idle task's tid equals its pid (0), but it is no process's main
   * thread: tid=main drops it (docs/filters.md). */
  return pid == tid && tid != 0 ? THREAD_MAIN : THREAD_OTHER;
}

/* A slice end follows its begin's fate, whatever was learnt in between. */
static ThreadClass
follow_slices (Text *t,
               gint64 tid,
               const char *payload,
               ThreadClass cls)
{
  GArray *open = g_hash_table_lookup (t->open, GINT_TO_POINTER ((gint) tid));

  if (open == NULL)
    {
      open = g_array_new (FALSE, FALSE, sizeof (ThreadClass));
      g_hash_table_insert (t->open, GINT_TO_POINTER ((gint) tid), open);
    }
  if (g_str_has_prefix (payload, "B|"))
    g_array_append_val (open, cls);
  else if (payload[0] == 'E' && (payload[1] == '\0' || payload[1] == '|') && open->len > 0)
    {
      cls = g_array_index (open, ThreadClass, open->len - 1);
      g_array_set_size (open, open->len - 1);
    }
  return cls;
}

static char *
line_key (gint64 ts,
          gint64 tid)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT, ts, tid);
}

static gint64
parse_ns (const char *sec,
          const char *frac)
{
  char digits[10] = "000000000";

  memcpy (digits, frac, MIN (strlen (frac), 9));
  return g_ascii_strtoll (sec, NULL, 10) * TL_S + g_ascii_strtoll (digits, NULL, 10);
}

static void
read_event_line (Text *t,
                 GMatchInfo *m)
{
  g_autofree char *tid_s = g_match_info_fetch (m, 1), *tgid = g_match_info_fetch (m, 2);
  g_autofree char *sec = g_match_info_fetch (m, 3), *frac = g_match_info_fetch (m, 4);
  g_autofree char *payload = g_match_info_fetch (m, 6);
  gint64 tid = g_ascii_strtoll (tid_s, NULL, 10);
  ThreadClass cls = follow_slices (t, tid, payload, classify (t, tid, tgid, payload));
  char *key = line_key (parse_ns (sec, frac), tid);
  GQueue *q = g_hash_table_lookup (t->lines, key);

  if (q == NULL)
    g_hash_table_insert (t->lines, key, (q = g_queue_new ()));
  else
    g_free (key);
  g_queue_push_tail (q, GINT_TO_POINTER (cls));
  t->n_lines++;
}

static void
text_clear (Text *t)
{
  g_hash_table_unref (t->pid_of);
  g_hash_table_unref (t->known_pids);
  g_hash_table_unref (t->open);
  g_hash_table_unref (t->lines);
}

static void
read_text (Text *t,
           const char *path)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;

  memset (t, 0, sizeof *t);
  t->pid_of = g_hash_table_new (NULL, NULL);
  t->known_pids = g_hash_table_new (NULL, NULL);
  t->open = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  t->lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_queue_free);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr (GMatchInfo) m = NULL;

      g_strchomp (lines[i]);
      if (g_regex_match (event_re, lines[i], 0, &m))
        read_event_line (t, m);
      else if (lines[i][0] != '#')
        read_dump_line (t, lines[i]);
    }
}

/* ---- the runs -------------------------------------------------------------- */

/* What always passes (docs/filters.md): names, sort indexes, labels,
 * stack nodes and clock markers. */
static gboolean
is_metadata (const TraceEvent *ev)
{
  return trace_event_kind_get_group (ev->kind) == TRACE_EVENT_GROUP_METADATA ||
         ev->kind == TRACE_EVENT_STACK_NODE || ev->kind == TRACE_EVENT_CLOCK_MARKER;
}

static void
assert_same_event (TraceBatch *a,
                   const TraceEvent *x,
                   TraceBatch *b,
                   const TraceEvent *y)
{
  g_assert_cmpint (x->kind, ==, y->kind);
  g_assert_cmpint (x->ts, ==, y->ts);
  g_assert_cmpint (x->pid, ==, y->pid);
  g_assert_cmpint (x->tid, ==, y->tid);
  g_assert_cmpstr (trace_batch_get_string (a, x->name), ==, trace_batch_get_string (b, y->name));
}

/* The class of the line an event came from (ftrace-src keeps file order,
 * one event line gives at most one event besides metadata). */
static ThreadClass
class_of_event (Text *t,
                const TraceEvent *ev)
{
  g_autofree char *key = line_key (ev->ts, ev->tid);
  GQueue *q = g_hash_table_lookup (t->lines, key);

  if (q == NULL || g_queue_is_empty (q))
    g_error ("no line of tid %" G_GINT64_FORMAT " at %" G_GINT64_FORMAT " ns for a %s event", ev->tid, ev->ts,
             trace_event_kind_to_string (ev->kind));
  return GPOINTER_TO_INT (g_queue_pop_head (q));
}

typedef struct
{
  guint main, other, unknown, metadata, slice_events;
} Counts;

/* Walks the unfiltered stream: each event must come out of the filter,
 * in order and unchanged, exactly when it is metadata or its line is a
 * main thread's. */
static void
compare_streams (Text *t,
                 TraceBatch *all,
                 TraceBatch *kept,
                 Counts *n)
{
  guint k = 0;

  memset (n, 0, sizeof *n);
  for (guint i = 0; i < all->n_events; i++)
    {
      const TraceEvent *ev = &all->events[i];
      ThreadClass cls = is_metadata (ev) ? THREAD_MAIN : class_of_event (t, ev);

      if (is_metadata (ev))
        n->metadata++;
      else
        cls == THREAD_MAIN ? n->main++ : cls == THREAD_OTHER ? n->other++
                                                             : n->unknown++;
      if (cls != THREAD_MAIN)
        continue;
      if (ev->kind == TRACE_EVENT_SLICE_BEGIN || ev->kind == TRACE_EVENT_SLICE_END)
        n->slice_events++;
      g_assert_cmpuint (k, <, kept->n_events);
      assert_same_event (all, ev, kept, &kept->events[k]);
      k++;
    }
  g_assert_cmpuint (k, ==, kept->n_events);
}

static TlRun *
run_file (const char *path,
          const char *filter)
{
  g_autofree char *desc = g_strdup_printf ("ftrace-src location=\"%s\" %s%s ! collectsink name=out", path,
                                           filter ? "! " : "", filter ? filter : "");
  TlRun *run = tl_run (desc);

  g_assert_cmpint (run->end->type, ==, TRACE_MESSAGE_EOS);
  return run;
}

typedef struct
{
  const char *path;
  guint min_main;         /* the file's main-thread events, at least */
  guint min_slice_events; /* of which B/E */
  guint min_other;        /* events of other threads */
  gboolean has_unknown;   /* threads whose process the file never says */
} CorpusCase;

static void
check_main_threads (const CorpusCase *c,
                    const char *element)
{
  g_autoptr (TlRun) all = run_file (c->path, NULL);
  g_autoptr (TlRun) kept = run_file (c->path, element);
  g_autoptr (GArray) slices = NULL;
  Text t;
  Counts n;

  read_text (&t, c->path);
  compare_streams (&t, all->events, kept->events, &n);
  g_test_message ("%s | %s: %u lines; events: %u of main threads (%u slice begins/ends), %u of others, "
                  "%u undecidable, %u metadata",
                  c->path, element, t.n_lines, n.main, n.slice_events, n.other,
                  n.unknown, n.metadata);
  /* the kept slices pair up: none cut in half (asserted while pairing) */
  slices = tl_slices_from_batch (kept->events);
  g_assert_cmpuint (slices->len * 2, ==, n.slice_events);
  g_assert_cmpuint (n.main, >=, c->min_main);
  g_assert_cmpuint (n.slice_events, >=, c->min_slice_events);
  g_assert_cmpuint (n.other, >=, c->min_other);
  g_assert_cmpuint (n.metadata, >, 0);
  /* what could not be told is counted and said */
  g_assert_cmpint (tl_run_stat (kept, "f", "undecidable"), ==, n.unknown);
  if (c->has_unknown)
    g_assert_nonnull (tl_run_find (kept, TRACE_MESSAGE_WARNING, "f", "could not be told"));
  text_clear (&t);
}

static const CorpusCase corpus_cases[] = {
  { DATA ("catapult_decompressed_atrace_data.txt"), 200, 100, 500, FALSE },
  { DATA ("ohos_ut_bytrace_input_thread.txt"), 5, 0, 5, TRUE },
  { DATA ("trappy_trace_systrace_stripped.html"), 3, 0, 4, FALSE },
  /* only the idle task (tid 0, pid 0) can be told, and it is no main thread */
  { DATA ("catapult_atrace_missing_tgids.txt"), 0, 0, 50, TRUE },
};

static void
test_corpus_main_threads (gconstpointer data)
{
  for (guint i = 0; i < G_N_ELEMENTS (corpus_cases); i++)
    check_main_threads (&corpus_cases[i], data);
}

/* The dumps come first here, so they can teach the filter (streaming: a
 * dump after the events teaches nothing about them, docs/filters.md). */
static void
test_dumps_main_threads (gconstpointer data)
{
  static const char *const parts[] = {
    DATA ("catapult_atrace_procfs_dump.txt"),
    DATA ("catapult_atrace_ps_dump.txt"),
    DATA ("catapult_atrace_data.txt"),
  };
  g_autoptr (GString) joined = g_string_new (NULL);
  g_autofree char *path = tl_tmp_path ("dumps-then-trace.txt");
  CorpusCase c = { path, 20, 0, 1, TRUE };

  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      g_autofree char *text = NULL;

      g_assert_true (g_file_get_contents (parts[i], &text, NULL, NULL));
      g_string_append (joined, text);
      if (joined->len && joined->str[joined->len - 1] != '\n')
        g_string_append_c (joined, '\n');
    }
  tl_write (path, joined->str);
  check_main_threads (&c, data);
  tl_tmp_cleanup ();
}

/* ---- the time window --------------------------------------------------------- */

typedef struct
{
  gint64 tid;
  gint64 begin;
  gint64 end;
  const char *name; /* interned */
} TextSlice;

static gint
text_slice_order (gconstpointer a,
                  gconstpointer b)
{
  const TextSlice *x = a, *y = b;

  if (x->tid != y->tid)
    return x->tid < y->tid ? -1 : 1;
  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  if (x->end != y->end)
    return x->end < y->end ? -1 : 1;
  return strcmp (x->name, y->name);
}

/* The slices of a file, paired from its text: B|/E per thread, and the
 * async S|pid|name|cookie / F|… by (pid, name, cookie) (`tid` then holds
 * the pid, `name` is "name#cookie"; an async slice without end ends at
 * G_MAXINT64). */
typedef struct
{
  GArray *slices; /* TextSlice */
  GArray *async;  /* TextSlice */
  gint64 first;   /* the first B| and the last E */
  gint64 last;
  GHashTable *open;       /* tid -> GArray of TextSlice */
  GHashTable *open_async; /* "pid name#cookie" -> TextSlice */
} TextSlices;

static const char *intern_printf (const char *format,
                                  ...) G_GNUC_PRINTF (1, 2);

static const char *
intern_printf (const char *format,
               ...)
{
  g_autofree char *s = NULL;
  va_list ap;

  va_start (ap, format);
  s = g_strdup_vprintf (format, ap);
  va_end (ap);
  return g_intern_string (s);
}

static void
read_thread_slice (TextSlices *f,
                   TextSlice *s,
                   const char *payload)
{
  GArray *st = g_hash_table_lookup (f->open, GINT_TO_POINTER ((gint) s->tid));

  if (st == NULL)
    g_hash_table_insert (f->open, GINT_TO_POINTER ((gint) s->tid), (st = g_array_new (FALSE, FALSE, sizeof *s)));
  if (payload[0] == 'B')
    {
      const char *bar = strchr (payload + 2, '|');

      s->name = g_intern_string (bar ? bar + 1 : "");
      g_array_append_val (st, *s);
      f->first = f->first < 0 ? s->begin : MIN (f->first, s->begin);
      return;
    }
  g_assert_cmpuint (st->len, >, 0); /* this file is balanced */
  g_array_index (st, TextSlice, st->len - 1).end = s->begin;
  f->last = MAX (f->last, s->begin);
  g_array_append_val (f->slices, g_array_index (st, TextSlice, st->len - 1));
  g_array_set_size (st, st->len - 1);
}

static void
read_async_slice (TextSlices *f,
                  TextSlice *s,
                  const char *payload)
{
  g_auto (GStrv) fields = g_strsplit (payload, "|", -1);
  g_autofree char *key = NULL;
  TextSlice *open;

  g_assert_cmpuint (g_strv_length (fields), ==, 4);
  s->tid = g_ascii_strtoll (fields[1], NULL, 10);
  s->name = intern_printf ("%s#%s", fields[2], fields[3]);
  key = g_strdup_printf ("%" G_GINT64_FORMAT " %s", s->tid, s->name);
  if (fields[0][0] == 'S')
    {
      g_hash_table_insert (f->open_async, g_steal_pointer (&key), g_memdup2 (s, sizeof *s));
      return;
    }
  open = g_hash_table_lookup (f->open_async, key);
  g_assert_nonnull (open);
  open->end = s->begin;
  g_array_append_val (f->async, *open);
  g_hash_table_remove (f->open_async, key);
}

static void
add_unended (gpointer key,
             gpointer value,
             gpointer user_data)
{
  TextSlice *s = value;

  s->end = G_MAXINT64;
  g_array_append_val ((GArray *) user_data, *s);
}

static void
text_slices (const char *path,
             TextSlices *f)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;

  f->slices = g_array_new (FALSE, FALSE, sizeof (TextSlice));
  f->async = g_array_new (FALSE, FALSE, sizeof (TextSlice));
  f->first = f->last = -1;
  f->open = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  f->open_async = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr (GMatchInfo) m = NULL;
      g_autofree char *tid_s = NULL, *sec = NULL, *frac = NULL, *payload = NULL;
      TextSlice s = { 0 };

      if (!g_regex_match (event_re, g_strchomp (lines[i]), 0, &m))
        continue;
      tid_s = g_match_info_fetch (m, 1), sec = g_match_info_fetch (m, 3);
      frac = g_match_info_fetch (m, 4), payload = g_match_info_fetch (m, 6);
      s.tid = g_ascii_strtoll (tid_s, NULL, 10);
      s.begin = s.end = parse_ns (sec, frac);
      if (g_str_has_prefix (payload, "B|") || (payload[0] == 'E' && (payload[1] == '\0' || payload[1] == '|')))
        read_thread_slice (f, &s, payload);
      else if (g_str_has_prefix (payload, "S|") || g_str_has_prefix (payload, "F|"))
        read_async_slice (f, &s, payload);
    }
  /* async slices the capture holds no end of (animations still running
   * when it stopped) are open for ever */
  g_hash_table_foreach (f->open_async, add_unended, f->async);
  g_clear_pointer (&f->open, g_hash_table_unref);
  g_clear_pointer (&f->open_async, g_hash_table_unref);
}

/* The async slices of the output, paired by (pid, id). */
static GArray *
output_async (TraceBatch *batch)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TextSlice));
  g_autoptr (GHashTable) open = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; i < batch->n_events; i++)
    {
      const TraceEvent *ev = &batch->events[i];
      g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GUINT64_FORMAT, ev->pid, ev->u.async.id);
      TextSlice s = { ev->pid, ev->ts, ev->ts, NULL }, *b;

      if (ev->kind == TRACE_EVENT_ASYNC_BEGIN)
        {
          s.name = intern_printf ("%s#%" G_GUINT64_FORMAT, trace_batch_get_string (batch, ev->name), ev->u.async.id);
          g_hash_table_insert (open, g_steal_pointer (&key), g_memdup2 (&s, sizeof s));
        }
      else if (ev->kind == TRACE_EVENT_ASYNC_END)
        {
          g_assert_nonnull ((b = g_hash_table_lookup (open, key)));
          b->end = ev->ts;
          g_array_append_val (out, *b);
          g_hash_table_remove (open, key);
        }
    }
  g_assert_cmpuint (g_hash_table_size (open), ==, 0); /* balanced */
  g_array_sort (out, text_slice_order);
  return out;
}

static void
assert_same_slices (GArray *got,
                    GArray *expected)
{
  g_assert_cmpuint (got->len, ==, expected->len);
  for (guint i = 0; i < got->len; i++)
    g_assert_cmpint (text_slice_order (&g_array_index (got, TextSlice, i), &g_array_index (expected, TextSlice, i)), ==, 0);
}

/* What clipping to [start, end] must give: each slice that overlaps the
 * window, cut to it. */
static GArray *
clip_slices (GArray *slices,
             gint64 start,
             gint64 end)
{
  GArray *clipped = g_array_new (FALSE, FALSE, sizeof (TextSlice));

  for (guint i = 0; i < slices->len; i++)
    {
      TextSlice s = g_array_index (slices, TextSlice, i);

      if (s.end < start || s.begin > end)
        continue;
      s.begin = MAX (s.begin, start);
      s.end = MIN (s.end, end);
      g_array_append_val (clipped, s);
    }
  g_array_sort (clipped, text_slice_order);
  return clipped;
}

/* Other events: kept exactly when inside the window; metadata always. */
static void
check_window_events (TraceBatch *all,
                     TraceBatch *out,
                     gint64 start,
                     gint64 end)
{
  guint in_window = 0, kept = 0, meta_all = 0, meta_out = 0;

  for (guint i = 0; i < all->n_events; i++)
    {
      const TraceEvent *ev = &all->events[i];

      meta_all += is_metadata (ev);
      in_window += !is_metadata (ev) && trace_event_kind_get_group (ev->kind) != TRACE_EVENT_GROUP_SLICES &&
                   trace_event_kind_get_group (ev->kind) != TRACE_EVENT_GROUP_ASYNC && ev->ts >= start && ev->ts <= end;
    }
  for (guint i = 0; i < out->n_events; i++)
    {
      const TraceEvent *ev = &out->events[i];

      if (is_metadata (ev))
        {
          meta_out++;
          continue;
        }
      /* nothing outside the window */
      g_assert_cmpint (ev->ts, >=, start);
      g_assert_cmpint (ev->ts, <=, end);
      kept += trace_event_kind_get_group (ev->kind) != TRACE_EVENT_GROUP_SLICES &&
              trace_event_kind_get_group (ev->kind) != TRACE_EVENT_GROUP_ASYNC;
    }
  g_assert_cmpuint (kept, ==, in_window);
  g_assert_cmpuint (meta_out, ==, meta_all);
}

static GArray *
thread_slices_of (TraceBatch *batch,
                  gint64 start,
                  gint64 end,
                  guint *cut)
{
  g_autoptr (GArray) got = tl_slices_from_batch (batch); /* asserts it is balanced */
  GArray *mine = g_array_sized_new (FALSE, FALSE, sizeof (TextSlice), got->len);

  *cut = 0;
  for (guint i = 0; i < got->len; i++)
    {
      const TlSlice *s = &g_array_index (got, TlSlice, i);
      TextSlice t = { s->tid, s->begin, s->end, g_intern_string (s->name) };

      g_array_append_val (mine, t);
      *cut += s->begin == start || s->end == end;
    }
  g_array_sort (mine, text_slice_order);
  return mine;
}

/* The middle third of the slices of catapult_decompressed_atrace_data.txt
 * (from 683202.115809 s to 683202.352760 s), edges half a microsecond
 * off any event (the file has µs times), so which side an event is on is
 * never a question.  Thread slices (B|/E) and async ones (S|/F|) that
 * cross an edge are cut there. */
static void
test_time_window (void)
{
  const char *path = DATA ("catapult_decompressed_atrace_data.txt");
  TextSlices text;
  gint64 start, end;
  g_autoptr (GArray) expected = NULL, expected_async = NULL, got = NULL, got_async = NULL;
  g_autoptr (TlRun) all = run_file (path, NULL);
  g_autoptr (TlRun) run = NULL;
  g_autofree char *filter = NULL;
  guint cut;

  text_slices (path, &text);
  start = text.first + (text.last - text.first) / 3 / TL_US * TL_US + 500;
  end = text.first + (text.last - text.first) * 2 / 3 / TL_US * TL_US + 500;
  filter = g_strdup_printf ("filter start=%" G_GINT64_FORMAT " end=%" G_GINT64_FORMAT " name=f", start, end);
  run = run_file (path, filter);

  expected = clip_slices (text.slices, start, end);
  expected_async = clip_slices (text.async, start, end);
  got = thread_slices_of (run->events, start, end, &cut);
  got_async = output_async (run->events);
  g_test_message ("window %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT " ns: %u of %u slices, %u cut at an edge; "
                  "%u of %u async slices",
                  start, end, got->len, text.slices->len, cut, got_async->len,
                  text.async->len);
  assert_same_slices (got, expected);
  assert_same_slices (got_async, expected_async);
  /* both edges cut slices: the case under test happened */
  g_assert_cmpuint (cut, >, 1);
  g_assert_cmpint (tl_run_stat (run, "f", "synthesized"), >, 0);
  check_window_events (all->events, run->events, start, end);
  g_array_unref (text.slices);
  g_array_unref (text.async);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  test_register_collect_sink ();
  /* task-TID (TGID) [CPU] flags SEC.FRAC: event: payload (flags optional) */
  event_re = g_regex_new ("^\\s*.*?-(\\d+)\\s+(?:\\(\\s*([-\\d]+)\\)\\s+)?\\[\\d+\\]\\s+(?:[^\\s\\[]{4,5}\\s+)?"
                          "(\\d+)\\.(\\d+):\\s+([^:\\s]+):\\s*(.*)$",
                          0, 0, NULL);
  proc_re = g_regex_new ("^/proc/(\\d+)/task/(\\d+)$", 0, 0, NULL);
  g_test_add_data_func ("/timeline/filter/tid-main/corpus", "filter tid=main name=f", test_corpus_main_threads);
  g_test_add_data_func ("/timeline/main-thread-filter/corpus", "main-thread-filter name=f", test_corpus_main_threads);
  g_test_add_data_func ("/timeline/filter/tid-main/dumps", "filter tid=main name=f", test_dumps_main_threads);
  g_test_add_data_func ("/timeline/main-thread-filter/dumps", "main-thread-filter name=f", test_dumps_main_threads);
  g_test_add_func ("/timeline/filter/time-window", test_time_window);
  return g_test_run ();
}
