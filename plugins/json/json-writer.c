/* tracepipe - json plugin: streaming writer of the Chrome Trace Event Format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each event is formatted into a memory buffer that goes to the stream in
 * large writes.  In the default complete-slice style a slice begin is
 * held (with a copy of its args) until its end arrives and one X event is
 * written; what is open when the stream ends is written as B.  The
 * suffix (closing the array, systemTraceEvents, metadata) makes the output
 * valid JSON at any point the writer is finished, including Ctrl-C.
 */
#include "config.h"

#include <string.h>

#include "json-writer-private.h"

static guint
thread_key_hash (gconstpointer p)
{
  const ChromeThreadKey *k = p;

  return (guint) (k->pid * 1000003 + k->tid);
}

static gboolean
thread_key_equal (gconstpointer a,
                  gconstpointer b)
{
  const ChromeThreadKey *x = a, *y = b;

  return x->pid == y->pid && x->tid == y->tid;
}

static void
writer_thread_free (gpointer p)
{
  WriterThread *t = p;

  g_array_unref (t->stack);
  g_array_unref (t->args);
  g_free (t);
}

/* An unnestable (atrace S|/F|) family, keyed as trace_processor keys it:
 * the process (none for a global id), the cookie and the name. */
typedef struct
{
  gint64 pid;
  guint64 id;
  guint32 name;
} ChromeLegacyAsyncKey;

static guint
legacy_key_hash (gconstpointer p)
{
  const ChromeLegacyAsyncKey *k = p;

  return (guint) (k->pid * 31 + (gint64) k->id * 131 + k->name);
}

static gboolean
legacy_key_equal (gconstpointer a,
                  gconstpointer b)
{
  const ChromeLegacyAsyncKey *x = a, *y = b;

  return x->pid == y->pid && x->id == y->id && x->name == y->name;
}

/**
 * chrome_writer_new:
 * @out: where the JSON goes
 * @opts: (nullable): options; %NULL for the defaults
 *
 * Returns: (transfer full): a writer.  Nothing is written before the
 *   first batch (or the suffix).
 */
ChromeWriter *
chrome_writer_new (GOutputStream *out,
                   const ChromeWriterOptions *opts)
{
  ChromeWriter *w;

  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), NULL);

  w = g_new0 (ChromeWriter, 1);
  w->out = g_object_ref (out);
  if (opts)
    w->opts = *opts;
  w->display_time_unit = g_strdup (w->opts.display_time_unit ? w->opts.display_time_unit
                                                             : CHROME_WRITER_DEFAULT_DISPLAY_TIME_UNIT);
  w->opts.display_time_unit = NULL;
  w->metadata = w->opts.metadata ? json_object_ref (w->opts.metadata) : NULL;
  w->opts.metadata = NULL;
  if (w->opts.max_open_slices == 0)
    w->opts.max_open_slices = CHROME_WRITER_DEFAULT_MAX_OPEN;
  if (w->opts.max_threads == 0)
    w->opts.max_threads = CHROME_WRITER_DEFAULT_MAX_THREADS;
  if (w->opts.system_trace_memory == 0)
    w->opts.system_trace_memory = CHROME_WRITER_DEFAULT_KERNEL_MEMORY;
  /* trace_processor sorts a JSON trace's X events before B events of the
   * same time and nests them otherwise: a B/E pair of a Chrome trace
   * written as X could nest differently from the original. */
  if (w->opts.slices == CHROME_SLICES_AUTO)
    w->opts.slices = w->opts.chrome_json ? CHROME_SLICES_BEGIN_END : CHROME_SLICES_COMPLETE;
  /* A Chrome trace's slice flow ids are v2, whose rules (one sender, any
   * number of receivers) v1 events do not have. */
  w->flows_auto = w->opts.flows == CHROME_FLOWS_AUTO;
  if (w->opts.flows == CHROME_FLOWS_AUTO)
    w->opts.flows = w->opts.chrome_json ? CHROME_FLOWS_V2 : CHROME_FLOWS_V1;
  w->buf = g_string_sized_new (CHROME_WRITER_FLUSH_SIZE + 4096);
  w->threads = g_hash_table_new_full (thread_key_hash, thread_key_equal, NULL, writer_thread_free);
  w->merged_args = g_array_new (FALSE, FALSE, sizeof (TraceArg));
  w->clock_markers = g_array_new (FALSE, FALSE, sizeof (TraceEvent));
  w->open_legacy_async = g_hash_table_new_full (legacy_key_hash, legacy_key_equal, g_free, NULL);
  w->wakelocks = g_hash_table_new (NULL, NULL);
  w->processes = g_hash_table_new (NULL, NULL);
  w->ended_flows = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  w->open_async = g_hash_table_new_full (legacy_key_hash, legacy_key_equal, g_free, (GDestroyNotify) g_array_unref);
  g_debug ("writer opened: %s form, %s slices, flows %s, clock %s",
           w->opts.form == CHROME_FORM_ARRAY ? "array" : "object",
           w->opts.slices == CHROME_SLICES_BEGIN_END ? "B/E" : "X", w->opts.flows == CHROME_FLOWS_V2 ? "v2" : "v1",
           trace_clock_domain_to_string (w->opts.clock_domain));
  return w;
}

void
chrome_writer_free (ChromeWriter *w)
{
  if (w == NULL)
    return;
  g_object_unref (w->out);
  g_free (w->display_time_unit);
  g_clear_pointer (&w->metadata, json_object_unref);
  g_string_free (w->buf, TRUE);
  g_hash_table_unref (w->threads);
  g_array_unref (w->merged_args);
  g_clear_pointer (&w->more_flows, g_array_unref);
  g_clear_pointer (&w->flow_scratch, trace_batch_unref);
  g_array_unref (w->clock_markers);
  g_hash_table_unref (w->open_legacy_async);
  g_hash_table_unref (w->open_async);
  g_hash_table_unref (w->ended_flows);
  g_hash_table_unref (w->wakelocks);
  g_hash_table_unref (w->processes);
  chrome_writer_kernel_free (w);
  chrome_writer_profiles_free (w);
  chrome_writer_graphics_free (w);
  if (w->pool)
    trace_string_pool_unref (w->pool);
  g_free (w);
}

