/* What a person counts in an input file, against what the Perfetto file
 * written from it holds (read back with perfetto-src): per corpus file,
 * complete slices (B/E pairs per thread, X events), counter values, named
 * threads, sched_switch records. trace_processor, the reference, is not
 * packaged by Debian and these tests do not need it;
 * these counts are what its import of the original would show, derived
 * from the text (ftrace) or by json-glib (JSON), independently of the
 * sources' parsers. */
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>

#include "rt-util.h"

typedef struct
{
  GHashTable *slices;   /* "thread name" → count of complete slices */
  GHashTable *counters; /* "pid name value" → count */
  GHashTable *names;    /* thread → its last name */
  guint n_slices, n_counters, switches;
} Facts;

static void
facts_init (Facts *f)
{
  f->slices = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  f->counters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  f->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  f->n_slices = f->n_counters = f->switches = 0;
}

static void
facts_clear (Facts *f)
{
  g_hash_table_unref (f->slices);
  g_hash_table_unref (f->counters);
  g_hash_table_unref (f->names);
}

static void
bump (GHashTable *table,
      char *key)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (table, key));

  g_hash_table_replace (table, key, GUINT_TO_POINTER (n + 1));
}

static char *
value_text (double v)
{
  return g_strdup_printf ("%.17g", v);
}

/* Same keys and counts (or values); every difference in the log. */
static void
assert_same_table (const char *what,
                   GHashTable *want,
                   GHashTable *got,
                   gboolean counts)
{
  GHashTableIter iter;
  gpointer key, value;
  guint diffs = 0;

  g_hash_table_iter_init (&iter, want);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gpointer other = NULL;

      if (!g_hash_table_lookup_extended (got, key, NULL, &other))
        diffs++, g_test_message ("%s: \"%s\" missing", what, (char *) key);
      else if (counts && other != value)
        diffs++, g_test_message ("%s: \"%s\": %u read back, %u in the input", what, (char *) key,
                                 GPOINTER_TO_UINT (other), GPOINTER_TO_UINT (value));
      else if (!counts && g_strcmp0 (other, value) != 0)
        diffs++, g_test_message ("%s: %s: \"%s\" read back, \"%s\" in the input", what, (char *) key,
                                 (char *) other, (char *) value);
    }
  g_hash_table_iter_init (&iter, got);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (want, key))
      diffs++, g_test_message ("%s: \"%s\" read back, not in the input", what, (char *) key);
  if (diffs)
    g_test_fail_printf ("%s: %u differences (in the log)", what, diffs);
}

/* ---- ftrace text ---- */

/* JS-escaped lines (HTML, or text cut out of it) end in "\n\", the last
 * one in "\n". */
static GStrv
unescape_lines (GStrv lines)
{
  for (guint i = 0; lines[i]; i++)
    {
      gsize n = strlen (lines[i]);

      if (n >= 3 && g_str_has_suffix (lines[i], "\\n\\"))
        lines[i][n - 3] = '\0';
      else if (n >= 2 && g_str_has_suffix (lines[i], "\\n"))
        lines[i][n - 2] = '\0';
    }
  return lines;
}

/* The first place @tag opens a line (after blanks): a full export's
 * viewer code holds the same text inside its JavaScript. */
static char *
line_starting_with (char *text,
                    const char *tag)
{
  for (char *p = strstr (text, tag); p != NULL; p = strstr (p + 1, tag))
    {
      char *q = p;

      while (q > text && (q[-1] == ' ' || q[-1] == '\t'))
        q--;
      if (q == text || q[-1] == '\n')
        return p;
    }
  return NULL;
}

/* The lines of every trace-data block from @start on (a PROCESS DUMP
 * block, the ftrace text, JSON blocks: each line is judged on its own). */
static char **
trace_data_lines (char *start)
{
  g_autoptr (GString) text = g_string_new (NULL);

  for (; start != NULL; start = line_starting_with (start + 1, "<script class=\"trace-data\""))
    {
      char *body = strchr (start, '>') + 1, *end = strstr (body, "</script>");

      g_assert_nonnull (end);
      g_string_append_len (text, body, end - body);
      g_string_append_c (text, '\n');
    }
  return unescape_lines (rt_split_lines (text->str));
}

