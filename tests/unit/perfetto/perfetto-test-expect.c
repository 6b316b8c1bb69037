/* Helpers of the Perfetto unit tests: the events a round trip must give
 * back for an input stream. This is docs/perfetto.md ("What does not
 * survive a round trip", the drop rules, the kernel arg mapping) written
 * as code, independently of the writer's and reader's code. */
#include "perfetto-test-util.h"

#include <math.h>
#include <string.h>

typedef struct
{
  TraceBatch *in;
  TraceBatch *out;
  gboolean mask_kernel_pid;
  GHashTable *assoc;        /* tid → pid */
  GHashTable *thread_names; /* "pid/tid" (tid -1 for processes) → name */
  GHashTable *processes;    /* pids of processes declared */
  GHashTable *depth;        /* "pid/track" → open slices */
  GHashTable *stacks;       /* "pid/tid" → ThreadStack */
  GHashTable *flows;        /* flow ids flowing */
  GHashTable *async;        /* family key → open slices */
  GHashTable *async_cat;    /* family key → the category of its outermost open begin */
  GHashTable *nodes_out;    /* stack node ids already given back */
  PtExpectStats *stats;
} Model;

#define STR(id) trace_string_pool_get (m->in->pool, (id))

/* An open slice of a thread as trace_processor's slice tracker keeps it:
 * begun (end unknown) or complete; @needs_end: its end TrackEvent is
 * still to come. */
typedef struct
{
  gint64 ts;
  gint64 end;
  guint32 name;
  guint32 category;
  gboolean complete;
  gboolean needs_end;
} Open;

/* What becomes of a thread slice event. */
typedef struct
{
  gboolean dropped;
  gboolean as_instant; /* a complete slice of length 0 */
  gboolean spilled;    /* whole on an overflow track: its end follows */
  guint32 end_name;    /* an end naming the slice it closes */
  guint32 end_category;
} Fate;

typedef struct
{
  GArray *open;    /* Open, innermost last */
  TraceEvent like; /* the thread's pid and tid, for the ends */
} ThreadStack;

static void
thread_stack_free (gpointer data)
{
  ThreadStack *t = data;

  g_array_unref (t->open);
  g_free (t);
}

static gint64
assoc_get (Model *m,
           gint64 tid)
{
  gpointer pid;

  if (g_hash_table_lookup_extended (m->assoc, &tid, NULL, &pid))
    return GPOINTER_TO_SIZE (pid) - 1;
  return TRACE_ID_UNKNOWN;
}

static void
assoc_set (Model *m,
           gint64 pid,
           gint64 tid)
{
  if (pid != TRACE_ID_UNKNOWN && tid >= 0)
    g_hash_table_replace (m->assoc, g_memdup2 (&tid, sizeof tid), GSIZE_TO_POINTER ((gsize) (pid + 1)));
}

static guint *
counter_of (GHashTable *table,
            const char *key)
{
  guint *n = g_hash_table_lookup (table, key);

  if (n == NULL)
    {
      n = g_new0 (guint, 1);
      g_hash_table_insert (table, g_strdup (key), n);
    }
  return n;
}

static TraceEvent *
copy (Model *m,
      const TraceEvent *src,
      gboolean with_args)
{
  TraceEvent *ev = trace_batch_append_event (m->out, src, with_args ? m->in : NULL);

  /* Thread time is written only with the thread-time option (off here). */
  if (trace_event_is_slice_like (ev->kind))
    ev->u.slice.thread_ts = ev->u.slice.thread_dur = 0;
  else if (ev->flags & TRACE_EVENT_FLAG_THREAD_TIME)
    ev->u.async.thread_ts = 0;
  ev->flags &= ~TRACE_EVENT_FLAG_THREAD_TIME;
  return ev;
}

/* ---- kernel events ---- */

static gboolean
parse_number (const char *s,
              gint64 *out)
{
  gboolean hex = g_str_has_prefix (s, "0x") || g_str_has_prefix (s, "0X");
  const char *digits = s[0] == '-' ? s + 1 : s;
  char *end = NULL;

  if (!hex && !g_ascii_isdigit (digits[0]))
    return FALSE;
  if (hex && !g_ascii_isxdigit (s[2]))
    return FALSE;
  *out = hex ? (gint64) g_ascii_strtoull (s + 2, &end, 16) : g_ascii_strtoll (s, &end, 10);
  /* `0x7211 BR_FAILED_REPLY`: the kernel's name of the number goes */
  if (end[0] == ' ' && end[1] != '\0')
    for (end++; *end && (g_ascii_isupper (*end) || g_ascii_isdigit (*end) || *end == '_'); end++)
      ;
  return *end == '\0';
}