/**
 * chrome_writer_count_drop:
 * @counter: a member of the writer's stats
 * @what: what was not written as it came, for the debug log
 *
 * Counts an event not written as it came; the first of each kind is
 * logged with where the output is (every one would cost time: a drop
 * can happen per event).
 */
void
chrome_writer_count_drop (ChromeWriter *w,
                          guint64 *counter,
                          const char *what)
{
  if ((*counter)++ == 0)
    g_debug ("output byte %" G_GUINT64_FORMAT ": first %s", w->bytes_written + w->buf->len, what);
}

/* ------------------------------------------------------------------ */
/* Output                                                              */

gboolean
chrome_writer_flush (ChromeWriter *w,
                     GError **error)
{
  GError *io_error = NULL;
  gsize written = 0;

  if (w->buf->len == 0)
    return TRUE;
  if (!g_output_stream_write_all (w->out, w->buf->str, w->buf->len, &written, NULL, &io_error))
    {
      gint code = g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_NO_SPACE)
                      ? TRACE_RESOURCE_ERROR_NO_SPACE_LEFT
                      : TRACE_RESOURCE_ERROR_WRITE;

      g_set_error (error, TRACE_RESOURCE_ERROR, code, "cannot write the JSON trace: %s",
                   io_error->message);
      g_error_free (io_error);
      w->failed = TRUE;
      return FALSE;
    }
  w->bytes_written += written;
  g_string_truncate (w->buf, 0);
  return TRUE;
}

const char *
chrome_writer_str (ChromeWriter *w,
                   guint32 id,
                   gsize *len)
{
  *len = trace_string_pool_get_length (w->pool, id);
  return trace_string_pool_get (w->pool, id);
}

void
chrome_writer_put_string (ChromeWriter *w,
                          guint32 id)
{
  gsize len;
  const char *s = chrome_writer_str (w, id, &len);

  chrome_fmt_string (w->buf, s, len);
}

/* chrome_writer_event_open_text() with an interned name. */
void
chrome_writer_event_open (ChromeWriter *w,
                          const char *ph,
                          guint32 name,
                          guint32 category,
                          gint64 ts,
                          gint64 pid,
                          gint64 tid)
{
  gsize len;
  const char *text = chrome_writer_str (w, name, &len);

  chrome_writer_event_open_text (w, ph, text, len, category, ts, pid, tid);
}

/**
 * chrome_writer_event_open_text:
 *
 * Starts an event object: `{"ph":…,"name":…,"cat":…,"ts":…,"pid":…,"tid":…`.
 * The category, pid and tid are left out when unknown.  Events are
 * separated by ",\n": one event per line.
 */
void
chrome_writer_event_open_text (ChromeWriter *w,
                               const char *ph,
                               const char *name,
                               gsize name_len,
                               guint32 category,
                               gint64 ts,
                               gint64 pid,
                               gint64 tid)
{
  GString *b = w->buf;

  g_string_append (b, w->stats.events++ > 0 ? ",\n{\"ph\":\"" : "\n{\"ph\":\"");
  g_string_append (b, ph);
  g_string_append (b, "\",\"name\":");
  chrome_fmt_string (b, name, name_len);
  if (category != 0)
    {
      g_string_append (b, ",\"cat\":");
      chrome_writer_put_string (w, category);
    }
  g_string_append (b, ",\"ts\":");
  chrome_fmt_us (b, ts);
  if (pid != TRACE_ID_UNKNOWN)
    {
      g_string_append (b, ",\"pid\":");
      chrome_fmt_int (b, pid);
    }
  if (tid != TRACE_ID_UNKNOWN)
    {
      g_string_append (b, ",\"tid\":");
      chrome_fmt_int (b, tid);
    }
}

static void
event_close (ChromeWriter *w)
{
  g_string_append_c (w->buf, '}');
}

static const TraceArg *
event_args (TraceBatch *batch,
            const TraceEvent *ev)
{
  return ev->n_args ? trace_batch_get_args (batch, ev) : NULL;
}

/* ------------------------------------------------------------------ */
/* Slices and flows                                                    */

/* Chrome's `tts` (and an `X`'s `tdur`), in µs like `ts`. */
static void
put_thread_time (ChromeWriter *w,
                 const char *ph,
                 const TraceEvent *ev)
{
  if (!(ev->flags & TRACE_EVENT_FLAG_THREAD_TIME))
    return;
  if (ev->u.slice.thread_ts >= 0)
    {
      g_string_append (w->buf, ",\"tts\":");
      chrome_fmt_us (w->buf, ev->u.slice.thread_ts);
    }
  if (*ph == 'X' && ev->u.slice.thread_dur >= 0)
    {
      g_string_append (w->buf, ",\"tdur\":");
      chrome_fmt_us (w->buf, ev->u.slice.thread_dur);
    }
}

static void
write_slice (ChromeWriter *w,
             const char *ph,
             const TraceEvent *ev,
             gint64 dur,
             const TraceArg *args,
             guint n_args)
{
  chrome_writer_event_open (w, ph, ev->name, ev->category, ev->ts, ev->pid, ev->tid);
  if (*ph == 'X')
    {
      g_string_append (w->buf, ",\"dur\":");
      chrome_fmt_us (w->buf, dur);
    }
  put_thread_time (w, ph, ev);
  if (*ph != 'E')
    chrome_writer_put_slice_flows_v2 (w, ev);
  chrome_writer_put_args (w, args, n_args);
  event_close (w);
}

/* Returns: (nullable): the thread's state; %NULL when the thread is new
 * and the table is full: its slices are then written as B and E, which
 * needs no state (trace_processor pairs them itself). */
static WriterThread *
thread_for (ChromeWriter *w,
            const TraceEvent *ev)
{
  ChromeThreadKey key = { ev->pid, ev->tid };
  WriterThread *t = w->last_thread;

  if (t != NULL && t->key.pid == key.pid && t->key.tid == key.tid)
    return t;
  t = g_hash_table_lookup (w->threads, &key);
  if (t == NULL && g_hash_table_size (w->threads) >= w->opts.max_threads)
    {
      chrome_writer_count_drop (w, &w->stats.slices_past_thread_table,
                                "slice written as B/E: thread table full (max-threads)");
      return NULL;
    }
  if (t == NULL)
    {
      t = g_new0 (WriterThread, 1);
      t->key = key;
      t->stack = g_array_new (FALSE, FALSE, sizeof (HeldSlice));
      t->args = g_array_new (FALSE, FALSE, sizeof (TraceArg));
      g_hash_table_insert (w->threads, &t->key, t);
    }
  w->last_thread = t;
  return t;
}

