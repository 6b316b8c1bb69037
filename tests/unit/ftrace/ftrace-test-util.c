/* Unit tests of ftrace-src's parsing core: shared helpers */
#include <string.h>

#include "ftrace-test-util.h"

TraceBatch *
parse_text (const char *text,
            FtraceParser **parser_out)
{
  FtraceParser *p = ftrace_parser_new (NULL);
  TraceBatch *batch = trace_batch_new (NULL, 0);

  ftrace_parser_parse_text (p, text, strlen (text), batch);
  ftrace_parser_finish (p, batch);
  if (parser_out)
    *parser_out = p;
  else
    ftrace_parser_free (p);
  return batch;
}

static void
append_batch (TraceBatch *all,
              TraceBatch *b)
{
  for (guint i = 0; i < b->n_events; i++)
    trace_batch_append_event (all, &b->events[i], b);
}

TraceBatch *
read_bytes (const void *data,
            gsize len,
            const char *location,
            const FtraceReaderOptions *opts,
            FtraceReader **reader_out,
            GError **error)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_data (g_memdup2 (data, len), len, g_free);
  FtraceReader *r = ftrace_reader_new (in, location, NULL, opts);
  TraceBatch *all = trace_batch_new (NULL, 0);
  TraceBatch *b;
  gboolean ok;

  while ((ok = ftrace_reader_read_batch (r, &b, error)) && b != NULL)
    {
      append_batch (all, b);
      trace_batch_unref (b);
    }
  if (!ok)
    g_clear_pointer (&all, trace_batch_unref);
  if (reader_out)
    *reader_out = r;
  else
    ftrace_reader_free (r);
  return all;
}

char *
data_path (const char *name)
{
  return g_build_filename (TEST_DATA_DIR, "ftrace", name, NULL);
}

TraceBatch *
read_file (const char *name,
           const FtraceReaderOptions *opts,
           FtraceReader **reader_out,
           GError **error)
{
  g_autofree char *path = data_path (name);
  g_autofree char *contents = NULL;
  gsize len;

  if (!g_file_get_contents (path, &contents, &len, error))
    return NULL;
  return read_bytes (contents, len, name, opts, reader_out, error);
}

guint
count_kind (TraceBatch *batch,
            TraceEventKind kind)
{
  guint n = 0;

  for (guint i = 0; i < batch->n_events; i++)
    n += batch->events[i].kind == kind;
  return n;
}

const TraceEvent *
nth_of_kind (TraceBatch *batch,
             TraceEventKind kind,
             guint n)
{
  for (guint i = 0; i < batch->n_events; i++)
    if (batch->events[i].kind == kind && n-- == 0)
      return &batch->events[i];
  return NULL;
}

const char *
str (TraceBatch *batch,
     guint32 id)
{
  return trace_string_pool_get (batch->pool, id);
}

const TraceArg *
find_arg (TraceBatch *batch,
          const TraceEvent *ev,
          const char *key)
{
  const TraceArg *args = trace_batch_get_args (batch, ev);

  for (guint i = 0; i < ev->n_args; i++)
    if (strcmp (str (batch, args[i].key), key) == 0)
      return &args[i];
  return NULL;
}

void
check_event_at (const char *file,
                int line,
                TraceBatch *batch,
                guint i,
                TraceEventKind kind,
                gint64 ts,
                gint64 pid,
                gint64 tid,
                const char *name)
{
  const TraceEvent *ev;
  g_autofree char *where = g_strdup_printf ("%s:%d: event %u", file, line, i);

  if (i >= batch->n_events)
    g_error ("%s: only %u events", where, batch->n_events);
  ev = &batch->events[i];
  if (ev->kind != kind)
    g_error ("%s: kind %s, expected %s", where, trace_event_kind_to_string (ev->kind),
             trace_event_kind_to_string (kind));
  if (ev->ts != ts || ev->pid != pid || ev->tid != tid)
    g_error ("%s: ts %" G_GINT64_FORMAT " pid %" G_GINT64_FORMAT " tid %" G_GINT64_FORMAT
             ", expected %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
             where, ev->ts, ev->pid, ev->tid, ts, pid, tid);
  if (name != NULL && g_strcmp0 (str (batch, ev->name), name) != 0)
    g_error ("%s: name \"%s\", expected \"%s\"", where, str (batch, ev->name), name);
}

/* The same args: keys, types and values, strings by their text (the
 * batches may have pools of their own). */
void
assert_same_args (TraceBatch *a,
                  const TraceEvent *x,
                  TraceBatch *b,
                  const TraceEvent *y)
{
  if (x->n_args != y->n_args)
    g_test_message ("%s at %" G_GINT64_FORMAT ": %u args, %u args", str (a, x->name), x->ts, x->n_args, y->n_args);
  g_assert_cmpuint (x->n_args, ==, y->n_args);
  for (guint i = 0; i < x->n_args; i++)
    {
      const TraceArg *p = &a->args[x->first_arg + i], *q = &b->args[y->first_arg + i];

      g_assert_cmpstr (str (a, p->key), ==, str (b, q->key));
      g_assert_cmpint (p->type, ==, q->type);
      if (p->type == TRACE_ARG_STRING || p->type == TRACE_ARG_TEXT)
        g_assert_cmpstr (trace_batch_get_arg_string (a, p), ==, trace_batch_get_arg_string (b, q));
      else
        g_assert_cmpint (p->v.i, ==, q->v.i);
    }
}