/* The ftrace lines of a systrace/atrace file: HTML's trace-data script or
 * linuxPerfData string, atrace -z's zlib after TRACE:, hitrace's zlib. */
static GStrv
ftrace_lines (const char *path)
{
  g_autofree char *raw = NULL;
  g_autofree char *inner = NULL;
  gsize len;
  char *start, *end;

  g_assert_true (g_file_get_contents (path, &raw, &len, NULL));
  /* atrace -z after its banner; hitrace's bare zlib stream from byte 0 */
  if ((g_str_has_prefix (raw, "TRACE:\n") && (guchar) raw[7] == 0x78) || (len > 2 && (guchar) raw[0] == 0x78))
    {
      gsize skip = (guchar) raw[0] == 0x78 ? 0 : 7;
      g_autoptr (GConverter) z = G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_ZLIB));
      g_autoptr (GInputStream) mem = g_memory_input_stream_new_from_data (raw + skip, len - skip, NULL);
      g_autoptr (GInputStream) in = g_converter_input_stream_new (mem, z);
      g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();

      g_assert_cmpint (g_output_stream_splice (out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, NULL), >, 0);
      g_output_stream_write (out, "", 1, NULL, NULL);
      inner = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
      return rt_split_lines (inner);
    }
  if ((start = line_starting_with (raw, "<script class=\"trace-data\"")) != NULL)
    return trace_data_lines (start);
  else if ((start = strstr (raw, "var linuxPerfData = \"")) != NULL)
    {
      char *script_end;

      /* legacy HTML: a JS string, or (trappy's stripped files) plain
       * lines up to the end of the script */
      start += strlen ("var linuxPerfData = \"");
      end = strstr (start, "\";");
      script_end = strstr (start, "</script>");
      if (end == NULL || (script_end && script_end < end))
        end = script_end;
    }
  else
    return unescape_lines (rt_split_lines (raw));
  g_assert_nonnull (end);
  inner = g_strndup (start, end - start);
  return unescape_lines (rt_split_lines (inner));
}

/* A `key=value` of an ftrace payload: the value runs to the next
 * ` key=` or ` ==>`, as ftrace prints it. */
static char *
field (const char *payload,
       const char *key)
{
  g_autofree char *needle = g_strdup_printf ("%s=", key);
  const char *p = payload, *v, *e;

  while ((p = strstr (p, needle)) != NULL && p != payload && p[-1] != ' ')
    p++;
  if (p == NULL)
    return NULL;
  v = p + strlen (needle);
  for (e = v; *e; e++)
    {
      const char *k = e + 1;

      if (*e != ' ')
        continue;
      if (g_str_has_prefix (e, " ==>"))
        break;
      while (g_ascii_isalnum (*k) || *k == '_')
        k++;
      if (*k == '=' && k > e + 1)
        break;
    }
  return g_strndup (v, e - v);
}

static void
name_thread (Facts *f,
             const char *tid,
             const char *name,
             gboolean overwrite)
{
  if (tid == NULL || name == NULL || g_str_equal (tid, "0"))
    return;
  if (!overwrite && g_hash_table_contains (f->names, tid))
    return;
  g_hash_table_replace (f->names, g_strdup (tid), g_strdup (name));
}

/* What a line's kernel record teaches about thread names, as
 * trace_processor reads it: the latest of the task column, sched_switch
 * comms and sched_waking's comm wins; sched_wakeup names no one. */
static void
kernel_names (Facts *f,
              const char *event,
              const char *payload)
{
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL;

  if (g_str_equal (event, "sched_switch"))
    {
      a = field (payload, "prev_pid"), b = field (payload, "prev_comm");
      c = field (payload, "next_pid"), d = field (payload, "next_comm");
      name_thread (f, a, b, TRUE);
      name_thread (f, c, d, TRUE);
    }
  else if (g_str_equal (event, "sched_waking"))
    {
      a = field (payload, "pid"), b = field (payload, "comm");
      name_thread (f, a, b, TRUE);
    }
  else if (g_str_equal (event, "task_newtask"))
    {
      a = field (payload, "pid"), b = field (payload, "comm");
      name_thread (f, a, b, TRUE);
    }
  else if (g_str_equal (event, "task_rename"))
    {
      a = field (payload, "pid"), b = field (payload, "newcomm");
      name_thread (f, a, b, TRUE);
    }
}