/* Writes the held slices of a thread as B events (oldest first); their
 * ends will be written as E. */
static void
release_thread (ChromeWriter *w,
                WriterThread *t)
{
  for (guint i = 0; i < t->stack->len; i++)
    {
      HeldSlice *h = &g_array_index (t->stack, HeldSlice, i);

      if (h->ended)
        continue;
      write_slice (w, "B", &h->ev, 0, &g_array_index (t->args, TraceArg, h->arg_start),
                   h->ev.n_args);
      t->written_below++;
    }
  w->n_held -= t->stack->len;
  t->n_ended = 0;
  g_array_set_size (t->stack, 0);
  g_array_set_size (t->args, 0);
}

/* Keeps a begin's args until its end: a text arg's value is interned,
 * as its batch will be gone. */
static void
hold_args (WriterThread *t,
           TraceBatch *batch,
           const TraceEvent *ev)
{
  guint first = t->args->len;

  g_array_append_vals (t->args, trace_batch_get_args (batch, ev), ev->n_args);
  if (batch->text_len == 0)
    return;
  for (guint i = first; i < t->args->len; i++)
    {
      TraceArg *arg = &g_array_index (t->args, TraceArg, i);

      if (arg->type == TRACE_ARG_TEXT)
        {
          arg->v.s = trace_batch_intern_arg (batch, arg);
          arg->type = TRACE_ARG_STRING;
        }
    }
}

static void close_past_ended (ChromeWriter *w, WriterThread *t, gint64 ts);

static void
slice_begin (ChromeWriter *w,
             TraceBatch *batch,
             const TraceEvent *ev)
{
  WriterThread *t;
  HeldSlice h;

  chrome_writer_put_slice_flows_v1 (w, ev);
  if (w->opts.slices == CHROME_SLICES_BEGIN_END)
    {
      write_slice (w, "B", ev, 0, event_args (batch, ev), ev->n_args);
      return;
    }
  t = thread_for (w, ev);
  if (t == NULL)
    {
      write_slice (w, "B", ev, 0, event_args (batch, ev), ev->n_args);
      return;
    }
  close_past_ended (w, t, ev->ts);
  h.ev = *ev;
  h.ended = FALSE;
  h.arg_start = t->args->len;
  if (ev->n_args > 0)
    hold_args (t, batch, ev);
  g_array_append_val (t->stack, h);
  /* Memory is bounded by the open slices: past the limit, the slices of
   * this thread are written as B now. */
  if (++w->n_held > w->opts.max_open_slices)
    release_thread (w, t);
}

/* The begin's args, with the end's args added (an end's value wins, an
 * end's null does not: trace_processor shows no row for a null, so the
 * begin's value stands). */
static void
merge_args (ChromeWriter *w,
            const TraceArg *begin,
            guint n_begin,
            const TraceArg *end,
            guint n_end)
{
  g_array_set_size (w->merged_args, 0);
  g_array_append_vals (w->merged_args, begin, n_begin);
  for (guint i = 0; i < n_end; i++)
    {
      guint j;

      for (j = 0; j < n_begin; j++)
        if (g_array_index (w->merged_args, TraceArg, j).key == end[i].key)
          break;
      if (j < n_begin)
        {
          if (end[i].type != TRACE_ARG_NULL)
            g_array_index (w->merged_args, TraceArg, j) = end[i];
        }
      else
        g_array_append_val (w->merged_args, end[i]);
    }
}

/* Writes held slice @h as X, ended by @ev (its args merged in). */
static void
write_ended (ChromeWriter *w,
             WriterThread *t,
             HeldSlice *h,
             TraceBatch *batch,
             const TraceEvent *ev)
{
  gint64 dur = ev->ts - h->ev.ts;

  merge_args (w, &g_array_index (t->args, TraceArg, h->arg_start), h->ev.n_args, event_args (batch, ev),
              ev->n_args);
  /* Flow ids on a slice's end (a TrackEvent end may carry them) bind to
   * the slice, as in trace_processor: written at the begin's place, and
   * as the begin's bind_id when it has none. */
  if (ev->u.slice.flow_in != 0 || ev->u.slice.flow_out != 0 || (ev->flags & TRACE_EVENT_FLAG_MORE_FLOWS))
    {
      TraceEvent at = h->ev;

      at.u.slice.flow_in = ev->u.slice.flow_in;
      at.u.slice.flow_out = ev->u.slice.flow_out;
      if (h->ev.u.slice.flow_in == 0 && h->ev.u.slice.flow_out == 0)
        {
          h->ev.u.slice.flow_in = ev->u.slice.flow_in;
          h->ev.u.slice.flow_out = ev->u.slice.flow_out;
        }
      chrome_writer_put_slice_flows_v1 (w, &at);
    }
  /* A pair's thread duration: the end's thread time less the begin's. */
  h->ev.u.slice.thread_dur = (h->ev.flags & ev->flags & TRACE_EVENT_FLAG_THREAD_TIME) &&
                                     h->ev.u.slice.thread_ts >= 0 && ev->u.slice.thread_ts >= 0
                                 ? ev->u.slice.thread_ts - h->ev.u.slice.thread_ts
                                 : -1;
  if (dur < 0)
    {
      /* an end before its begin (unsorted input): keep both times */
      write_slice (w, "B", &h->ev, 0, (TraceArg *) w->merged_args->data, w->merged_args->len);
      write_slice (w, "E", ev, 0, NULL, 0);
      return;
    }
  write_slice (w, "X", &h->ev, dur, (TraceArg *) w->merged_args->data, w->merged_args->len);
}

static void
pop_held (ChromeWriter *w,
          WriterThread *t)
{
  HeldSlice *h = &g_array_index (t->stack, HeldSlice, t->stack->len - 1);

  if (h->ended)
    t->n_ended--;
  g_array_set_size (t->args, h->arg_start);
  g_array_set_size (t->stack, t->stack->len - 1);
  w->n_held--;
}

/* The held slice an end ends, as trace_processor finds it
 * (SliceTracker::MatchingIncompleteSliceIndex): the innermost one not
 * ended whose name and category match the end's, a name or category of 0
 * matching any. Returns: its index, or -1 */