static gboolean
arg_number (Model *m,
            const TraceArg *a,
            gint64 *out)
{
  switch (a->type)
    {
    case TRACE_ARG_INT:
      *out = a->v.i;
      return TRUE;
    case TRACE_ARG_UINT:
    case TRACE_ARG_POINTER:
      *out = (gint64) a->v.u;
      return TRUE;
    case TRACE_ARG_BOOL:
      *out = a->v.b != 0;
      return TRUE;
    case TRACE_ARG_DOUBLE:
      *out = (gint64) a->v.d;
      return isfinite (a->v.d) && a->v.d == trunc (a->v.d) && fabs (a->v.d) <= 9e18;
    default:
      return parse_number (STR (a->v.s), out);
    }
}

/* The value as the typed field holds it. */
static gint64
narrow (const ProtobufCFieldDescriptor *f,
        gint64 v)
{
  switch (f->type)
    {
    case PROTOBUF_C_TYPE_INT32:
      return (gint32) v;
    case PROTOBUF_C_TYPE_UINT32:
      return (guint32) v;
    default:
      return v;
    }
}

/* Returns: whether @src's args all fit @map's fields; then adds them, in
 * the order of the fields, as the reader gives them back. */
static gboolean
typed_args (Model *m,
            TraceEvent *ev,
            const TraceEvent *src,
            const PerfettoFtraceEventMap *map)
{
  const TraceArg *args = trace_batch_get_args (m->in, src);
  const TraceArg *by_field[PERFETTO_FTRACE_MAX_FIELDS] = { NULL };
  gint64 v;

  for (guint a = 0; a < src->n_args; a++)
    {
      const char *key = STR (args[a].key);
      guint i;

      for (i = 0; i < map->n_fields; i++)
        if (g_str_equal (key, map->fields[i].key) || (map->fields[i].alt_key && g_str_equal (key, map->fields[i].alt_key)))
          break;
      if (i == map->n_fields || by_field[i])
        return FALSE;
      if (map->fields[i].kind == PERFETTO_FTRACE_NUMBER && !arg_number (m, &args[a], &v))
        return FALSE;
      if (map->fields[i].kind == PERFETTO_FTRACE_STRING && args[a].type != TRACE_ARG_STRING)
        return FALSE;
      by_field[i] = &args[a];
    }
  for (guint i = 0; i < map->n_fields; i++)
    {
      guint32 key = trace_string_pool_intern (m->in->pool, map->fields[i].key);
      const TraceArg *a = by_field[i];
      char buf[32];

      if (a == NULL)
        continue;
      if (map->fields[i].kind == PERFETTO_FTRACE_STRING)
        trace_batch_add_arg (m->out, ev, key, TRACE_ARG_STRING)->v.s = a->v.s;
      else if (map->fields[i].kind == PERFETTO_FTRACE_NUMBER)
        {
          arg_number (m, a, &v);
          trace_batch_add_arg (m->out, ev, key, TRACE_ARG_INT)->v.i = narrow (map->field_descs[i], v);
        }
      else if (a->type == TRACE_ARG_STRING)
        {
          if (a->v.s != 0)
            trace_batch_add_arg (m->out, ev, key, TRACE_ARG_STRING)->v.s = a->v.s;
        }
      else
        {
          g_snprintf (buf, sizeof buf, "0x%" G_GINT64_MODIFIER "x", a->v.u);
          trace_batch_add_arg (m->out, ev, key, TRACE_ARG_STRING)->v.s =
              trace_string_pool_intern (m->in->pool, buf);
        }
    }
  return TRUE;
}

static void
generic_args (Model *m,
              TraceEvent *ev,
              const TraceEvent *src)
{
  const TraceArg *args = trace_batch_get_args (m->in, src);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint a = 0; a < src->n_args; a++)
    {
      TraceArg arg = args[a];

      if (arg.type == TRACE_ARG_BOOL)
        arg.type = TRACE_ARG_INT, arg.v.i = args[a].v.b != 0;
      else if (arg.type == TRACE_ARG_POINTER)
        arg.type = TRACE_ARG_UINT;
      else if (arg.type == TRACE_ARG_DOUBLE)
        arg.type = TRACE_ARG_STRING,
        arg.v.s = trace_string_pool_intern (m->in->pool, g_ascii_dtostr (buf, sizeof buf, args[a].v.d));
      trace_batch_add_arg (m->out, ev, arg.key, arg.type)->v = arg.v;
    }
}

