/* tracepipe - a ref-counted batch of events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "trace/trace.h"

G_DEFINE_BOXED_TYPE (TraceBatch, trace_batch, trace_batch_ref, trace_batch_unref)

/* An async, flow or Chrome phase event's thread time uses room the union
 * has for u.slice: the struct every event pays for does not grow
 * (docs/event-model.md). */
G_STATIC_ASSERT (sizeof (((TraceEvent *) NULL)->u.async) <= sizeof (((TraceEvent *) NULL)->u.slice));
G_STATIC_ASSERT (sizeof (((TraceEvent *) NULL)->u.chrome_phase) <= sizeof (((TraceEvent *) NULL)->u.slice));

/**
 * trace_batch_new:
 * @pool: (nullable): the string pool the events' ids refer to; %NULL for
 *   the default pool
 * @reserve: how many events to make room for (0 for the default)
 *
 * Returns: (transfer full): an empty, writable batch
 */
TraceBatch *
trace_batch_new (TraceStringPool *pool,
                 guint reserve)
{
  TraceBatch *batch = g_new0 (TraceBatch, 1);

  if (reserve == 0)
    reserve = TRACE_BATCH_DEFAULT_SIZE;
  batch->ref_count = 1;
  batch->pool = trace_string_pool_ref (pool ? pool : trace_string_pool_get_default ());
  batch->events = g_new (TraceEvent, reserve);
  batch->events_capacity = reserve;
  return batch;
}

/**
 * trace_batch_reserve:
 * @batch: a writable #TraceBatch
 * @n_args: how many args to make room for
 * @text_len: how many bytes of text (%TRACE_ARG_TEXT values and their
 *   NULs) to make room for
 *
 * Makes room up front, for a source that knows about how much its
 * batches take (the last one's size): growing by doubling copies each
 * array half a dozen times a batch, and arrays this size are mapped and
 * unmapped by malloc each time.
 */
void
trace_batch_reserve (TraceBatch *batch,
                     guint n_args,
                     gsize text_len)
{
  g_return_if_fail (batch != NULL);

  if (n_args > batch->args_capacity)
    {
      batch->args_capacity = n_args;
      batch->args = g_renew (TraceArg, batch->args, batch->args_capacity);
    }
  if (text_len > batch->text_capacity && text_len <= G_MAXUINT32)
    {
      batch->text_capacity = (guint) text_len;
      batch->text = g_realloc (batch->text, batch->text_capacity);
    }
}

/**
 * trace_batch_ref:
 * @batch: a #TraceBatch
 *
 * Returns: (transfer full): @batch
 */
TraceBatch *
trace_batch_ref (TraceBatch *batch)
{
  g_return_val_if_fail (batch != NULL, NULL);

  g_atomic_int_inc (&batch->ref_count);
  return batch;
}

/**
 * trace_batch_unref:
 * @batch: (transfer full): a #TraceBatch
 */
void
trace_batch_unref (TraceBatch *batch)
{
  g_return_if_fail (batch != NULL);

  if (!g_atomic_int_dec_and_test (&batch->ref_count))
    return;
  g_free (batch->events);
  g_free (batch->args);
  g_free (batch->text);
  trace_string_pool_unref (batch->pool);
  g_free (batch);
}

/**
 * trace_batch_is_writable:
 * @batch: a #TraceBatch
 *
 * Returns: whether the caller holds the only reference
 */
gboolean
trace_batch_is_writable (TraceBatch *batch)
{
  g_return_val_if_fail (batch != NULL, FALSE);

  return g_atomic_int_get (&batch->ref_count) == 1;
}

/**
 * trace_batch_copy:
 * @batch: a #TraceBatch
 *
 * Returns: (transfer full): a writable deep copy
 */