static gint
matching_held (WriterThread *t,
               const TraceEvent *ev)
{
  for (gint i = (gint) t->stack->len - 1; i >= 0; i--)
    {
      const HeldSlice *h = &g_array_index (t->stack, HeldSlice, i);

      if (h->ended || (ev->category != 0 && h->ev.category != ev->category) ||
          (ev->name != 0 && h->ev.name != 0 && h->ev.name != ev->name))
        continue;
      return i;
    }
  return -1;
}

/* A slice ended while slices above it were open stays on the stack, as
 * in trace_processor: at the first event of the thread after its end,
 * the open slices above it end with it (SliceTracker::MaybeCloseStack);
 * an ended slice with none open above it goes at its end. */
static void
close_past_ended (ChromeWriter *w,
                  WriterThread *t,
                  gint64 ts)
{
  gboolean open_above = FALSE;

  if (t->n_ended == 0)
    return;
  for (gint i = (gint) t->stack->len - 1; i >= 0; i--)
    {
      HeldSlice *h = &g_array_index (t->stack, HeldSlice, i);
      gint64 end = h->ev.ts + h->ev.u.slice.dur;

      if (!h->ended)
        {
          open_above = TRUE;
          continue;
        }
      if (open_above && ts <= end)
        continue;
      while ((gint) t->stack->len - 1 > i)
        {
          HeldSlice *above = &g_array_index (t->stack, HeldSlice, t->stack->len - 1);

          if (!above->ended)
            write_slice (w, "X", &above->ev, end - above->ev.ts,
                         &g_array_index (t->args, TraceArg, above->arg_start), above->ev.n_args);
          pop_held (w, t);
        }
      if (ts >= end)
        pop_held (w, t);
      open_above = FALSE;
    }
}

static void
slice_end (ChromeWriter *w,
           TraceBatch *batch,
           const TraceEvent *ev)
{
  WriterThread *t;
  gint i;

  if (w->opts.slices == CHROME_SLICES_BEGIN_END)
    {
      write_slice (w, "E", ev, 0, event_args (batch, ev), ev->n_args);
      return;
    }
  t = thread_for (w, ev);
  if (t == NULL)
    {
      write_slice (w, "E", ev, 0, event_args (batch, ev), ev->n_args);
      return;
    }
  close_past_ended (w, t, ev->ts);
  i = matching_held (t, ev);
  if (i < 0)
    {
      /* trace_processor pairs an end with the slices written as B itself,
       * and ignores one that ends no open slice */
      if (t->written_below > 0)
        t->written_below--;
      else
        chrome_writer_count_drop (w, &w->stats.unmatched_ends, "slice end without a begin, written as E");
      write_slice (w, "E", ev, 0, event_args (batch, ev), ev->n_args);
      return;
    }
  write_ended (w, t, &g_array_index (t->stack, HeldSlice, i), batch, ev);
  if (i == (gint) t->stack->len - 1)
    pop_held (w, t);
  else
    {
      HeldSlice *h = &g_array_index (t->stack, HeldSlice, i);

      h->ended = TRUE;
      t->n_ended++;
      h->ev.u.slice.dur = ev->ts - h->ev.ts;
    }
}

static void
write_flow (ChromeWriter *w,
            TraceBatch *batch,
            const TraceEvent *ev)
{
  const char *ph = ev->kind == TRACE_EVENT_FLOW_START  ? "s"
                   : ev->kind == TRACE_EVENT_FLOW_STEP ? "t"
                                                       : "f";

  chrome_writer_event_open (w, ph, ev->name, ev->category, ev->ts, ev->pid, ev->tid);
  chrome_writer_put_id_member (w, "id", ev->u.async.id);
  if (!(ev->flags & TRACE_EVENT_FLAG_FLOW_NEXT_SLICE))
    g_string_append (w->buf, ",\"bp\":\"e\"");
  chrome_writer_put_args (w, event_args (batch, ev), ev->n_args);
  event_close (w);
}

/* ------------------------------------------------------------------ */
/* Other events                                                        */

/* An instant is written with the narrowest scope its ids allow: a thread
 * instant needs a tid and a process instant a pid, or trace_processor
 * rejects the event (json_parser_failure). One whose thread or process is
 * unknown (an ArkTS profile's summary) widens to the process or the whole
 * trace, where the viewers still show it. */
static const char *
instant_scope (ChromeWriter *w,
               const TraceEvent *ev)
{
  gboolean thread = !(ev->flags & (TRACE_EVENT_FLAG_SCOPE_GLOBAL | TRACE_EVENT_FLAG_SCOPE_PROCESS));

  /* flow events bind to the enclosing slice of their thread: an instant
   * with flow v1 ids goes on its thread (with neither pid nor tid,
   * trace_processor's thread 0, where slices of no thread go too) */
  if ((ev->u.slice.flow_in != 0 || ev->u.slice.flow_out != 0) && !chrome_writer_slice_flows_v2 (w, ev))
    return "t";

  if (thread && ev->tid != TRACE_ID_UNKNOWN)
    return "t";
  if (!(ev->flags & TRACE_EVENT_FLAG_SCOPE_GLOBAL) && ev->pid != TRACE_ID_UNKNOWN)
    return "p";
  return "g";
}

static void
write_instant (ChromeWriter *w,
               TraceBatch *batch,
               const TraceEvent *ev)
{
  const char *scope = instant_scope (w, ev);

  /* flow events bind to the enclosing slice of their thread: only a
   * thread instant can have them */
  gint64 tid = ev->tid;

  /* a thread instant needs a tid: the one trace_processor gives the
   * instant's flow events, which have none (the pid, else 0) */
  if (*scope == 't' && tid == TRACE_ID_UNKNOWN)
    tid = ev->pid != TRACE_ID_UNKNOWN ? ev->pid : 0;
  chrome_writer_event_open (w, "i", ev->name, ev->category, ev->ts, ev->pid, tid);
  g_string_append_printf (w->buf, ",\"s\":\"%s\"", scope);
  put_thread_time (w, "i", ev);
  chrome_writer_put_args (w, event_args (batch, ev), ev->n_args);
  event_close (w);
  if (*scope == 't')
    chrome_writer_put_slice_flows_v1 (w, ev);
}