static const char *
kernel_name (TraceEventKind kind)
{
  static const char *names[] = {
    [TRACE_EVENT_SCHED_SWITCH] = "sched_switch",
    [TRACE_EVENT_SCHED_WAKEUP] = "sched_wakeup",
    [TRACE_EVENT_SCHED_WAKING] = "sched_waking",
    [TRACE_EVENT_SCHED_WAKEUP_NEW] = "sched_wakeup_new",
    [TRACE_EVENT_SCHED_PROCESS_EXIT] = "sched_process_exit",
    [TRACE_EVENT_SCHED_PROCESS_FREE] = "sched_process_free",
    [TRACE_EVENT_TASK_NEWTASK] = "task_newtask",
    [TRACE_EVENT_TASK_RENAME] = "task_rename",
    [TRACE_EVENT_CPU_FREQUENCY] = "cpu_frequency",
    [TRACE_EVENT_CPU_IDLE] = "cpu_idle",
    [TRACE_EVENT_FTRACE] = NULL,
  };

  return kind < G_N_ELEMENTS (names) ? names[kind] : NULL;
}

static void
expect_kernel (Model *m,
               const TraceEvent *src)
{
  TraceEvent *ev = copy (m, src, FALSE);
  const TraceArg *args = trace_batch_get_args (m->in, src);

  assoc_set (m, src->pid, src->tid);
  if (m->mask_kernel_pid)
    ev->pid = -2;
  if (src->kind == TRACE_EVENT_FTRACE)
    {
      const char *name = STR (src->name);
      const PerfettoFtraceEventMap *map;

      if (g_str_equal (name, "tracing_mark_write") || g_str_equal (name, "0"))
        name = "print";
      map = perfetto_ftrace_map_by_name (name);
      if (map && typed_args (m, ev, src, map))
        ev->name = trace_string_pool_intern (m->in->pool, map->name);
      else
        generic_args (m, ev, src);
      /* a kind written typed from a Perfetto trace only (the model's
       * stream is not one) comes back flagged as read from a generic
       * record */
      if (map && map->proto_only)
        ev->flags |= TRACE_EVENT_FLAG_GENERIC_RECORD;
      return;
    }
  ev->name = trace_string_pool_intern (m->in->pool, kernel_name (src->kind));
  if (src->kind == TRACE_EVENT_SCHED_SWITCH)
    ev->tid = src->tid >= 0 ? src->tid : src->u.sched_switch.prev_tid;
  else if (src->tid < 0)
    ev->tid = 0;
  /* task_newtask and task_rename have no prio field. */
  if (src->kind == TRACE_EVENT_TASK_NEWTASK || src->kind == TRACE_EVENT_TASK_RENAME)
    ev->u.task.prio = 0;
  for (guint a = 0; a < src->n_args; a++)
    {
      if ((src->kind == TRACE_EVENT_TASK_NEWTASK || src->kind == TRACE_EVENT_TASK_RENAME) && g_str_equal (STR (args[a].key), "oom_score_adj"))
        {
          gint64 v = 0;

          if (arg_number (m, &args[a], &v))
            trace_batch_add_arg (m->out, ev, args[a].key, TRACE_ARG_INT)->v.i = (gint32) v;
        }
    }
}

/* ---- TrackEvents ---- */

/* The pid a thread's events come back with. */
static gint64
thread_pid (Model *m,
            const TraceEvent *src)
{
  gint64 tid = src->tid != TRACE_ID_UNKNOWN ? src->tid : src->pid;
  gint64 pid = src->pid != TRACE_ID_UNKNOWN ? src->pid : assoc_get (m, tid);

  if (tid == TRACE_ID_UNKNOWN)
    return 0;
  return pid != TRACE_ID_UNKNOWN ? pid : tid;
}

static void
add_end (Model *m,
         const TraceEvent *like,
         gint64 ts,
         guint32 name,
         guint32 category)
{
  TraceEvent *end = trace_batch_append_event (m->out, like, NULL);

  end->kind = TRACE_EVENT_SLICE_END;
  end->ts = ts;
  end->flags = 0;
  end->name = name;
  end->category = category;
  end->u.slice.dur = 0;
  end->u.slice.track = 0;
  end->u.slice.flow_in = end->u.slice.flow_out = 0;
}