TraceBatch *
trace_batch_copy (TraceBatch *batch)
{
  TraceBatch *copy;

  g_return_val_if_fail (batch != NULL, NULL);

  copy = trace_batch_new (batch->pool, MAX (batch->n_events, 1));
  memcpy (copy->events, batch->events, batch->n_events * sizeof (TraceEvent));
  copy->n_events = batch->n_events;
  if (batch->n_args > 0)
    {
      copy->args = g_memdup2 (batch->args, batch->n_args * sizeof (TraceArg));
      copy->n_args = copy->args_capacity = batch->n_args;
    }
  if (batch->text_len > 0)
    {
      copy->text = g_memdup2 (batch->text, batch->text_len);
      copy->text_len = copy->text_capacity = batch->text_len;
    }
  return copy;
}

/* Whether each event's args come after the previous event's. */
static gboolean
args_in_event_order (TraceBatch *batch)
{
  guint next = 0;

  for (guint e = 0; e < batch->n_events; e++)
    {
      if (batch->events[e].first_arg < next)
        return FALSE;
      next = batch->events[e].first_arg + batch->events[e].n_args;
    }
  return TRUE;
}

/**
 * trace_batch_drop_shape_args:
 * @batch: (transfer full): a #TraceBatch
 *
 * For consumers that have no use for the value-less args
 * (%TRACE_ARG_NULL, %TRACE_ARG_EMPTY_ARRAY, %TRACE_ARG_EMPTY_OBJECT): see
 * trace_base_sink_class_set_keeps_arg_shape().
 *
 * Returns: (transfer full): @batch itself when it has none, or when it
 *   is writable (they are dropped in place), else a copy without them
 *   (one copy per batch, not per event)
 */
TraceBatch *
trace_batch_drop_shape_args (TraceBatch *batch)
{
  TraceBatch *out;
  guint i = 0;

  g_return_val_if_fail (batch != NULL, NULL);

  while (i < batch->n_args && !trace_arg_is_shape (&batch->args[i]))
    i++;
  if (i == batch->n_args)
    return batch;
  /* When args are in event order (as every source writes them), kept
   * args only move down, so a batch no one else holds is filtered where
   * it is: a sink of a JSON stream with nulls had every batch copied. */
  out = trace_batch_is_writable (batch) && args_in_event_order (batch) ? batch : trace_batch_copy (batch);
  out->n_args = 0;
  for (guint e = 0; e < out->n_events; e++)
    {
      TraceEvent *ev = &out->events[e];
      guint first = ev->first_arg, n = ev->n_args;

      ev->first_arg = out->n_args;
      ev->n_args = 0;
      for (guint a = 0; a < n; a++)
        {
          TraceArg arg = batch->args[first + a];

          if (!trace_arg_is_shape (&arg))
            out->args[out->n_args++] = arg, ev->n_args++;
        }
    }
  if (out != batch)
    trace_batch_unref (batch);
  return out;
}

/**
 * trace_batch_make_writable:
 * @batch: (transfer full): a #TraceBatch
 *
 * Returns: (transfer full): @batch if it was writable, else a copy (and
 *   the reference to @batch is dropped)
 */
TraceBatch *
trace_batch_make_writable (TraceBatch *batch)
{
  TraceBatch *copy;

  g_return_val_if_fail (batch != NULL, NULL);

  if (trace_batch_is_writable (batch))
    return batch;
  copy = trace_batch_copy (batch);
  trace_batch_unref (batch);
  return copy;
}

static void
trace_batch_grow_events (TraceBatch *batch)
{
  batch->events_capacity = MAX (16, batch->events_capacity * 2);
  batch->events = g_renew (TraceEvent, batch->events, batch->events_capacity);
}

/**
 * trace_batch_append:
 * @batch: a writable #TraceBatch
 * @kind: the kind of the new event
 * @ts: its timestamp
 *
 * Appends an event with unknown pid, tid and cpu, no name and no args.
 * The pointer is valid until the next append.
 *
 * Returns: (transfer none): the new event, for the caller to fill in
 */