static const char *
async_phase (ChromeWriter *w,
             const TraceEvent *ev,
             gboolean *legacy)
{
  /* trace_processor ignores S/T/F but reads atrace's S|/F| lines: a
   * legacy async event from a text line (it has a cpu) goes nestable so
   * that it still shows, one from JSON S/T/F stays as it was */
  *legacy = (ev->flags & TRACE_EVENT_FLAG_ASYNC_LEGACY) && !w->opts.nestable_legacy_async && ev->cpu < 0;
  switch (ev->kind)
    {
    case TRACE_EVENT_ASYNC_BEGIN:
      return *legacy ? "S" : "b";
    case TRACE_EVENT_ASYNC_END:
      return *legacy ? "F" : "e";
    case TRACE_EVENT_ASYNC_STEP:
      if (!*legacy)
        return "n";
      /* trace_processor reads a JSON `T` as a thread state, which
       * without a duration it rejects, and ignores `p` */
      return (ev->flags & TRACE_EVENT_FLAG_STEP_PAST) ? "p" : "T";
    default:
      return "n";
    }
}

/* The async step name travels in args.step (catapult); add it when the
 * args do not already hold it. */
static const TraceArg *
args_with_step (ChromeWriter *w,
                TraceBatch *batch,
                const TraceEvent *ev,
                guint *n_args)
{
  guint32 key = w->str_step;
  const TraceArg *args = event_args (batch, ev);
  TraceArg step = { key, TRACE_ARG_STRING, { 0 } };

  *n_args = ev->n_args;
  if (ev->kind != TRACE_EVENT_ASYNC_STEP || ev->u.async.step == 0)
    return args;
  for (guint i = 0; i < ev->n_args; i++)
    if (args[i].key == key)
      return args;
  step.v.s = ev->u.async.step;
  merge_args (w, args, ev->n_args, &step, 1);
  *n_args = w->merged_args->len;
  return (const TraceArg *) w->merged_args->data;
}

/* atrace's legacy async events become nestable b/e, which trace_processor
 * nests: a repeated `S|` of an open family, which atrace ignores, would
 * open a second slice, and an `F|` of none would end nothing. Both are
 * dropped here, as perfetto-sink drops them. Returns: whether to write */
static gboolean
track_legacy_family (ChromeWriter *w,
                     const TraceEvent *ev)
{
  ChromeLegacyAsyncKey key = { (ev->flags & TRACE_EVENT_FLAG_ID_GLOBAL) ? TRACE_ID_UNKNOWN : ev->pid,
                               ev->u.async.id, ev->u.async.track ? ev->u.async.track : ev->name };

  if (ev->kind == TRACE_EVENT_ASYNC_BEGIN)
    {
      if (g_hash_table_contains (w->open_legacy_async, &key))
        {
          chrome_writer_count_drop (w, &w->stats.dropped_repeated_legacy_begins,
                                    "repeated begin of an open atrace async slice dropped");
          return FALSE;
        }
      g_hash_table_add (w->open_legacy_async, g_memdup2 (&key, sizeof key));
    }
  else if (ev->kind == TRACE_EVENT_ASYNC_END && !g_hash_table_remove (w->open_legacy_async, &key))
    {
      chrome_writer_count_drop (w, &w->stats.dropped_unmatched_legacy_ends,
                                "atrace async end without an open slice dropped");
      return FALSE;
    }
  return TRUE;
}

/* trace_processor rejects an async event without pid
 * (json_parser_failure). One of no process (a Perfetto slice on a global
 * track with a correlation id) goes with pid 0, as Perfetto's own JSON
 * export writes it; one of a Chrome JSON stream stays without, as its
 * original was rejected. */
static gint64
async_pid (ChromeWriter *w,
           const TraceEvent *ev)
{
  return ev->pid == TRACE_ID_UNKNOWN && !w->opts.chrome_json ? 0 : ev->pid;
}

/* A nestable async end of a Perfetto stream has no name (a TrackEvent
 * slice end names nothing), but trace_processor finds a JSON `e`'s slice
 * by name, category and id: the end takes the name and category of the
 * innermost begin open on its id. A Chrome JSON stream's ends keep their
 * own (trace_processor matched them as they are in the original). */
static void
name_async_end (ChromeWriter *w,
                const TraceEvent *ev,
                guint32 *name,
                guint32 *category)
{
  ChromeLegacyAsyncKey key = { (ev->flags & TRACE_EVENT_FLAG_ID_GLOBAL) ? TRACE_ID_UNKNOWN : ev->pid,
                               ev->u.async.id, 0 };
  GArray *open;
  guint32 pair[2] = { ev->name, ev->category };

  *name = ev->name;
  *category = ev->category;
  if (w->opts.chrome_json || (ev->kind != TRACE_EVENT_ASYNC_BEGIN && ev->kind != TRACE_EVENT_ASYNC_END))
    return;
  open = g_hash_table_lookup (w->open_async, &key);
  if (ev->kind == TRACE_EVENT_ASYNC_BEGIN)
    {
      if (open == NULL)
        {
          open = g_array_new (FALSE, FALSE, sizeof pair);
          g_hash_table_insert (w->open_async, g_memdup2 (&key, sizeof key), open);
        }
      g_array_append_val (open, pair);
      return;
    }
  if (open == NULL || open->len == 0)
    return;
  if (ev->name == 0)
    {
      *name = g_array_index (open, guint32, 2 * (open->len - 1));
      *category = g_array_index (open, guint32, 2 * (open->len - 1) + 1);
    }
  g_array_set_size (open, open->len - 1);
  if (open->len == 0)
    g_hash_table_remove (w->open_async, &key);
}

/* An id as it was given (`id`, `id2.global` or `id2.local`; the
 * `id2` ones in hex) and its `scope` (0: none). */
static void
put_id (ChromeWriter *w,
        TraceChromeIdKind kind,
        guint64 id,
        guint32 scope)
{
  switch (kind)
    {
    case TRACE_CHROME_ID_UNSCOPED:
      chrome_writer_put_id_member (w, "id", id);
      break;
    case TRACE_CHROME_ID_GLOBAL:
    case TRACE_CHROME_ID_LOCAL:
      g_string_append (w->buf, kind == TRACE_CHROME_ID_GLOBAL ? ",\"id2\":{\"global\":" : ",\"id2\":{\"local\":");
      chrome_fmt_hex_id (w->buf, id);
      g_string_append_c (w->buf, '}');
      break;
    default:
      break;
    }
  if (scope != 0)
    {
      g_string_append (w->buf, ",\"scope\":");
      chrome_writer_put_string (w, scope);
    }
}