#define OPEN(stack, i) (&g_array_index ((stack), Open, (i)))

/* An end for a slice below one whose end is still to come names it. */
static gboolean
end_named (GArray *stack,
           guint i)
{
  for (guint k = i + 1; k < stack->len; k++)
    if (OPEN (stack, k)->needs_end)
      return TRUE;
  return FALSE;
}

static void
end_open (Model *m,
          GArray *stack,
          const TraceEvent *like,
          guint i,
          gint64 ts)
{
  Open *o = OPEN (stack, i);
  gboolean named = end_named (stack, i);

  add_end (m, like, ts, named ? o->name : 0, named ? o->category : 0);
  o->needs_end = FALSE;
}

static void
pop (Model *m,
     GArray *stack,
     const TraceEvent *like,
     gint64 cut)
{
  Open *o = OPEN (stack, stack->len - 1);

  if (o->needs_end)
    end_open (m, stack, like, stack->len - 1, o->complete ? o->end : cut);
  g_array_set_size (stack, stack->len - 1);
}

/* trace_processor's slice tracker before a slice at @ts lasting @dur
 * (-1: begun): pops what ended, cuts begun slices left inside an ended
 * complete one. Returns: FALSE on a partial overlap. */
static gboolean
close_stack (Model *m,
             GArray *stack,
             const TraceEvent *like,
             gint64 ts,
             gint64 dur)
{
  gboolean begun = FALSE;

  for (gint i = (gint) stack->len - 1; i >= 0; i--)
    {
      Open o = *OPEN (stack, (guint) i);

      if (!o.complete)
        begun = TRUE;
      else if (begun && ts > o.end)
        {
          while (stack->len > (guint) i)
            pop (m, stack, like, o.end);
          begun = FALSE;
        }
      else if (begun)
        continue;
      else if (o.end < ts || (o.end == ts && !(o.end == o.ts && dur == 0)))
        pop (m, stack, like, o.end);
      else if (dur >= 0 && ts < o.end && ts + dur > o.end)
        return FALSE;
    }
  return TRUE;
}

static gint
matching_begun (GArray *stack,
                const TraceEvent *src)
{
  for (gint i = (gint) stack->len - 1; i >= 0; i--)
    {
      Open *o = OPEN (stack, (guint) i);

      if (o->complete || (src->category && o->category != src->category) ||
          (src->name && o->name && o->name != src->name))
        continue;
      return i;
    }
  return -1;
}

/* Flow ids a slice sends start a flow unless it is flowing (then the
 * slice continues it); an id the slice sends and receives that is not
 * flowing yet only starts it. */
static void
expect_flows (Model *m,
              TraceEvent *ev)
{
  guint64 out = ev->u.slice.flow_out, in = ev->u.slice.flow_in;

  if (out != 0)
    {
      gboolean flowing = g_hash_table_contains (m->flows, &out);

      if (in == out && !flowing)
        ev->u.slice.flow_in = 0;
      if (in == 0 && flowing)
        ev->u.slice.flow_in = out;
      g_hash_table_add (m->flows, g_memdup2 (&out, sizeof out));
    }
  if (in != 0 && in != out)
    g_hash_table_remove (m->flows, &in);
}

static GArray *
thread_stack (Model *m,
              gint64 pid,
              gint64 tid)
{
  g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, pid, tid);
  ThreadStack *stack = g_hash_table_lookup (m->stacks, key);

  if (stack == NULL)
    {
      stack = g_new0 (ThreadStack, 1);
      stack->open = g_array_new (FALSE, FALSE, sizeof (Open));
      stack->like.kind = TRACE_EVENT_SLICE_END;
      stack->like.pid = pid;
      stack->like.tid = tid;
      stack->like.cpu = TRACE_ID_UNKNOWN;
      g_hash_table_insert (m->stacks, g_steal_pointer (&key), stack);
    }
  return stack->open;
}