/* An atrace marker: B|pid|name opens a slice on the writing thread, E
 * closes its innermost one, C|pid|name|value is a counter value. */
static void
marker (Facts *f,
        GHashTable *open,
        const char *tid,
        const char *payload)
{
  g_auto (GStrv) parts = g_strsplit (payload, "|", 4);
  GPtrArray *stack = g_hash_table_lookup (open, tid);
  guint n = g_strv_length (parts);
  char *end = NULL;

  if (stack == NULL)
    {
      stack = g_ptr_array_new_with_free_func (g_free);
      g_hash_table_insert (open, g_strdup (tid), stack);
    }
  if (g_str_equal (parts[0], "B") && n >= 3 && atoi (parts[1]) > 0)
    g_ptr_array_add (stack, g_strjoinv ("|", parts + 2));
  else if (g_str_equal (parts[0], "E") && stack->len > 0)
    {
      bump (f->slices, g_strdup_printf ("%s %s", tid, (char *) stack->pdata[stack->len - 1]));
      g_ptr_array_remove_index (stack, stack->len - 1);
      f->n_slices++;
    }
  else if (g_str_equal (parts[0], "C") && n == 4 && atoi (parts[1]) > 0)
    {
      /* C|pid|name|value[|category] */
      g_auto (GStrv) rest = g_strsplit (parts[3], "|", 2);
      double v = g_ascii_strtod (rest[0], &end);
      g_autofree char *vt = value_text (v);

      if (*end == '\0' && end != rest[0])
        {
          bump (f->counters, g_strdup_printf ("%s %s %s", parts[1], parts[2], vt));
          f->n_counters++;
        }
    }
}

static void
ftrace_facts (const char *path,
              Facts *f)
{
  g_auto (GStrv) lines = ftrace_lines (path);
  g_autoptr (GHashTable) open = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GRegex) line_re = g_regex_new ("^\\s*(.*)-(\\d+)\\s+(?:\\(\\s*[-\\d]*\\)\\s*)?\\[\\d+\\]\\s*\\S*?\\s*\\d+\\.\\d+:\\s+([^:\\s]+):\\s*(.*?)\\s*$",
                                            0, 0, NULL);
  g_autoptr (GRegex) caller_re = g_regex_new ("^(0x[0-9a-fA-F]{8,}s?: |tracing_mark_write: )", 0, 0, NULL);

  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr (GMatchInfo) m = NULL;
      g_autofree char *task = NULL, *tid = NULL, *event = NULL, *payload = NULL;

      if (lines[i][0] == '#' || !g_regex_match (line_re, lines[i], 0, &m))
        continue;
      task = g_strstrip (g_match_info_fetch (m, 1));
      tid = g_match_info_fetch (m, 2);
      event = g_match_info_fetch (m, 3);
      payload = g_match_info_fetch (m, 4);
      if (!g_str_equal (task, "<...>") && !g_str_equal (task, "<idle>") && !(task[0] == '<' && g_ascii_isdigit (task[1])))
        name_thread (f, tid, task, TRUE);
      kernel_names (f, event, payload);
      if (g_str_equal (event, "sched_switch"))
        f->switches++;
      else if (g_str_equal (event, "tracing_mark_write") || g_str_equal (event, "0"))
        marker (f, open, tid, payload);
      else if (g_str_equal (event, "print"))
        {
          g_autofree char *bare = g_regex_replace (caller_re, payload, -1, 0, "", 0, NULL);

          marker (f, open, tid, bare);
        }
    }
}

/* ---- what the Perfetto file holds ---- */