static void
write_async (ChromeWriter *w,
             TraceBatch *batch,
             const TraceEvent *ev)
{
  gboolean legacy, global = (ev->flags & TRACE_EVENT_FLAG_ID_GLOBAL) != 0;
  const char *ph = async_phase (w, ev, &legacy);
  guint32 name = ev->name, category = ev->category;
  const TraceArg *args;
  guint n_args;

  if ((ev->flags & TRACE_EVENT_FLAG_ASYNC_LEGACY) && !legacy && !w->opts.nestable_legacy_async &&
      !track_legacy_family (w, ev))
    return;
  if (!legacy)
    name_async_end (w, ev, &name, &category);
  chrome_writer_event_open (w, ph, name, category, ev->ts, async_pid (w, ev), ev->tid);
  put_id (w, legacy && global ? TRACE_CHROME_ID_UNSCOPED : global ? TRACE_CHROME_ID_GLOBAL
                                                                  : TRACE_CHROME_ID_LOCAL,
          ev->u.async.id, ev->u.async.scope);
  chrome_writer_put_async_flow (w, ph);
  args = args_with_step (w, batch, ev, &n_args);
  chrome_writer_put_args (w, args, n_args);
  event_close (w);
}

/**
 * chrome_writer_counter_text:
 *
 * Writes a C event of one key (@category 0: none): trace_processor names its counter
 * "<name> <key>".  An integral value of @as_int is written as an integer.
 */
void
chrome_writer_counter_text (ChromeWriter *w,
                            const char *name,
                            gsize name_len,
                            guint32 category,
                            const char *key,
                            gsize key_len,
                            gint64 ts,
                            gint64 pid,
                            gint64 tid,
                            double v,
                            gboolean as_int)
{
  chrome_writer_event_open_text (w, "C", name, name_len, category, ts, pid, tid);
  g_string_append (w->buf, ",\"args\":{");
  chrome_fmt_string (w->buf, key, key_len);
  g_string_append_c (w->buf, ':');
  if (as_int && v == (double) (gint64) v && v > -9.2e18 && v < 9.2e18)
    chrome_fmt_int (w->buf, (gint64) v);
  else
    chrome_fmt_double (w->buf, v);
  g_string_append (w->buf, "}}");
}

/* A counter is one key of a C event.  The reader names counters as
 * perfetto does, "<name> <key>"; splitting the name at its last space
 * gives that name back when the file is read again.  A name without a
 * space gets the key "value". */
static void
write_counter (ChromeWriter *w,
               const TraceEvent *ev)
{
  gsize len, name_len;
  const char *name = chrome_writer_str (w, ev->name, &len);
  const char *key = "value";
  gsize key_len = 5;

  name_len = len;
  while (name_len > 0 && name[name_len - 1] != ' ')
    name_len--;
  if (name_len > 0)
    {
      key = name + name_len;
      key_len = len - name_len;
      name_len--;
    }
  else
    name_len = len;
  chrome_writer_counter_text (w, name, name_len, ev->category, key, key_len, ev->ts, ev->pid, ev->tid,
                              ev->u.counter.value, (ev->flags & TRACE_EVENT_FLAG_COUNTER_INT) != 0);
}

/**
 * chrome_writer_metadata:
 * @w: a #ChromeWriter
 * @ev: a process or thread name, sort index or label
 *
 * Writes @ev as the `M` event of its kind.
 */
void
chrome_writer_metadata (ChromeWriter *w,
                        const TraceEvent *ev)
{
  static const char *const names[] = { "process_name", "thread_name", "process_sort_index",
                                       "thread_sort_index", "process_labels" };
  static const char *const keys[] = { "name", "name", "sort_index", "sort_index", "labels" };
  guint i = ev->kind - TRACE_EVENT_PROCESS_NAME;
  gint64 tid = ev->tid != TRACE_ID_UNKNOWN ? ev->tid : ev->pid;

  if (ev->kind == TRACE_EVENT_THREAD_NAME)
    chrome_writer_note_thread_name (w, ev->tid, ev->name);
  if (ev->kind == TRACE_EVENT_PROCESS_NAME && chrome_writer_process_name_outranked (w, ev))
    return;
  /* trace_processor reads an M event without pid as pid 0 and would put
   * a thread of unknown process in it: its name goes only in the task
   * column of its kernel lines (ftrace names threads from those) */
  if (ev->kind == TRACE_EVENT_THREAD_NAME && ev->pid == TRACE_ID_UNKNOWN)
    {
      chrome_writer_count_drop (w, &w->stats.thread_names_in_kernel_text,
                                "name of a thread of unknown process: only in kernel text");
      return;
    }
  chrome_writer_event_open_text (w, "M", names[i], strlen (names[i]), 0, ev->ts, ev->pid, tid);
  g_string_append_printf (w->buf, ",\"args\":{\"%s\":", keys[i]);
  if (ev->kind == TRACE_EVENT_PROCESS_SORT_INDEX || ev->kind == TRACE_EVENT_THREAD_SORT_INDEX)
    chrome_fmt_int (w->buf, ev->u.meta.value);
  else
    chrome_writer_put_string (w, ev->name);
  g_string_append (w->buf, "}}");
}

/* A record of the input's format the model does not describe (a
 * Perfetto packet perfetto-src carried): a metadata event of its name
 * with its args, which trace_processor and Chrome's viewer ignore (they
 * read only the metadata names they know) and json-src reads back as the
 * record, so that `perfetto-src ! json-sink`, then `json-src !
 * perfetto-sink`, gives back the packet. */
static void
write_record (ChromeWriter *w,
              TraceBatch *batch,
              const TraceEvent *ev)
{
  gsize len;
  const char *name = chrome_writer_str (w, ev->name, &len);

  chrome_writer_event_open_text (w, "M", name, len, 0, ev->ts, ev->pid, ev->tid);
  chrome_writer_put_args (w, event_args (batch, ev), ev->n_args);
  g_string_append_c (w->buf, '}');
  w->stats.records++;
}

/* Perfetto's JSON thread state: a `T` named by the state, with its
 * duration and its args (trace_processor reads `cpu`, `io_wait` and
 * `blocked_function`); without an id, which would make it an async
 * step. */