static Fate
thread_slice (Model *m,
              GArray *stack,
              const TraceEvent *src,
              TraceEvent *like)
{
  Open open = { src->ts, src->ts, src->name, src->category, TRUE, FALSE };
  Fate fate = { 0 };
  gint i;

  switch (src->kind)
    {
    case TRACE_EVENT_SLICE_BEGIN:
      close_stack (m, stack, like, src->ts, -1);
      open.complete = FALSE;
      open.needs_end = TRUE;
      break;
    case TRACE_EVENT_SLICE_COMPLETE:
      fate.dropped = src->u.slice.dur < 0;
      if (fate.dropped)
        return fate;
      fate.spilled = !close_stack (m, stack, like, src->ts, src->u.slice.dur);
      if (fate.spilled)
        return fate;
      open.end = src->ts + src->u.slice.dur;
      open.needs_end = src->u.slice.dur > 0;
      fate.as_instant = src->u.slice.dur == 0;
      break;
    case TRACE_EVENT_SLICE_END:
      close_stack (m, stack, like, src->ts, -1);
      i = matching_begun (stack, src);
      if (i < 0)
        {
          m->stats->dropped_ends++;
          fate.dropped = TRUE;
          return fate;
        }
      if (end_named (stack, (guint) i))
        {
          fate.end_name = OPEN (stack, i)->name;
          fate.end_category = OPEN (stack, i)->category;
        }
      OPEN (stack, i)->complete = TRUE;
      OPEN (stack, i)->needs_end = FALSE;
      OPEN (stack, i)->end = src->ts;
      if ((guint) i == stack->len - 1)
        g_array_set_size (stack, (guint) i);
      return fate;
    default:
      close_stack (m, stack, like, src->ts, 0);
      break;
    }
  g_array_append_val (stack, open);
  return fate;
}

static void
expect_slice (Model *m,
              const TraceEvent *src)
{
  gboolean scoped = src->kind == TRACE_EVENT_INSTANT && (src->flags & (TRACE_EVENT_FLAG_SCOPE_GLOBAL | TRACE_EVENT_FLAG_SCOPE_PROCESS));
  gboolean thread = src->u.slice.track == 0 && !scoped;
  TraceEvent like = *src;
  TraceEvent *ev;
  Fate fate = { 0 };
  gint64 pid = thread ? thread_pid (m, src) : src->pid;
  gint64 tid = src->tid != TRACE_ID_UNKNOWN ? src->tid : pid;

  like.pid = pid;
  like.tid = thread ? tid : TRACE_ID_UNKNOWN;
  like.cpu = TRACE_ID_UNKNOWN;
  like.n_args = 0;
  if (thread)
    {
      assoc_set (m, src->pid, src->tid);
      fate = thread_slice (m, thread_stack (m, pid, tid), src, &like);
      if (fate.dropped)
        return;
      if (fate.spilled)
        add_end (m, &like, src->ts + src->u.slice.dur, 0, 0);
    }
  else if (src->u.slice.track != 0 && src->kind != TRACE_EVENT_INSTANT)
    {
      g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT "/track %u", src->pid, src->u.slice.track);
      guint *depth = counter_of (m->depth, key);

      if (src->kind == TRACE_EVENT_SLICE_END && *depth == 0)
        {
          m->stats->dropped_ends++;
          return;
        }
      *depth += src->kind == TRACE_EVENT_SLICE_BEGIN ? 1 : src->kind == TRACE_EVENT_SLICE_END ? -1
                                                                                              : 0;
      if (src->kind == TRACE_EVENT_SLICE_COMPLETE)
        add_end (m, &like, src->ts + MAX (src->u.slice.dur, 0), 0, 0);
    }
  ev = copy (m, src, TRUE);
  ev->pid = like.pid;
  ev->tid = like.tid;
  ev->cpu = TRACE_ID_UNKNOWN;
  if (scoped && (src->flags & TRACE_EVENT_FLAG_SCOPE_GLOBAL) && src->u.slice.track == 0)
    ev->pid = TRACE_ID_UNKNOWN;
  if (src->kind == TRACE_EVENT_SLICE_END)
    {
      ev->name = fate.end_name;
      ev->category = fate.end_category;
    }
  if (fate.as_instant)
    {
      ev->kind = TRACE_EVENT_INSTANT;
      ev->u.slice.dur = 0;
    }
  else if (src->kind == TRACE_EVENT_SLICE_COMPLETE)
    {
      ev->kind = TRACE_EVENT_SLICE_BEGIN;
      ev->u.slice.dur = 0;
    }
  expect_flows (m, ev);
}

static gboolean
has_arg (Model *m,
         const TraceEvent *src,
         const char *key)
{
  const TraceArg *args = trace_batch_get_args (m->in, src);

  for (guint a = 0; a < src->n_args; a++)
    if (g_str_equal (STR (args[a].key), key))
      return TRUE;
  return FALSE;
}