TraceEvent *
trace_batch_append (TraceBatch *batch,
                    TraceEventKind kind,
                    gint64 ts)
{
  TraceEvent *ev;

  /* No precondition: called for every event a source makes, and a check
   * here would cost on each (GStreamer checks per buffer, not per byte). */
  if (G_UNLIKELY (batch->n_events == batch->events_capacity))
    trace_batch_grow_events (batch);
  ev = &batch->events[batch->n_events++];
  memset (ev, 0, sizeof *ev);
  ev->kind = kind;
  ev->ts = ts;
  ev->pid = ev->tid = TRACE_ID_UNKNOWN;
  ev->cpu = TRACE_ID_UNKNOWN;
  ev->first_arg = batch->n_args;
  return ev;
}

/* Makes room for @len more bytes of text. */
static void
reserve_text (TraceBatch *batch,
              gsize len)
{
  gsize need = (gsize) batch->text_len + len;

  if (G_LIKELY (need <= batch->text_capacity))
    return;
  batch->text_capacity = (guint) MIN (MAX (MAX (4096, (gsize) batch->text_capacity * 2), need), G_MAXUINT32);
  batch->text = g_realloc (batch->text, batch->text_capacity);
}

/* Whether @len bytes and their NUL still fit the 32-bit offsets. */
static gboolean
text_fits (const TraceBatch *batch,
           gsize len)
{
  return len < G_MAXUINT32 && batch->text_len <= G_MAXUINT32 - 1 - len;
}

/* Appends @len bytes and a NUL; returns their offset. */
static guint32
append_text (TraceBatch *batch,
             const char *str,
             gsize len)
{
  guint32 offset = batch->text_len;

  reserve_text (batch, len + 1);
  memcpy (batch->text + offset, str, len);
  batch->text[offset + len] = '\0';
  batch->text_len += len + 1;
  return offset;
}

/* Turns text arg @arg, whose bytes are in @from's text, into an
 * interned string. */
static void
intern_text_arg (TraceArg *arg,
                 TraceBatch *from)
{
  arg->v.s = trace_string_pool_intern_len (from->pool, from->text + arg->v.text.offset, arg->v.text.len);
  arg->type = TRACE_ARG_STRING;
}

/* The text args among @args (just copied into @batch from @from, which
 * may be @batch) get their bytes copied too; a text that no longer fits
 * @batch's offsets is interned instead. */
static void
copy_arg_texts (TraceBatch *batch,
                TraceArg *args,
                guint n_args,
                TraceBatch *from)
{
  for (guint a = 0; a < n_args; a++)
    {
      TraceArg *arg = &args[a];
      guint32 offset;

      if (arg->type != TRACE_ARG_TEXT)
        continue;
      if (!text_fits (batch, arg->v.text.len))
        {
          intern_text_arg (arg, from);
          continue;
        }
      /* room first: when @from is @batch, the source moves with it */
      offset = batch->text_len;
      reserve_text (batch, (gsize) arg->v.text.len + 1);
      memcpy (batch->text + offset, from->text + arg->v.text.offset, arg->v.text.len + 1);
      batch->text_len += arg->v.text.len + 1;
      arg->v.text.offset = offset;
    }
}

/**
 * trace_batch_append_event:
 * @batch: a writable #TraceBatch
 * @event: an event to copy
 * @args_from: (nullable): the batch @event belongs to, whose args are
 *   copied too; %NULL to drop the args
 *
 * Both batches must use the same string pool.
 *
 * Returns: (transfer none): the copy in @batch
 */
TraceEvent *
trace_batch_append_event (TraceBatch *batch,
                          const TraceEvent *event,
                          TraceBatch *args_from)
{
  TraceEvent *ev;
  guint n_args = args_from ? event->n_args : 0;

  /* No precondition: per event, as trace_batch_append(). */
  if (G_UNLIKELY (batch->n_events == batch->events_capacity))
    trace_batch_grow_events (batch);
  ev = &batch->events[batch->n_events++];
  *ev = *event;
  ev->first_arg = batch->n_args;
  ev->n_args = n_args;
  if (n_args > 0)
    {
      /* in one copy (perfetto-sink's ordering window copies every event);
       * the source is found after growing, since @args_from may be @batch */
      if (G_UNLIKELY (batch->n_args + n_args > batch->args_capacity))
        {
          batch->args_capacity = MAX (MAX (64, batch->args_capacity * 2), batch->n_args + n_args);
          batch->args = g_renew (TraceArg, batch->args, batch->args_capacity);
        }
      memcpy (&batch->args[batch->n_args], &args_from->args[event->first_arg], n_args * sizeof (TraceArg));
      batch->n_args += n_args;
      if (G_UNLIKELY (args_from->text_len > 0))
        copy_arg_texts (batch, &batch->args[batch->n_args - n_args], n_args, args_from);
    }
  return ev;
}

