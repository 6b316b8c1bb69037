/* Helpers of the timeline end-to-end tests. */
#include <string.h>

#include <glib/gstdio.h>

#include "timeline-util.h"

#define RUN_TIMEOUT_MS 60000

static gboolean
on_timeout (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Like test_run_pipeline(), but every message is kept: the tests check
 * what the elements said (clock decisions, repair summaries, stats). */
static void
run_until_end (TlRun *run)
{
  TracePipeline *p = TRACE_PIPELINE (run->pipeline);
  GMainContext *ctx = trace_pipeline_get_context (p);
  TraceBus *bus = trace_pipeline_get_bus (p);
  GSource *timer = g_timeout_source_new (RUN_TIMEOUT_MS);
  gboolean timed_out = FALSE;

  g_source_set_callback (timer, on_timeout, &timed_out, NULL);
  g_source_attach (timer, ctx);
  if (trace_element_set_state (run->pipeline, TRACE_STATE_PLAYING) != TRACE_STATE_CHANGE_SUCCESS)
    run->end = trace_bus_pop_filtered (bus, TRACE_MESSAGE_ERROR);
  while (run->end == NULL && !timed_out)
    {
      TraceMessage *msg;

      g_main_context_iteration (ctx, TRUE);
      while (run->end == NULL && (msg = trace_bus_pop (bus)) != NULL)
        {
          g_ptr_array_add (run->messages, msg);
          if (msg->type == TRACE_MESSAGE_ERROR ||
              (msg->type == TRACE_MESSAGE_EOS && msg->src == G_OBJECT (run->pipeline)))
            run->end = trace_message_ref (msg);
        }
    }
  /* What was posted with the EOS (late stats) is wanted too. */
  for (TraceMessage *msg; (msg = trace_bus_pop (bus)) != NULL;)
    g_ptr_array_add (run->messages, msg);
  g_source_destroy (timer);
  g_source_unref (timer);
}

/**
 * tl_run:
 * @description: a launch description
 *
 * Runs it to the end; a test that expects success asserts
 * `run->end->type == TRACE_MESSAGE_EOS` itself (the error is then shown).
 */
TlRun *
tl_run (const char *description)
{
  g_autoptr (GError) error = NULL;
  TlRun *run = g_new0 (TlRun, 1);
  TraceElement *out;

  g_test_message ("trace-launch %s", description);
  run->pipeline = trace_parse_launch (description, &error);
  g_assert_no_error (error);
  run->messages = g_ptr_array_new_with_free_func ((GDestroyNotify) trace_message_unref);
  out = trace_bin_get_by_name (TRACE_BIN (run->pipeline), "out");
  if (out != NULL)
    {
      run->events = trace_batch_new (trace_pipeline_get_string_pool (TRACE_PIPELINE (run->pipeline)), 0);
      g_object_set_data (G_OBJECT (out), "collect", run->events);
    }
  run_until_end (run);
  g_assert_nonnull (run->end);
  if (run->end->type == TRACE_MESSAGE_ERROR)
    g_test_message ("ended with an error: %s", run->end->error->message);
  if (out != NULL && TRACE_IS_BASE_SINK (out))
    {
      const TraceStreamInfo *info = trace_base_sink_get_stream_info (TRACE_BASE_SINK (out));

      run->out_clock = info ? info->clock_domain : TRACE_CLOCK_UNKNOWN;
    }
  trace_element_set_state (run->pipeline, TRACE_STATE_NULL);
  return run;
}

void
tl_run_free (TlRun *run)
{
  g_clear_pointer (&run->events, trace_batch_unref);
  g_clear_pointer (&run->messages, g_ptr_array_unref);
  g_clear_pointer (&run->end, trace_message_unref);
  g_clear_object (&run->pipeline);
  g_free (run);
}

static gboolean
from_element (TraceMessage *msg,
              const char *element_name)
{
  const char *slash;

  if (element_name == NULL)
    return TRUE;
  if (msg->src_path == NULL)
    return FALSE;
  slash = strrchr (msg->src_path, '/');
  return g_strcmp0 (slash ? slash + 1 : msg->src_path, element_name) == 0;
}

TraceMessage *
tl_run_find (TlRun *run,
             TraceMessageType type,
             const char *element_name,
             const char *text)
{
  for (guint i = 0; i < run->messages->len; i++)
    {
      TraceMessage *msg = run->messages->pdata[i];

      if (msg->type != type || !from_element (msg, element_name))
        continue;
      if (text == NULL || (msg->error && strstr (msg->error->message, text)))
        return msg;
    }
  return NULL;
}

GVariant *
tl_run_clock_decision (TlRun *run,
                       const char *pad)
{
  for (guint i = 0; i < run->messages->len; i++)
    {
      TraceMessage *msg = run->messages->pdata[i];
      const char *name = NULL, *p = NULL;

      if (msg->type != TRACE_MESSAGE_ELEMENT || msg->details == NULL)
        continue;
      g_variant_lookup (msg->details, "name", "&s", &name);
      g_variant_lookup (msg->details, "pad", "&s", &p);
      if (g_strcmp0 (name, "clock-sync") == 0 && g_strcmp0 (p, pad) == 0)
        return msg->details;
    }
  return NULL;
}

gint64
tl_run_stat (TlRun *run,
             const char *element_name,
             const char *key)
{
  gint64 value = -1;

  /* The last STATS of the element is the final one. */
  for (guint i = 0; i < run->messages->len; i++)
    {
      TraceMessage *msg = run->messages->pdata[i];
      guint64 v;

      if (msg->type == TRACE_MESSAGE_STATS && msg->details && from_element (msg, element_name) &&
          g_variant_lookup (msg->details, key, "t", &v))
        value = (gint64) v;
    }
  return value;
}

/* ---- files ---------------------------------------------------------------- */

static char *tmp_dir;

char *
tl_tmp_path (const char *name)
{
  if (tmp_dir == NULL)
    {
      g_autoptr (GError) error = NULL;

      tmp_dir = g_dir_make_tmp ("tracepipe-timeline-XXXXXX", &error);
      g_assert_no_error (error);
    }
  return g_build_filename (tmp_dir, name, NULL);
}

void
tl_tmp_cleanup (void)
{
  GDir *dir;
  const char *name;

  if (tmp_dir == NULL || g_getenv ("TL_KEEP"))
    return;
  dir = g_dir_open (tmp_dir, 0, NULL);
  while (dir && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (tmp_dir, name, NULL);

      g_unlink (path);
    }
  if (dir)
    g_dir_close (dir);
  g_rmdir (tmp_dir);
  g_clear_pointer (&tmp_dir, g_free);
}

void
tl_write (const char *path,
          const char *text)
{
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

JsonNode *
tl_read_json (const char *path)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonNode *root;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  root = json_parser_get_root (parser);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  g_assert_true (json_object_has_member (json_node_get_object (root), "traceEvents"));
  return json_node_copy (json_object_get_member (json_node_get_object (root), "traceEvents"));
}

/* json-sink writes µs with the ns as an exact decimal fraction; a double
 * holds such a value to far below 1 ns at these magnitudes (< 2^53 ns). */
gint64
tl_json_ns (JsonObject *ev,
            const char *member)
{
  JsonNode *node = json_object_get_member (ev, member);
  double ns;

  g_assert_nonnull (node);
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return json_node_get_int (node) * TL_US;
  ns = json_node_get_double (node) * 1000.0;
  return (gint64) (ns + (ns >= 0 ? 0.5 : -0.5));
}

/* ---- slices ----------------------------------------------------------------- */

static const char *
repair_arg (TraceBatch *batch,
            const TraceEvent *ev)
{
  const TraceArg *args = trace_batch_get_args (batch, ev);

  for (guint a = 0; a < ev->n_args; a++)
    if (args[a].type == TRACE_ARG_STRING &&
        g_strcmp0 (trace_batch_get_string (batch, args[a].key), "repair") == 0)
      return trace_batch_get_string (batch, args[a].v.s);
  return NULL;
}

static GArray *
stack_of (GHashTable *stacks,
          gint64 pid,
          gint64 tid)
{
  /* tids are below 2^31 in these tests; a pid reusing a tid is another thread */
  gint64 key = pid * G_GINT64_CONSTANT (0x100000000) + tid;
  GArray *st = g_hash_table_lookup (stacks, &key);

  if (st == NULL)
    {
      st = g_array_new (FALSE, FALSE, sizeof (TlSlice));
      g_hash_table_insert (stacks, g_memdup2 (&key, sizeof key), st);
    }
  return st;
}

static void
assert_all_closed (GHashTable *stacks)
{
  GHashTableIter iter;
  GArray *st;

  g_hash_table_iter_init (&iter, stacks);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &st))
    g_assert_cmpuint (st->len, ==, 0);
}