static void
expect_async (Model *m,
              const TraceEvent *src)
{
  gboolean legacy = (src->flags & TRACE_EVENT_FLAG_ASYNC_LEGACY) != 0;
  g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GUINT64_FORMAT "/%u/%c%u",
                                          (src->flags & TRACE_EVENT_FLAG_ID_GLOBAL) ? -1 : src->pid,
                                          src->u.async.id, src->u.async.scope, legacy ? 'n' : 'c',
                                          legacy ? (src->u.async.track ? src->u.async.track : src->name)
                                                 : src->category);
  guint *depth = counter_of (m->async, key);
  TraceEvent *ev;

  if (src->kind == TRACE_EVENT_ASYNC_END && *depth == 0)
    {
      m->stats->dropped_async_ends++;
      return;
    }
  if (src->kind == TRACE_EVENT_ASYNC_BEGIN && legacy && *depth > 0)
    {
      m->stats->dropped_legacy_begins++;
      return;
    }
  if (src->kind == TRACE_EVENT_ASYNC_BEGIN && (*depth)++ == 0)
    g_hash_table_replace (m->async_cat, g_strdup (key), GUINT_TO_POINTER (src->category));
  if (src->kind == TRACE_EVENT_ASYNC_END)
    (*depth)--;
  ev = copy (m, src, TRUE);
  ev->tid = ev->cpu = TRACE_ID_UNKNOWN;
  if (src->flags & TRACE_EVENT_FLAG_ID_GLOBAL)
    ev->pid = TRACE_ID_UNKNOWN;
  ev->flags &= ~TRACE_EVENT_FLAG_ASYNC_LEGACY;
  ev->u.async.scope = 0;
  if (ev->u.async.track == ev->name)
    ev->u.async.track = 0;
  /* an end comes back with its own name, with its family's category */
  if (src->kind == TRACE_EVENT_ASYNC_END)
    ev->category = GPOINTER_TO_UINT (g_hash_table_lookup (m->async_cat, key));
  if (src->kind == TRACE_EVENT_ASYNC_STEP && src->u.async.step != 0 && !has_arg (m, src, "step"))
    trace_batch_add_arg (m->out, ev, trace_string_pool_intern (m->in->pool, "step"), TRACE_ARG_STRING)->v.s =
        src->u.async.step;
}

/* ---- the rest ---- */

static void
expect_sample (Model *m,
               const TraceEvent *src,
               GHashTable *nodes_in)
{
  g_autoptr (GPtrArray) chain = g_ptr_array_new ();
  guint64 id = src->u.sample.node_id;
  /* A ThreadDescriptor needs a pid: the tid's when unknown. */
  gint64 tid = src->tid >= 0 ? src->tid : 0;
  gint64 pid = src->pid >= 0 ? src->pid : tid;
  /* StreamingProfilePacket times are microseconds. */
  gint64 ts = (MAX (src->ts, 0) + 500) / 1000 * 1000;
  TraceEvent *ev;

  /* A sample of a node never defined does not come back. */
  if (!g_hash_table_contains (nodes_in, &id))
    {
      m->stats->dropped_samples++;
      return;
    }
  while (id != 0 && !g_hash_table_contains (m->nodes_out, &id))
    {
      const TraceEvent *node = g_hash_table_lookup (nodes_in, &id);

      if (node == NULL)
        break;
      g_ptr_array_add (chain, (gpointer) node);
      g_hash_table_add (m->nodes_out, g_memdup2 (&node->u.stack_node.id, sizeof (guint64)));
      id = node->u.stack_node.parent_id;
    }
  for (guint i = chain->len; i > 0; i--)
    {
      const TraceEvent *node = chain->pdata[i - 1];
      const TraceArg *args = trace_batch_get_args (m->in, node);
      guint64 parent = node->u.stack_node.parent_id;

      ev = copy (m, node, FALSE);
      ev->ts = ts;
      ev->category = 0;
      /* The outermost frame of a stack whose parent was never defined. */
      if (parent != 0 && !g_hash_table_contains (nodes_in, &parent))
        ev->u.stack_node.parent_id = 0;
      ev->pid = pid;
      ev->tid = tid;
      ev->cpu = TRACE_ID_UNKNOWN;
      for (guint a = 0; a < node->n_args; a++)
        if (g_str_equal (STR (args[a].key), "url") || g_str_equal (STR (args[a].key), "line"))
          trace_batch_add_arg (m->out, ev, args[a].key, args[a].type)->v = args[a].v;
    }
  ev = copy (m, src, FALSE);
  ev->ts = ts;
  ev->cpu = TRACE_ID_UNKNOWN;
  ev->u.sample.weight = 0;
  ev->name = ev->category = 0;
  ev->pid = pid;
  ev->tid = tid;
}