/**
 * trace_batch_add_arg:
 * @batch: a writable #TraceBatch
 * @event: the last event of @batch
 * @key: interned key
 * @type: the type of the value
 *
 * Args are stored contiguously, so only the last event appended may get
 * new args.
 *
 * Returns: (transfer none): the arg, for the caller to set its value
 */
TraceArg *
trace_batch_add_arg (TraceBatch *batch,
                     TraceEvent *event,
                     guint32 key,
                     TraceArgType type)
{
  TraceArg *arg;

  /* Per arg: only the check that guards the contiguous layout, which
   * trace_batch_append_event() relies on too; no NULL or type checks. */
  g_return_val_if_fail (event->first_arg + event->n_args == batch->n_args, NULL);

  if (G_UNLIKELY (batch->n_args == batch->args_capacity))
    {
      batch->args_capacity = MAX (64, batch->args_capacity * 2);
      batch->args = g_renew (TraceArg, batch->args, batch->args_capacity);
    }
  arg = &batch->args[batch->n_args++];
  event->n_args++;
  arg->key = key;
  arg->type = type;
  arg->v.u = 0;
  return arg;
}

/**
 * trace_batch_add_arg_text:
 * @batch: a writable #TraceBatch
 * @event: the last event of @batch
 * @key: interned key
 * @str: (array length=len): the value's bytes
 * @len: their number
 *
 * Adds a string arg whose bytes are kept in @batch, not interned: for a
 * value the source has not seen before and may never see again (see
 * %TRACE_ARG_TEXT). An empty value, or one past what a batch's 32-bit
 * offsets can reach (4 GiB of text in one batch), is interned instead
 * (%TRACE_ARG_STRING), so the arg is always added.
 *
 * Returns: (transfer none): the arg
 */
TraceArg *
trace_batch_add_arg_text (TraceBatch *batch,
                          TraceEvent *event,
                          guint32 key,
                          const char *str,
                          gsize len)
{
  TraceArg *arg;

  if (len == 0 || !text_fits (batch, len))
    {
      guint32 id = trace_string_pool_intern_len (batch->pool, str, len);

      arg = trace_batch_add_arg (batch, event, key, TRACE_ARG_STRING);
      if (arg != NULL)
        arg->v.s = id;
      return arg;
    }
  arg = trace_batch_add_arg (batch, event, key, TRACE_ARG_TEXT);
  if (arg == NULL)
    return NULL;
  arg->v.text.offset = append_text (batch, str, len);
  arg->v.text.len = (guint32) len;
  return arg;
}

/**
 * trace_batch_intern_arg:
 * @batch: a #TraceBatch
 * @arg: a %TRACE_ARG_STRING or %TRACE_ARG_TEXT arg of @batch
 *
 * For a consumer that needs a string arg's value as a pool id (to keep
 * it past the batch, or to use it as a key). A text arg's value is
 * interned: the pool keeps it to the end of the pipeline.
 *
 * Returns: the pool id of the arg's value (0 for an arg of another type)
 */
guint32
trace_batch_intern_arg (TraceBatch *batch,
                        const TraceArg *arg)
{
  g_return_val_if_fail (batch != NULL, 0);
  g_return_val_if_fail (arg != NULL, 0);

  if (arg->type == TRACE_ARG_TEXT)
    return trace_string_pool_intern_len (batch->pool, batch->text + arg->v.text.offset, arg->v.text.len);
  return arg->type == TRACE_ARG_STRING ? arg->v.s : 0;
}