static GHashTable *
new_stacks (void)
{
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) g_array_unref);
}

/* An end closes the innermost open slice of its thread; with none open
 * the stream is not balanced. */
static void
close_slice (GArray *slices,
             GArray *st,
             gint64 ts,
             const char *repair)
{
  TlSlice s;

  g_assert_cmpuint (st->len, >, 0);
  s = g_array_index (st, TlSlice, st->len - 1);
  g_array_set_size (st, st->len - 1);
  s.end = ts;
  if (repair)
    s.repair = repair;
  g_assert_cmpint (s.end, >=, s.begin);
  g_array_append_val (slices, s);
}

GArray *
tl_slices_from_batch (TraceBatch *batch)
{
  GArray *slices = g_array_new (FALSE, FALSE, sizeof (TlSlice));
  g_autoptr (GHashTable) stacks = new_stacks ();

  for (guint i = 0; i < batch->n_events; i++)
    {
      const TraceEvent *ev = &batch->events[i];
      TlSlice s = { ev->pid, ev->tid, ev->ts, ev->ts, NULL, NULL };

      switch (ev->kind)
        {
        case TRACE_EVENT_SLICE_COMPLETE:
          s.end = ev->ts + ev->u.slice.dur;
          s.name = trace_batch_get_string (batch, ev->name);
          s.repair = repair_arg (batch, ev);
          g_array_append_val (slices, s);
          break;
        case TRACE_EVENT_SLICE_BEGIN:
          s.name = trace_batch_get_string (batch, ev->name);
          s.repair = repair_arg (batch, ev);
          g_array_append_val (stack_of (stacks, ev->pid, ev->tid), s);
          break;
        case TRACE_EVENT_SLICE_END:
          close_slice (slices, stack_of (stacks, ev->pid, ev->tid), ev->ts, repair_arg (batch, ev));
          break;
        default:
          break;
        }
    }
  assert_all_closed (stacks);
  return slices;
}