/* Returns: the pid a name event is written with */
static gint64
name_pid (Model *m,
          const TraceEvent *src)
{
  gint64 pid;

  if (src->kind != TRACE_EVENT_THREAD_NAME || src->pid != TRACE_ID_UNKNOWN)
    return src->pid;
  pid = assoc_get (m, src->tid);
  /* A thread of unknown process is the main thread of a declared
   * process of its tid: trace_processor holds it there already. */
  if (pid == TRACE_ID_UNKNOWN && g_hash_table_contains (m->processes, &src->tid))
    pid = src->tid;
  return pid;
}

static void
expect_name (Model *m,
             const TraceEvent *src)
{
  gboolean thread = src->kind == TRACE_EVENT_THREAD_NAME;
  gint64 pid = name_pid (m, src);
  g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, pid, thread ? src->tid : -1);
  gpointer known;
  TraceEvent *ev;

  /* Names per process and thread, when they change. */
  if ((thread ? src->tid : src->pid) == TRACE_ID_UNKNOWN)
    return;
  if (thread)
    assoc_set (m, pid, src->tid);
  if (g_hash_table_lookup_extended (m->thread_names, key, NULL, &known) && GPOINTER_TO_UINT (known) == src->name)
    return;
  g_hash_table_replace (m->thread_names, g_steal_pointer (&key), GUINT_TO_POINTER (src->name));
  ev = copy (m, src, FALSE);
  ev->cpu = TRACE_ID_UNKNOWN;
  ev->pid = pid;
  if (src->kind == TRACE_EVENT_PROCESS_NAME)
    ev->tid = TRACE_ID_UNKNOWN;
}

static void
expect_other (Model *m,
              const TraceEvent *src)
{
  TraceEvent *ev;

  /* A flow binds to the top of its thread's stack as it is: no pops. */
  ev = copy (m, src, src->kind != TRACE_EVENT_COUNTER);

  switch (src->kind)
    {
    case TRACE_EVENT_COUNTER:
      ev->tid = ev->cpu = TRACE_ID_UNKNOWN;
      ev->category = 0;
      break;
    case TRACE_EVENT_FLOW_START:
    case TRACE_EVENT_FLOW_STEP:
    case TRACE_EVENT_FLOW_END:
      /* The id goes unscoped (as trace_processor reads flows v1). */
      ev->pid = thread_pid (m, src);
      ev->cpu = TRACE_ID_UNKNOWN;
      ev->flags &= TRACE_EVENT_FLAG_FLOW_NEXT_SLICE;
      break;
    case TRACE_EVENT_THREAD_SORT_INDEX:
      ev->cpu = TRACE_ID_UNKNOWN;
      break;
    case TRACE_EVENT_CHROME_PHASE:
      /* a legacy TrackEvent of its thread */
      ev->cpu = TRACE_ID_UNKNOWN;
      break;
    case TRACE_EVENT_CLOCK_MARKER:
      if (src->u.clock.marker == TRACE_CLOCK_MARKER_PAIR)
        ev->pid = ev->tid = ev->cpu = TRACE_ID_UNKNOWN;
      else
        {
          /* A print in a bundle: as a kernel event, the text only */
          ev->name = ev->category = 0;
          ev->u.clock.issue_ts = 0;
          assoc_set (m, src->pid, src->tid);
          if (m->mask_kernel_pid)
            ev->pid = -2;
          if (src->tid < 0)
            ev->tid = 0;
        }
      break;
    default: /* process sort index, label */
      ev->tid = ev->cpu = TRACE_ID_UNKNOWN;
      break;
    }
}

static GHashTable *
stack_nodes_of (TraceBatch *in)
{
  GHashTable *nodes = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (guint i = 0; i < in->n_events; i++)
    if (in->events[i].kind == TRACE_EVENT_STACK_NODE)
      g_hash_table_insert (nodes, &in->events[i].u.stack_node.id, &in->events[i]);
  return nodes;
}