static void
read_back_facts (TraceBatch *back,
                 gboolean by_tid,
                 Facts *f)
{
  g_autoptr (GArray) slices = rt_slices (back);

  for (guint i = 0; i < slices->len; i++)
    {
      RtSlice *s = &g_array_index (slices, RtSlice, i);

      bump (f->slices, by_tid ? g_strdup_printf ("%" G_GINT64_FORMAT " %s", s->tid, s->name) : g_strdup (s->name));
      f->n_slices++;
    }
  for (guint i = 0; i < back->n_events; i++)
    {
      const TraceEvent *ev = &back->events[i];
      const char *name = trace_string_pool_get (back->pool, ev->name);
      g_autofree char *vt = NULL;

      if (ev->kind == TRACE_EVENT_COUNTER)
        {
          vt = value_text (ev->u.counter.value);
          bump (f->counters, by_tid ? g_strdup_printf ("%" G_GINT64_FORMAT " %s %s", ev->pid, name, vt)
                                    : g_strdup_printf ("%s %s", name, vt));
          f->n_counters++;
        }
      else if (ev->kind == TRACE_EVENT_THREAD_NAME)
        g_hash_table_replace (f->names, by_tid ? g_strdup_printf ("%" G_GINT64_FORMAT, ev->tid) : g_strdup (name),
                              g_strdup (name));
      else if (ev->kind == TRACE_EVENT_SCHED_SWITCH || (ev->kind == TRACE_EVENT_FTRACE && g_str_equal (name, "sched_switch")))
        f->switches++;
    }
}

static TraceBatch *
through_perfetto (const char *source,
                  const char *path)
{
  g_autofree char *dir = rt_tmpdir ();
  g_autofree char *out = g_build_filename (dir, "out.pftrace", NULL);
  g_autofree char *write_desc = g_strdup_printf ("%s location=%s ! perfetto-sink location=%s", source, path, out);
  g_autofree char *read_desc = g_strdup_printf ("perfetto-src location=%s ! collectsink name=out", out);
  TraceBatch *back;

  rt_run (write_desc, FALSE);
  back = rt_run (read_desc, TRUE);
  rt_rmtree (dir);
  return back;
}

static void
test_ftrace_file (gconstpointer data)
{
  const char *path = data;
  g_autofree char *base = g_path_get_basename (path);
  g_autoptr (TraceBatch) back = NULL;
  Facts want, got;

  /* RheaTrace's own line layout is no ftrace text (tests/unit/rhea) */
  if (g_str_has_prefix (base, "btrace_"))
    {
      g_test_skip ("RheaTrace layout, not ftrace text");
      return;
    }
  facts_init (&want);
  facts_init (&got);
  ftrace_facts (path, &want);
  back = through_perfetto ("ftrace-src", path);
  read_back_facts (back, TRUE, &got);
  g_test_message ("%s: %u slices, %u counter values, %u named threads, %u sched_switch", base, want.n_slices,
                  want.n_counters, g_hash_table_size (want.names), want.switches);
  assert_same_table ("slices", want.slices, got.slices, TRUE);
  assert_same_table ("counters", want.counters, got.counters, TRUE);
  /* (the tables count; their sums too, for the log) */
  if (got.n_slices != want.n_slices || got.n_counters != want.n_counters)
    g_test_fail_printf ("%u slices and %u counter values read back", got.n_slices, got.n_counters);
  assert_same_table ("thread names", want.names, got.names, FALSE);
  if (got.switches != want.switches)
    g_test_fail_printf ("%u sched_switch read back", got.switches);
  facts_clear (&want);
  facts_clear (&got);
}

/* ---- JSON ---- */

static char *
member_text (JsonObject *o,
             const char *key)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return g_strdup ("");
  if (json_node_get_value_type (n) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (n));
  return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (n));
}

static gboolean
is_number (JsonNode *n)
{
  return n && JSON_NODE_HOLDS_VALUE (n) && (json_node_get_value_type (n) == G_TYPE_INT64 || json_node_get_value_type (n) == G_TYPE_DOUBLE);
}

/* ts and dur may also be numeric strings (trace_processor coerces them) */
static gboolean
is_time (JsonNode *n)
{
  char *end = NULL;

  if (is_number (n))
    return TRUE;
  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return FALSE;
  g_ascii_strtod (json_node_get_string (n), &end);
  return end != json_node_get_string (n) && *end == '\0';
}

/* Events of string tids, which trace_processor names by the string at
 * every event: a thread_name metadata event of one keeps its name only if
 * no other event of the tid comes later in time (or at the same time,
 * later in the file). */
typedef struct
{
  char *tid;
  double ts;
  guint index;
  char *meta_name; /* of a thread_name event */
} StringTidEvent;

static void
string_tid_event_clear (gpointer data)
{
  StringTidEvent *e = data;

  g_free (e->tid);
  g_free (e->meta_name);
}