static void
write_thread_state (ChromeWriter *w,
                    TraceBatch *batch,
                    const TraceEvent *ev)
{
  chrome_writer_event_open (w, "T", ev->name, ev->category, ev->ts, ev->pid, ev->tid);
  g_string_append (w->buf, ",\"dur\":");
  chrome_fmt_us (w->buf, ev->u.thread_state.dur);
  chrome_writer_put_args (w, event_args (batch, ev), ev->n_args);
  event_close (w);
}

/* A Chrome event of another phase, as the event it came as. A `C` or an
 * `M` from a TrackEvent is none: trace_processor keeps those as raw rows
 * of a Perfetto trace, but reads counters, names and sort indexes from a
 * JSON `C` or `M`, which the original does not have. */
static void
write_chrome_phase (ChromeWriter *w,
                    TraceBatch *batch,
                    const TraceEvent *ev)
{
  const char ph[2] = { (char) ev->u.chrome_phase.phase, '\0' };
  gint64 thread_ts = trace_event_get_thread_ts (ev);

  if (*ph == 'C' || *ph == 'M')
    {
      chrome_writer_count_drop (w, &w->stats.dropped_other, "TrackEvent counter or metadata of Chrome's raw phases (C, M) dropped: JSON would read it as counters or names");
      return;
    }
  chrome_writer_event_open (w, ph, ev->name, ev->category, ev->ts, ev->pid, ev->tid);
  put_id (w, ev->u.chrome_phase.id_kind, ev->u.chrome_phase.id, ev->u.chrome_phase.scope);
  if (thread_ts >= 0)
    {
      g_string_append (w->buf, ",\"tts\":");
      chrome_fmt_us (w->buf, thread_ts);
    }
  chrome_writer_put_args (w, event_args (batch, ev), ev->n_args);
  event_close (w);
}

/* The kernel text (json-writer-kernel.c) counts its drops itself: the
 * first of each kind is logged here. */
static gboolean
write_kernel_event (ChromeWriter *w,
                    TraceBatch *batch,
                    const TraceEvent *ev,
                    GError **error)
{
  gboolean no_kernel_drop = w->stats.dropped_kernel == 0;
  gboolean no_marker_drop = w->stats.dropped_markers == 0;
  TraceEvent slice;

  if (w->opts.perfetto_kernel_events && (ev->kind == TRACE_EVENT_TASK_NEWTASK || ev->kind == TRACE_EVENT_TASK_RENAME))
    chrome_writer_process_name_from_kernel (w, ev);

  if (chrome_writer_kernel_as_event (w, batch, ev, &slice))
    {
      if (slice.kind == TRACE_EVENT_SLICE_BEGIN)
        slice_begin (w, batch, &slice);
      else if (slice.kind == TRACE_EVENT_SLICE_END)
        slice_end (w, batch, &slice);
      else if (slice.kind == TRACE_EVENT_COUNTER)
        write_counter (w, &slice);
      else if (slice.kind == TRACE_EVENT_ASYNC_BEGIN || slice.kind == TRACE_EVENT_ASYNC_END)
        write_async (w, batch, &slice);
      else
        chrome_writer_count_drop (w, &w->stats.dropped_other,
                                  "kernel event of which trace_processor makes nothing dropped (a softirq vector "
                                  "without a name, a gpu_frequency without a state, a wakeup source held again)");
      if (w->irq.pending.kind == TRACE_EVENT_ASYNC_END)
        write_async (w, batch, &w->irq.pending);
      w->irq.pending.kind = TRACE_EVENT_NONE;
      return TRUE;
    }
  if (!chrome_writer_kernel_event (w, batch, ev, error))
    return FALSE;
  if (no_kernel_drop && w->stats.dropped_kernel > 0)
    g_debug ("output byte %" G_GUINT64_FORMAT ": first kernel event dropped (array form or negative time)",
             w->bytes_written + w->buf->len);
  if (no_marker_drop && w->stats.dropped_markers > 0)
    g_debug ("output byte %" G_GUINT64_FORMAT ": first atrace marker not written again as text",
             w->bytes_written + w->buf->len);
  return TRUE;
}

static gboolean
write_event_of_kind (ChromeWriter *w,
                     TraceBatch *batch,
                     const TraceEvent *ev,
                     GError **error)
{
  gboolean as_text;

  switch (ev->kind)
    {
    case TRACE_EVENT_SLICE_BEGIN:
      slice_begin (w, batch, ev);
      break;
    case TRACE_EVENT_SLICE_END:
      slice_end (w, batch, ev);
      break;
    case TRACE_EVENT_SLICE_COMPLETE:
      chrome_writer_put_slice_flows_v1 (w, ev);
      write_slice (w, "X", ev, ev->u.slice.dur, event_args (batch, ev), ev->n_args);
      break;
    case TRACE_EVENT_INSTANT:
      write_instant (w, batch, ev);
      break;
    case TRACE_EVENT_ASYNC_BEGIN:
    case TRACE_EVENT_ASYNC_STEP:
    case TRACE_EVENT_ASYNC_END:
    case TRACE_EVENT_ASYNC_INSTANT:
      write_async (w, batch, ev);
      break;
    case TRACE_EVENT_FLOW_START:
    case TRACE_EVENT_FLOW_STEP:
    case TRACE_EVENT_FLOW_END:
      write_flow (w, batch, ev);
      break;
    case TRACE_EVENT_COUNTER:
      if (!chrome_writer_kernel_counter (w, ev, &as_text, error))
        return FALSE;
      if (!as_text)
        write_counter (w, ev);
      break;
    case TRACE_EVENT_PROCESS_NAME:
    case TRACE_EVENT_THREAD_NAME:
    case TRACE_EVENT_PROCESS_SORT_INDEX:
    case TRACE_EVENT_THREAD_SORT_INDEX:
    case TRACE_EVENT_PROCESS_LABEL:
      chrome_writer_metadata (w, ev);
      break;
    case TRACE_EVENT_STACK_NODE:
      chrome_writer_stack_node (w, batch, ev);
      break;
    case TRACE_EVENT_SAMPLE:
      chrome_writer_sample (w, ev);
      break;
    case TRACE_EVENT_CLOCK_MARKER:
      chrome_writer_clock_marker (w, ev);
      break;
    case TRACE_EVENT_RECORD:
      if (!chrome_writer_graphics_record (w, batch, ev))
        write_record (w, batch, ev);
      break;
    case TRACE_EVENT_THREAD_STATE:
      write_thread_state (w, batch, ev);
      break;
    case TRACE_EVENT_CHROME_PHASE:
      write_chrome_phase (w, batch, ev);
      break;
    case TRACE_EVENT_NONE:
      break;
    default:
      if (ev->kind >= TRACE_EVENT_SCHED_SWITCH && ev->kind <= TRACE_EVENT_FTRACE)
        return write_kernel_event (w, batch, ev, error);
      chrome_writer_count_drop (w, &w->stats.dropped_other, "event with no JSON form dropped");
    }
  return TRUE;
}