/**
 * pt_expected_events:
 * @in: the events written
 * @mask_kernel_pid: whether to set the pid of kernel events to -2 (a
 *   reader gives them their thread's pid as known when it reads them,
 *   which a test with real data cannot easily predict)
 * @stats: (out) (optional): what the writer should have dropped
 *
 * Returns: (transfer full): what reading back must give, in no particular
 *   order (compare sorted)
 */
TraceBatch *
pt_expected_events (TraceBatch *in,
                    gboolean mask_kernel_pid,
                    PtExpectStats *stats)
{
  PtExpectStats local = { 0 };
  Model m = { in, trace_batch_new (in->pool, 0), mask_kernel_pid };
  g_autoptr (GHashTable) nodes_in = stack_nodes_of (in);

  m.stats = stats ? stats : &local;
  memset (m.stats, 0, sizeof *m.stats);
  m.assoc = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  m.thread_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  m.processes = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  m.depth = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  m.stacks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, thread_stack_free);
  m.flows = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  m.async = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  m.async_cat = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  m.nodes_out = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; i < in->n_events; i++)
    {
      const TraceEvent *src = &in->events[i];
      TraceEventGroup group = trace_event_kind_get_group (src->kind);

      if (src->kind == TRACE_EVENT_THREAD_STATE)
        m.stats->dropped_thread_states++; /* its thread is described */
      else if (group & (TRACE_EVENT_GROUP_SCHED | TRACE_EVENT_GROUP_CPU | TRACE_EVENT_GROUP_FTRACE))
        expect_kernel (&m, src);
      else if (group & TRACE_EVENT_GROUP_ASYNC)
        expect_async (&m, src);
      else if (group & TRACE_EVENT_GROUP_SLICES)
        expect_slice (&m, src);
      else if (src->kind == TRACE_EVENT_SAMPLE)
        expect_sample (&m, src, nodes_in);
      else if (src->kind == TRACE_EVENT_THREAD_NAME || src->kind == TRACE_EVENT_PROCESS_NAME)
        expect_name (&m, src);
      else if (src->kind == TRACE_EVENT_CLOCK_MARKER && src->u.clock.marker != TRACE_CLOCK_MARKER_PAIR && src->cpu < 0)
        continue; /* no kernel data, no bundle: dropped */
      else if (src->kind != TRACE_EVENT_STACK_NODE && src->kind != TRACE_EVENT_NONE)
        expect_other (&m, src);
      /* The writer declares the process of every event but kernel ones. */
      if (src->pid >= 0 &&
          (src->kind == TRACE_EVENT_THREAD_STATE || !(group & (TRACE_EVENT_GROUP_SCHED | TRACE_EVENT_GROUP_CPU | TRACE_EVENT_GROUP_FTRACE))))
        g_hash_table_add (m.processes, g_memdup2 (&src->pid, sizeof src->pid));
    }
  /* The end of the stream: complete slices still open end; begun ones
   * stay open. */
  {
    GHashTableIter iter;
    ThreadStack *t;

    g_hash_table_iter_init (&iter, m.stacks);
    while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &t))
      for (gint i = (gint) t->open->len - 1; i >= 0; i--)
        if (OPEN (t->open, i)->complete && OPEN (t->open, i)->needs_end)
          end_open (&m, t->open, &t->like, (guint) i, OPEN (t->open, i)->end);
  }
  g_hash_table_unref (m.stacks);
  g_hash_table_unref (m.flows);
  g_hash_table_unref (m.assoc);
  g_hash_table_unref (m.thread_names);
  g_hash_table_unref (m.processes);
  g_hash_table_unref (m.depth);
  g_hash_table_unref (m.async);
  g_hash_table_unref (m.async_cat);
  g_hash_table_unref (m.nodes_out);
  return m.out;
}

/**
 * pt_mask_kernel_pids:
 * @batch: events read back
 *
 * Sets the pid of kernel events (and clock-sync markers written as
 * prints) to -2, as pt_expected_events() does when asked to.
 */
void
pt_mask_kernel_pids (TraceBatch *batch)
{
  for (guint i = 0; i < batch->n_events; i++)
    {
      TraceEvent *ev = &batch->events[i];
      TraceEventGroup group = trace_event_kind_get_group (ev->kind);

      if ((group & (TRACE_EVENT_GROUP_SCHED | TRACE_EVENT_GROUP_CPU | TRACE_EVENT_GROUP_FTRACE)) || (ev->kind == TRACE_EVENT_CLOCK_MARKER && ev->u.clock.marker != TRACE_CLOCK_MARKER_PAIR))
        ev->pid = -2;
    }
}