/**
 * trace_batch_intern_text_args:
 * @batch: (transfer full): a #TraceBatch
 *
 * Turns every %TRACE_ARG_TEXT arg into a %TRACE_ARG_STRING with the same
 * value, for consumers written before text args existed (see
 * trace_base_sink_class_set_reads_arg_text()).
 *
 * Returns: (transfer full): @batch itself when it has no text args or is
 *   writable (changed in place), else a changed copy
 */
TraceBatch *
trace_batch_intern_text_args (TraceBatch *batch)
{
  g_return_val_if_fail (batch != NULL, NULL);

  if (batch->text_len == 0)
    return batch;
  batch = trace_batch_make_writable (batch);
  for (guint a = 0; a < batch->n_args; a++)
    {
      TraceArg *arg = &batch->args[a];

      if (arg->type == TRACE_ARG_TEXT)
        intern_text_arg (arg, batch);
    }
  batch->text_len = 0;
  return batch;
}

/**
 * trace_batch_add_arg_int:
 * @batch: a writable #TraceBatch
 * @event: the last event of @batch
 * @key: the key
 * @value: the value
 */
void
trace_batch_add_arg_int (TraceBatch *batch,
                         TraceEvent *event,
                         const char *key,
                         gint64 value)
{
  guint32 k;

  /* Per arg of an event: NULL checks only. */
  g_return_if_fail (batch != NULL);
  g_return_if_fail (event != NULL);

  k = trace_string_pool_intern (batch->pool, key);
  trace_batch_add_arg (batch, event, k, TRACE_ARG_INT)->v.i = value;
}

/**
 * trace_batch_add_arg_double:
 * @batch: a writable #TraceBatch
 * @event: the last event of @batch
 * @key: the key
 * @value: the value
 */
void
trace_batch_add_arg_double (TraceBatch *batch,
                            TraceEvent *event,
                            const char *key,
                            double value)
{
  guint32 k;

  /* Per arg of an event: NULL checks only. */
  g_return_if_fail (batch != NULL);
  g_return_if_fail (event != NULL);

  k = trace_string_pool_intern (batch->pool, key);
  trace_batch_add_arg (batch, event, k, TRACE_ARG_DOUBLE)->v.d = value;
}

/**
 * trace_batch_add_arg_string:
 * @batch: a writable #TraceBatch
 * @event: the last event of @batch
 * @key: the key
 * @value: the value
 */
void
trace_batch_add_arg_string (TraceBatch *batch,
                            TraceEvent *event,
                            const char *key,
                            const char *value)
{
  guint32 k;
  guint32 v;

  /* Per arg of an event: NULL checks only. */
  g_return_if_fail (batch != NULL);
  g_return_if_fail (event != NULL);

  k = trace_string_pool_intern (batch->pool, key);
  v = trace_string_pool_intern (batch->pool, value);
  trace_batch_add_arg (batch, event, k, TRACE_ARG_STRING)->v.s = v;
}

/**
 * trace_batch_add_arg_bool:
 * @batch: a writable #TraceBatch
 * @event: the last event of @batch
 * @key: the key
 * @value: the value
 */
void
trace_batch_add_arg_bool (TraceBatch *batch,
                          TraceEvent *event,
                          const char *key,
                          gboolean value)
{
  guint32 k;

  /* Per arg of an event: NULL checks only. */
  g_return_if_fail (batch != NULL);
  g_return_if_fail (event != NULL);

  k = trace_string_pool_intern (batch->pool, key);
  trace_batch_add_arg (batch, event, k, TRACE_ARG_BOOL)->v.b = !!value;
}

/**
 * trace_batch_remove_none:
 * @batch: a writable #TraceBatch
 *
 * Drops the events whose kind was set to %TRACE_EVENT_NONE, keeping the
 * order of the others. Args stay where they are (they are only reclaimed
 * when the batch is freed), so this is one pass without allocation.
 */
void
trace_batch_remove_none (TraceBatch *batch)
{
  guint out = 0;

  g_return_if_fail (batch != NULL);

  for (guint i = 0; i < batch->n_events; i++)
    {
      if (batch->events[i].kind == TRACE_EVENT_NONE)
        continue;
      if (out != i)
        batch->events[out] = batch->events[i];
      out++;
    }
  batch->n_events = out;
}

