/* tracepipe - a ref-counted batch of events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <trace/traceevent.h>
#include <trace/tracestringpool.h>

G_BEGIN_DECLS

/**
 * TRACE_BATCH_DEFAULT_SIZE:
 *
 * How many events a source puts in a batch unless it has a reason to do
 * otherwise: large enough that per-batch costs vanish, small enough to
 * stay in cache.
 */
#define TRACE_BATCH_DEFAULT_SIZE 4096

/**
 * TRACE_BATCH_MAX_INPUT_BYTES:
 *
 * How many input bytes a reader consumes at most for one batch, whether
 * or not events come out of them. An input that yields nothing (a file
 * of NUL bytes, `/dev/zero`, megabytes of lines no parser takes) would
 * otherwise keep a reader in one call until its end, and the thread
 * that runs the pipeline's main loop, where Ctrl-C is handled, with it.
 * A reader that reaches it returns the batch it has, even empty: an
 * empty batch says "nothing yet, call again".
 */
#define TRACE_BATCH_MAX_INPUT_BYTES (4 * 1024 * 1024)

/**
 * TraceBatch:
 * @events: (array length=n_events): the events, by value
 * @n_events: how many events are in use
 * @args: (array length=n_args): the args of all events
 * @n_args: how many args are in use
 * @pool: the string pool the ids of this batch refer to
 * @text: the bytes of the batch's %TRACE_ARG_TEXT args, each followed by
 *   a NUL; %NULL while it has none
 * @text_len: how many bytes of @text are in use
 *
 * The unit of data that travels between pads: thousands of events and
 * their args, stored by value. A batch is writable while only one
 * reference is held (see trace_batch_make_writable()).
 */
typedef struct
{
  TraceEvent *events;
  guint n_events;
  TraceArg *args;
  guint n_args;
  TraceStringPool *pool;
  char *text;
  guint text_len;

  /*< private >*/
  guint events_capacity;
  guint args_capacity;
  guint text_capacity;
  gint ref_count;
  gpointer _reserved[3];
} TraceBatch;

#define TRACE_TYPE_BATCH (trace_batch_get_type ())
TRACE_AVAILABLE_IN_ALL
GType trace_batch_get_type (void) G_GNUC_CONST;

TRACE_AVAILABLE_IN_ALL
TraceBatch *trace_batch_new (TraceStringPool *pool,
                             guint reserve);
TRACE_AVAILABLE_IN_ALL
void trace_batch_reserve (TraceBatch *batch,
                          guint n_args,
                          gsize text_len);
TRACE_AVAILABLE_IN_ALL
TraceBatch *trace_batch_ref (TraceBatch *batch);
TRACE_AVAILABLE_IN_ALL
void trace_batch_unref (TraceBatch *batch);
TRACE_AVAILABLE_IN_ALL
gboolean trace_batch_is_writable (TraceBatch *batch);
TRACE_AVAILABLE_IN_ALL
TraceBatch *trace_batch_make_writable (TraceBatch *batch);
TRACE_AVAILABLE_IN_ALL
TraceBatch *trace_batch_copy (TraceBatch *batch);
TRACE_AVAILABLE_IN_ALL
TraceBatch *trace_batch_drop_shape_args (TraceBatch *batch);

TRACE_AVAILABLE_IN_ALL
TraceEvent *trace_batch_append (TraceBatch *batch,
                                TraceEventKind kind,
                                gint64 ts);
TRACE_AVAILABLE_IN_ALL
TraceEvent *trace_batch_append_event (TraceBatch *batch,
                                      const TraceEvent *event,
                                      TraceBatch *args_from);
TRACE_AVAILABLE_IN_ALL
TraceArg *trace_batch_add_arg (TraceBatch *batch,
                               TraceEvent *event,
                               guint32 key,
                               TraceArgType type);
TRACE_AVAILABLE_IN_ALL
TraceArg *trace_batch_add_arg_text (TraceBatch *batch,
                                    TraceEvent *event,
                                    guint32 key,
                                    const char *str,
                                    gsize len);
TRACE_AVAILABLE_IN_ALL
guint32 trace_batch_intern_arg (TraceBatch *batch,
                                const TraceArg *arg);
TRACE_AVAILABLE_IN_ALL
TraceBatch *trace_batch_intern_text_args (TraceBatch *batch);
TRACE_AVAILABLE_IN_ALL
void trace_batch_squeeze (TraceBatch *batch,
                          guint32 *remap);
TRACE_AVAILABLE_IN_ALL
void trace_batch_add_arg_int (TraceBatch *batch,
                              TraceEvent *event,
                              const char *key,
                              gint64 value);
TRACE_AVAILABLE_IN_ALL
void trace_batch_add_arg_double (TraceBatch *batch,
                                 TraceEvent *event,
                                 const char *key,
                                 double value);
TRACE_AVAILABLE_IN_ALL
void trace_batch_add_arg_string (TraceBatch *batch,
                                 TraceEvent *event,
                                 const char *key,
                                 const char *value);
TRACE_AVAILABLE_IN_ALL
void trace_batch_add_arg_bool (TraceBatch *batch,
                               TraceEvent *event,
                               const char *key,
                               gboolean value);
TRACE_AVAILABLE_IN_ALL
void trace_batch_remove_none (TraceBatch *batch);
TRACE_AVAILABLE_IN_ALL
void trace_batch_clear (TraceBatch *batch);
TRACE_AVAILABLE_IN_ALL
gboolean trace_batch_get_time_range (TraceBatch *batch,
                                     gint64 *min_ts,
                                     gint64 *max_ts);