static double
event_time (JsonObject *ev)
{
  g_autofree char *ts = NULL;
  JsonNode *n = json_object_get_member (ev, "ts");

  if (n == NULL || !is_time (n))
    return 0; /* metadata without ts: 0, as trace_processor */
  if (is_number (n))
    return json_node_get_double (n);
  ts = member_text (ev, "ts");
  return g_ascii_strtod (ts, NULL);
}

static void
string_tid_names (GArray *events,
                  Facts *f)
{
  for (guint i = 0; i < events->len; i++)
    {
      const StringTidEvent *m = &g_array_index (events, StringTidEvent, i);
      gboolean kept = m->meta_name != NULL;

      for (guint k = 0; k < events->len && kept; k++)
        {
          const StringTidEvent *e = &g_array_index (events, StringTidEvent, k);

          if (k != i && g_str_equal (e->tid, m->tid) && (e->ts > m->ts || (e->ts == m->ts && e->index > m->index)))
            kept = FALSE;
        }
      if (kept)
        g_hash_table_replace (f->names, g_strdup (m->meta_name), g_strdup (m->meta_name));
    }
}

static void
json_event_facts (JsonObject *ev,
                  guint index,
                  GArray *string_tid_events,
                  GHashTable *open,
                  Facts *f)
{
  JsonNode *tid_node = json_object_get_member (ev, "tid");
  gboolean string_tid = tid_node != NULL && JSON_NODE_HOLDS_VALUE (tid_node) &&
                        json_node_get_value_type (tid_node) == G_TYPE_STRING && *json_node_get_string (tid_node) &&
                        json_object_has_member (ev, "ph") && !g_str_equal (json_object_get_string_member (ev, "ph"), "P");
  const char *ph = json_object_has_member (ev, "ph") ? json_object_get_string_member (ev, "ph") : "";
  const char *name = json_object_has_member (ev, "name") ? json_object_get_string_member (ev, "name") : "";
  g_autofree char *pid = member_text (ev, "pid");
  g_autofree char *tid = json_object_has_member (ev, "tid") ? member_text (ev, "tid") : g_strdup (pid);
  g_autofree char *thread = g_strdup_printf ("%s/%s", pid, tid);
  GPtrArray *stack = g_hash_table_lookup (open, thread);

  if (stack == NULL)
    {
      stack = g_ptr_array_new_with_free_func (g_free);
      g_hash_table_insert (open, g_strdup (thread), stack);
    }
  if (ph == NULL || name == NULL)
    return;
  if (string_tid)
    {
      StringTidEvent e = { g_strdup (tid), event_time (ev), index, NULL };

      if (g_str_equal (ph, "M") && g_str_equal (name, "thread_name") && json_object_has_member (ev, "args"))
        {
          JsonObject *args = json_object_get_object_member (ev, "args");

          if (json_object_has_member (args, "name"))
            e.meta_name = g_strdup (json_object_get_string_member (args, "name"));
        }
      g_array_append_val (string_tid_events, e);
      /* the thread's name is the string (trace_processor's reading) */
      g_hash_table_replace (f->names, g_strdup (tid), g_strdup (tid));
      if (e.meta_name != NULL)
        return;
    }
  /* A complete event of length 0 is an instant, as trace_processor
   * shows it; an E closes the innermost B of its name (any B when it
   * has none) and is ignored when none matches, as trace_processor
   * does. */
  if (g_str_equal (ph, "X") && is_time (json_object_get_member (ev, "dur")) && is_time (json_object_get_member (ev, "ts")))
    {
      if (json_object_get_double_member (ev, "dur") != 0 || json_node_get_value_type (json_object_get_member (ev, "dur")) == G_TYPE_STRING)
        bump (f->slices, g_strdup (name)), f->n_slices++;
    }
  else if (g_str_equal (ph, "B") && is_time (json_object_get_member (ev, "ts")))
    g_ptr_array_add (stack, g_strdup (name));
  else if (g_str_equal (ph, "E"))
    {
      for (guint i = stack->len; i-- > 0;)
        if (*name == '\0' || *(char *) stack->pdata[i] == '\0' || g_str_equal (name, stack->pdata[i]))
          {
            bump (f->slices, g_strdup (stack->pdata[i]));
            g_ptr_array_remove_index (stack, i);
            f->n_slices++;
            break;
          }
    }
  else if (g_str_equal (ph, "C") && json_object_has_member (ev, "args"))
    {
      JsonObject *args = json_object_get_object_member (ev, "args");
      g_autoptr (GList) keys = json_object_get_members (args);
      g_autofree char *id = json_object_has_member (ev, "id") ? member_text (ev, "id") : NULL;

      /* trace_processor names each value "<name> <key>", "<name> id: <id> <key>" */
      for (GList *k = keys; k; k = k->next)
        if (is_number (json_object_get_member (args, k->data)))
          {
            g_autofree char *vt = value_text (json_object_get_double_member (args, k->data));

            bump (f->counters, id ? g_strdup_printf ("%s id: %s %s %s", name, id, (char *) k->data, vt)
                                  : g_strdup_printf ("%s %s %s", name, (char *) k->data, vt));
            f->n_counters++;
          }
    }
  else if (g_str_equal (ph, "M") && g_str_equal (name, "thread_name") && json_object_has_member (ev, "args"))
    {
      JsonObject *args = json_object_get_object_member (ev, "args");
      const char *tname = json_object_has_member (args, "name") ? json_object_get_string_member (args, "name") : NULL;

      if (tname)
        g_hash_table_replace (f->names, g_strdup (tname), g_strdup (tname));
    }
}