/**
 * trace_batch_squeeze:
 * @batch: a writable #TraceBatch whose args, and the texts of its text
 *   args, are in event order (as trace_batch_append() and
 *   trace_batch_append_event() leave them; not after events were
 *   reordered in place)
 * @remap: (array) (out caller-allocates) (nullable): room for the
 *   batch's `n_events` indices, or %NULL
 *
 * Drops the events whose kind was set to %TRACE_EVENT_NONE together with
 * their args and texts, in place and keeping the order of the rest: for
 * a batch used as a store that events pass through (perfetto-sink's
 * ordering window), whose memory must not grow with what passed.
 * @remap[i] becomes the new index of a kept event i (the dropped ones'
 * entries are left as they were).
 */
void
trace_batch_squeeze (TraceBatch *batch,
                     guint32 *remap)
{
  guint out = 0, out_arg = 0, out_text = 0;
  gboolean has_text;

  g_return_if_fail (batch != NULL);

  has_text = batch->text_len > 0;
  for (guint i = 0; i < batch->n_events; i++)
    {
      TraceEvent *ev = &batch->events[i];

      if (ev->kind == TRACE_EVENT_NONE)
        continue;
      if (ev->n_args > 0 && ev->first_arg != out_arg)
        memmove (&batch->args[out_arg], &batch->args[ev->first_arg], ev->n_args * sizeof (TraceArg));
      ev->first_arg = out_arg;
      /* texts come in the order of their args, so they only move down */
      for (guint a = out_arg; has_text && a < out_arg + ev->n_args; a++)
        {
          TraceArg *arg = &batch->args[a];

          if (arg->type != TRACE_ARG_TEXT)
            continue;
          if (arg->v.text.offset != out_text)
            memmove (batch->text + out_text, batch->text + arg->v.text.offset, arg->v.text.len + 1);
          arg->v.text.offset = out_text;
          out_text += arg->v.text.len + 1;
        }
      out_arg += ev->n_args;
      if (out != i)
        batch->events[out] = *ev;
      if (remap != NULL)
        remap[i] = out;
      out++;
    }
  batch->n_events = out;
  batch->n_args = out_arg;
  batch->text_len = out_text;
}

/**
 * trace_batch_clear:
 * @batch: a writable #TraceBatch
 *
 * Empties the batch, keeping its memory for reuse.
 */
void
trace_batch_clear (TraceBatch *batch)
{
  g_return_if_fail (batch != NULL);

  batch->n_events = 0;
  batch->n_args = 0;
  batch->text_len = 0;
}

/**
 * trace_batch_get_time_range:
 * @batch: a #TraceBatch
 * @min_ts: (out) (optional): the smallest timestamp
 * @max_ts: (out) (optional): the largest timestamp
 *
 * Returns: %FALSE if the batch is empty
 */
gboolean
trace_batch_get_time_range (TraceBatch *batch,
                            gint64 *min_ts,
                            gint64 *max_ts)
{
  gint64 lo = G_MAXINT64, hi = G_MININT64;

  g_return_val_if_fail (batch != NULL, FALSE);

  for (guint i = 0; i < batch->n_events; i++)
    {
      lo = MIN (lo, batch->events[i].ts);
      hi = MAX (hi, batch->events[i].ts);
    }
  if (min_ts)
    *min_ts = lo;
  if (max_ts)
    *max_ts = hi;
  return batch->n_events > 0;
}

/* The accessors below read one field of one event by index: what a
 * language binding can call, since the event array and its unions are not
 * introspectable. C code reads `batch->events[i]` directly. */

/**
 * trace_batch_get_n_events:
 * @batch: a #TraceBatch
 *
 * Returns: how many events @batch holds: the indexes the
 *   `trace_batch_get_event_*()` accessors take are below it
 */
guint
trace_batch_get_n_events (TraceBatch *batch)
{
  g_return_val_if_fail (batch != NULL, 0);

  return batch->n_events;
}