TRACE_AVAILABLE_IN_ALL
guint trace_batch_get_n_events (TraceBatch *batch);
TRACE_AVAILABLE_IN_ALL
TraceEventKind trace_batch_get_event_kind (TraceBatch *batch,
                                           guint index);
TRACE_AVAILABLE_IN_ALL
gint64 trace_batch_get_event_ts (TraceBatch *batch,
                                 guint index);
TRACE_AVAILABLE_IN_ALL
gint64 trace_batch_get_event_dur (TraceBatch *batch,
                                  guint index);
TRACE_AVAILABLE_IN_ALL
gint64 trace_batch_get_event_pid (TraceBatch *batch,
                                  guint index);
TRACE_AVAILABLE_IN_ALL
gint64 trace_batch_get_event_tid (TraceBatch *batch,
                                  guint index);
TRACE_AVAILABLE_IN_ALL
gint trace_batch_get_event_cpu (TraceBatch *batch,
                                guint index);
TRACE_AVAILABLE_IN_ALL
const char *trace_batch_get_event_name (TraceBatch *batch,
                                        guint index);
TRACE_AVAILABLE_IN_ALL
const char *trace_batch_get_event_category (TraceBatch *batch,
                                            guint index);

/**
 * trace_batch_get_args:
 * @batch: a #TraceBatch
 * @event: an event of @batch
 *
 * Returns: (transfer none): the first of the @event's `n_args` args
 */
static inline const TraceArg *
trace_batch_get_args (const TraceBatch *batch,
                      const TraceEvent *event)
{
  return batch->args + event->first_arg;
}

/**
 * trace_batch_find_arg:
 * @batch: a #TraceBatch
 * @event: an event of @batch
 * @key: the string id of an arg's key
 *
 * Returns: (transfer none) (nullable): the first of @event's args under
 *   @key that holds a value (one that only keeps a JSON shape,
 *   trace_arg_is_shape(), is passed over), %NULL when it has none
 */
static inline const TraceArg *
trace_batch_find_arg (const TraceBatch *batch,
                      const TraceEvent *event,
                      guint32 key)
{
  const TraceArg *args;
  guint i; /* declared apart: g-ir-scanner reads this header as C89 */

  if (event->n_args == 0) /* the batch may have no args at all */
    return NULL;
  args = trace_batch_get_args (batch, event);
  for (i = 0; i < event->n_args; i++)
    if (args[i].key == key && !trace_arg_is_shape (&args[i]))
      return &args[i];
  return NULL;
}

/**
 * TRACE_SLICE_MAX_FLOWS:
 *
 * How many flows one slice event binds at most, its `u.slice.flow_out`
 * and `flow_in` included: a TrackEvent's `flow_ids` and
 * `terminating_flow_ids` are repeated fields, and each id past the first
 * pair costs the event an arg or two.
 */
#define TRACE_SLICE_MAX_FLOWS 32

/**
 * TRACE_ARG_KEY_FLOW_OUT:
 *
 * The key of an arg that holds one more flow id a slice sends, as
 * `u.slice.flow_out` does (%TRACE_EVENT_FLAG_MORE_FLOWS).
 */
#define TRACE_ARG_KEY_FLOW_OUT "flow_out"

/**
 * TRACE_ARG_KEY_FLOW_IN:
 *
 * The key of an arg that holds one more flow id a slice receives, as
 * `u.slice.flow_in` does (%TRACE_EVENT_FLAG_MORE_FLOWS).
 */
#define TRACE_ARG_KEY_FLOW_IN "flow_in"

TRACE_AVAILABLE_IN_ALL
gboolean trace_batch_add_slice_flow (TraceBatch *batch,
                                     TraceEvent *event,
                                     guint64 flow_in,
                                     guint64 flow_out);
TRACE_AVAILABLE_IN_ALL
gboolean trace_batch_next_slice_flow (const TraceBatch *batch,
                                      const TraceEvent *event,
                                      guint *iter,
                                      guint64 *flow_in,
                                      guint64 *flow_out);
TRACE_AVAILABLE_IN_ALL
guint trace_batch_count_slice_flows (const TraceBatch *batch,
                                     const TraceEvent *event);
TRACE_AVAILABLE_IN_ALL
gboolean trace_batch_arg_is_slice_flow (const TraceBatch *batch,
                                        const TraceEvent *event,
                                        const TraceArg *arg);

/**
 * trace_batch_get_string:
 * @batch: a #TraceBatch
 * @id: a string id of one of the batch's events
 *
 * Returns: (transfer none): the string
 */
/**
 * trace_batch_get_arg_string:
 * @batch: a #TraceBatch
 * @arg: an arg of @batch
 *
 * The value of a string arg, interned (%TRACE_ARG_STRING) or stored in
 * the batch (%TRACE_ARG_TEXT).
 *
 * Returns: (nullable) (transfer none): the NUL-terminated value, valid as
 *   long as @batch is; %NULL for an arg of another type
 */
static inline const char *
trace_batch_get_arg_string (const TraceBatch *batch,
                            const TraceArg *arg)
{
  if (arg->type == TRACE_ARG_TEXT)
    return batch->text + arg->v.text.offset;
  if (arg->type == TRACE_ARG_STRING)
    return trace_string_pool_get (batch->pool, arg->v.s);
  return NULL;
}

#define trace_batch_get_string(batch, id) \
  trace_string_pool_get ((batch)->pool, (id))

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TraceBatch, trace_batch_unref)

G_END_DECLS