static gint64
json_id (JsonObject *ev,
         const char *member)
{
  return json_object_has_member (ev, member) ? json_object_get_int_member (ev, member) : -1;
}

static const char *
json_repair (JsonObject *ev)
{
  JsonObject *args;

  if (!json_object_has_member (ev, "args"))
    return NULL;
  args = json_object_get_object_member (ev, "args");
  return json_object_has_member (args, "repair") ? g_intern_string (json_object_get_string_member (args, "repair")) : NULL;
}

GArray *
tl_slices_from_json (JsonNode *events)
{
  GArray *slices = g_array_new (FALSE, FALSE, sizeof (TlSlice));
  g_autoptr (GHashTable) stacks = new_stacks ();
  JsonArray *array = json_node_get_array (events);

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *ev = json_array_get_object_element (array, i);
      const char *ph = json_object_get_string_member (ev, "ph");
      TlSlice s = { json_id (ev, "pid"), json_id (ev, "tid"), 0, 0, NULL, json_repair (ev) };

      if (strcmp (ph, "X") != 0 && strcmp (ph, "B") != 0 && strcmp (ph, "E") != 0)
        continue;
      s.begin = s.end = tl_json_ns (ev, "ts");
      if (strcmp (ph, "E") == 0)
        {
          close_slice (slices, stack_of (stacks, s.pid, s.tid), s.begin, s.repair);
          continue;
        }
      /* interned: the slices outlive the document */
      s.name = g_intern_string (json_object_get_string_member (ev, "name"));
      if (strcmp (ph, "B") == 0)
        g_array_append_val (stack_of (stacks, s.pid, s.tid), s);
      else
        {
          s.end = s.begin + tl_json_ns (ev, "dur");
          g_array_append_val (slices, s);
        }
    }
  assert_all_closed (stacks);
  return slices;
}

static guint
slice_hash (gconstpointer p)
{
  const TlSlice *s = p;

  return g_int64_hash (&s->begin) * 31 + g_int64_hash (&s->tid);
}

static gboolean
slice_equal (gconstpointer a,
             gconstpointer b)
{
  const TlSlice *x = a, *y = b;

  return x->tid == y->tid && x->begin == y->begin;
}

GHashTable *
tl_slices_index (GArray *slices)
{
  GHashTable *index = g_hash_table_new (slice_hash, slice_equal);

  for (guint i = 0; i < slices->len; i++)
    {
      TlSlice *s = &g_array_index (slices, TlSlice, i);

      /* two slices of one thread beginning together: both must be told apart by the test */
      g_assert_false (g_hash_table_contains (index, s));
      g_hash_table_add (index, s);
    }
  return index;
}

char *
tl_format_us (gint64 us)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT ".%06d", us / 1000000, (int) (us % 1000000));
}