/* A slice that binds more than one pair of flows (a TrackEvent's) is
 * written from a copy without them in its args; they go as v1 events
 * beside it. An async event with flows likewise, its first flow as its
 * bind_id. */
static gboolean
write_event (ChromeWriter *w,
             TraceBatch *batch,
             const TraceEvent *ev,
             GError **error)
{
  const char *batch_text = w->batch_text;
  gboolean ok;

  if (G_LIKELY (!(ev->flags & TRACE_EVENT_FLAG_MORE_FLOWS)) || !trace_event_binds_flows (ev->kind))
    return write_event_of_kind (w, batch, ev, error);
  ev = chrome_writer_take_more_flows (w, &batch, ev);
  ok = write_event_of_kind (w, batch, ev, error);
  chrome_writer_drop_more_flows (w);
  w->batch_text = batch_text;
  return ok;
}

static void
write_header (ChromeWriter *w)
{
  w->started = TRUE;
  g_string_append (w->buf, w->opts.form == CHROME_FORM_ARRAY ? "[" : "{\"traceEvents\":[");
}

static gboolean
check_usable (ChromeWriter *w,
              GError **error)
{
  if (w->failed)
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_WRITE,
                   "the JSON trace writer failed before");
      return FALSE;
    }
  if (w->suffix_written)
    {
      g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_FAILED,
                   "the JSON trace is already finished");
      return FALSE;
    }
  return TRUE;
}

/**
 * chrome_writer_write_batch:
 *
 * Writes the events of @batch.  All batches must use the same string pool.
 */
gboolean
chrome_writer_write_batch (ChromeWriter *w,
                           TraceBatch *batch,
                           GError **error)
{
  g_return_val_if_fail (w != NULL, FALSE);
  g_return_val_if_fail (batch != NULL, FALSE);

  if (!check_usable (w, error))
    return FALSE;
  if (w->pool == NULL)
    {
      w->pool = trace_string_pool_ref (batch->pool);
      w->str_flow = trace_string_pool_intern (w->pool, "flow");
      w->str_step = trace_string_pool_intern (w->pool, "step");
      w->str_name = trace_string_pool_intern (w->pool, "name");
      w->str_clock_sync = trace_string_pool_intern (w->pool, "clock_sync");
    }
  g_return_val_if_fail (batch->pool == w->pool, FALSE);
  if (!w->started)
    write_header (w);
  w->batch_text = batch->text;
  for (guint i = 0; i < batch->n_events; i++)
    {
      if (!write_event (w, batch, &batch->events[i], error))
        {
          w->failed = TRUE;
          return FALSE;
        }
      if (w->buf->len >= CHROME_WRITER_FLUSH_SIZE && !chrome_writer_flush (w, error))
        return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The end                                                             */

static void
release_all_threads (ChromeWriter *w)
{
  GHashTableIter iter;
  WriterThread *t;

  g_hash_table_iter_init (&iter, w->threads);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &t))
    {
      guint64 below = t->written_below;

      release_thread (w, t);
      w->stats.open_slices += t->written_below - below;
    }
}

/**
 * chrome_writer_write_suffix:
 *
 * Ends the output so that it is valid JSON: slices still open are written
 * as B, pending CPU samples are written, the traceEvents array is closed,
 * then (object form) displayTimeUnit, systemTraceEvents and metadata
 * follow and the object is closed.  Everything is written to the stream
 * (not flushed).  Calling it again does nothing.
 */
gboolean
chrome_writer_write_suffix (ChromeWriter *w,
                            GError **error)
{
  g_return_val_if_fail (w != NULL, FALSE);

  if (w->suffix_written)
    return TRUE;
  if (!check_usable (w, error))
    return FALSE;
  if (!w->started)
    write_header (w);
  release_all_threads (w);
  chrome_writer_profiles_finish (w);
  chrome_writer_graphics_finish (w);
  g_string_append (w->buf, "\n]");
  if (w->opts.form == CHROME_FORM_OBJECT)
    {
      if (*w->display_time_unit != '\0')
        {
          g_string_append (w->buf, ",\n\"displayTimeUnit\":");
          chrome_fmt_string (w->buf, w->display_time_unit, strlen (w->display_time_unit));
        }
      if (!chrome_writer_kernel_suffix (w, error))
        return FALSE;
      chrome_writer_put_metadata (w);
      g_string_append_c (w->buf, '}');
    }
  g_string_append_c (w->buf, '\n');
  w->suffix_written = TRUE;
  return chrome_writer_flush (w, error);
}

/**
 * chrome_writer_finish:
 *
 * Writes the suffix and flushes the stream (it is not closed).
 */
gboolean
chrome_writer_finish (ChromeWriter *w,
                      GError **error)
{
  GError *io_error = NULL;

  g_return_val_if_fail (w != NULL, FALSE);

  if (!chrome_writer_write_suffix (w, error))
    return FALSE;
  if (!g_output_stream_flush (w->out, NULL, &io_error))
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_WRITE,
                   "cannot write the JSON trace: %s", io_error->message);
      g_error_free (io_error);
      return FALSE;
    }
  g_debug ("writer finished: %" G_GUINT64_FORMAT " events, %" G_GUINT64_FORMAT " kernel lines, %" G_GUINT64_FORMAT
           " bytes; %" G_GUINT64_FORMAT " slices still open written as B",
           w->stats.events, w->stats.kernel_lines, w->bytes_written, w->stats.open_slices);
  return TRUE;
}

guint64
chrome_writer_get_bytes_written (ChromeWriter *w)
{
  g_return_val_if_fail (w != NULL, 0);

  return w->bytes_written;
}

const ChromeWriterStats *
chrome_writer_get_stats (ChromeWriter *w)
{
  g_return_val_if_fail (w != NULL, NULL);

  return &w->stats;
}