#define EVENT_AT(batch, index, fallback)                            \
  G_STMT_START                                                      \
  {                                                                 \
    g_return_val_if_fail ((batch) != NULL, (fallback));             \
    g_return_val_if_fail ((index) < (batch)->n_events, (fallback)); \
  }                                                                 \
  G_STMT_END

/**
 * trace_batch_get_event_kind:
 * @batch: a #TraceBatch
 * @index: an event's index, below trace_batch_get_n_events()
 *
 * Returns: what the event is
 */
TraceEventKind
trace_batch_get_event_kind (TraceBatch *batch,
                            guint index)
{
  EVENT_AT (batch, index, TRACE_EVENT_NONE);
  return batch->events[index].kind;
}

/**
 * trace_batch_get_event_ts:
 * @batch: a #TraceBatch
 * @index: an event's index, below trace_batch_get_n_events()
 *
 * Returns: the event's timestamp in nanoseconds, in the stream's clock
 */
gint64
trace_batch_get_event_ts (TraceBatch *batch,
                          guint index)
{
  EVENT_AT (batch, index, 0);
  return batch->events[index].ts;
}

/**
 * trace_batch_get_event_dur:
 * @batch: a #TraceBatch
 * @index: an event's index, below trace_batch_get_n_events()
 *
 * Returns: the duration in nanoseconds of a %TRACE_EVENT_SLICE_COMPLETE
 *   or a %TRACE_EVENT_THREAD_STATE, 0 for any other kind
 */
gint64
trace_batch_get_event_dur (TraceBatch *batch,
                           guint index)
{
  EVENT_AT (batch, index, 0);
  if (batch->events[index].kind == TRACE_EVENT_THREAD_STATE)
    return batch->events[index].u.thread_state.dur;
  return batch->events[index].kind == TRACE_EVENT_SLICE_COMPLETE ? batch->events[index].u.slice.dur : 0;
}

/**
 * trace_batch_get_event_pid:
 * @batch: a #TraceBatch
 * @index: an event's index, below trace_batch_get_n_events()
 *
 * Returns: the process id, or %TRACE_ID_UNKNOWN
 */
gint64
trace_batch_get_event_pid (TraceBatch *batch,
                           guint index)
{
  EVENT_AT (batch, index, TRACE_ID_UNKNOWN);
  return batch->events[index].pid;
}

/**
 * trace_batch_get_event_tid:
 * @batch: a #TraceBatch
 * @index: an event's index, below trace_batch_get_n_events()
 *
 * Returns: the thread id, or %TRACE_ID_UNKNOWN
 */
gint64
trace_batch_get_event_tid (TraceBatch *batch,
                           guint index)
{
  EVENT_AT (batch, index, TRACE_ID_UNKNOWN);
  return batch->events[index].tid;
}

/**
 * trace_batch_get_event_cpu:
 * @batch: a #TraceBatch
 * @index: an event's index, below trace_batch_get_n_events()
 *
 * Returns: the cpu the event was recorded on, or %TRACE_ID_UNKNOWN
 */
gint
trace_batch_get_event_cpu (TraceBatch *batch,
                           guint index)
{
  EVENT_AT (batch, index, TRACE_ID_UNKNOWN);
  return batch->events[index].cpu;
}

/**
 * trace_batch_get_event_name:
 * @batch: a #TraceBatch
 * @index: an event's index, below trace_batch_get_n_events()
 *
 * Returns: (transfer none): the event's name (slice, counter, process or
 *   thread name…), "" for none; valid while the pipeline lives
 */
const char *
trace_batch_get_event_name (TraceBatch *batch,
                            guint index)
{
  EVENT_AT (batch, index, NULL);
  return trace_batch_get_string (batch, batch->events[index].name);
}

/**
 * trace_batch_get_event_category:
 * @batch: a #TraceBatch
 * @index: an event's index, below trace_batch_get_n_events()
 *
 * Returns: (transfer none): the event's category, "" for none
 */
const char *
trace_batch_get_event_category (TraceBatch *batch,
                                guint index)
{
  EVENT_AT (batch, index, NULL);
  return trace_batch_get_string (batch, batch->events[index].category);
}