/* Returns: FALSE when json-glib cannot read the whole file (the partial
 * fixtures: their meaning is json-src's business, tests/unit/json) */
static gboolean
json_facts (const char *path,
            Facts *f)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GHashTable) open = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GArray) string_tid_events = g_array_new (FALSE, TRUE, sizeof (StringTidEvent));
  JsonNode *root;
  JsonArray *events;

  if (!json_parser_load_from_file (parser, path, NULL))
    return FALSE;
  root = json_parser_get_root (parser);
  if (JSON_NODE_HOLDS_ARRAY (root))
    events = json_node_get_array (root);
  else
    events = json_object_get_array_member (json_node_get_object (root), "traceEvents");
  for (guint i = 0; i < json_array_get_length (events); i++)
    if (JSON_NODE_HOLDS_OBJECT (json_array_get_element (events, i)))
      json_event_facts (json_array_get_object_element (events, i), i, string_tid_events, open, f);
  string_tid_names (string_tid_events, f);
  g_array_set_clear_func (string_tid_events, string_tid_event_clear);
  return TRUE;
}

static void
test_json_file (gconstpointer data)
{
  const char *path = data;
  g_autofree char *base = g_path_get_basename (path);
  g_autoptr (TraceBatch) back = NULL;
  Facts want, got;

  /* Their begun slices are left open inside a complete slice that comes
   * later in the file but earlier in time (simple_trace), or their ends
   * come first at the time of their begins (x_event_trace):
   * trace_processor cuts the slices at that complete slice's end or
   * leaves them open (docs/perfetto.md, misplaced ends), which a count by
   * hand does not; rt-perfetto checks these files against the rule. */
  if (g_str_equal (base, "catapult_simple_trace.json") || g_str_equal (base, "catapult_x_event_trace.json"))
    {
      g_test_skip ("nesting decided by trace_processor's order, see rt-perfetto");
      return;
    }
  facts_init (&want);
  facts_init (&got);
  if (!json_facts (path, &want))
    {
      g_test_skip ("not complete JSON");
      facts_clear (&want);
      facts_clear (&got);
      return;
    }
  back = through_perfetto ("json-src", path);
  read_back_facts (back, FALSE, &got);
  g_test_message ("%s: %u slices, %u counter values, %u thread names", base, want.n_slices, want.n_counters,
                  g_hash_table_size (want.names));
  assert_same_table ("slices", want.slices, got.slices, TRUE);
  assert_same_table ("counters", want.counters, got.counters, TRUE);
  /* (the tables count; their sums too, for the log) */
  if (got.n_slices != want.n_slices || got.n_counters != want.n_counters)
    g_test_fail_printf ("%u slices and %u counter values read back", got.n_slices, got.n_counters);
  assert_same_table ("thread names", want.names, got.names, FALSE);
  facts_clear (&want);
  facts_clear (&got);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  test_register_collect_sink ();
  rt_add_corpus ("facts", "ftrace", test_ftrace_file, NULL);
  rt_add_corpus ("facts", "json", test_json_file, NULL);
  return g_test_run ();
}
