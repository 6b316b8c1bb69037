/* A stream as facts a user compares: slices (begin/end pairs and complete
 * events alike), instants, async events, flows, counters, names, kernel
 * records, samples with their call stacks, clock markers. Two streams that
 * went through a format and back must give the same facts once the
 * format's documented losses are applied (rt_view() flags). The rules are
 * written from docs/perfetto.md and docs/json.md, not from the writers'
 * code. */
#include <math.h>
#include <string.h>

#include "rt-util.h"

typedef struct
{
  TraceBatch *b;
  RtViewFlags flags;
  GPtrArray *out;
  GHashTable *assoc;   /* tid → pid + 1 */
  GHashTable *stacks;  /* "pid/tid" or "pid/track" → GArray of Open */
  GHashTable *flowing; /* flow ids */
  GHashTable *async;   /* family → open count (RT_VIEW_PERFETTO_DROPS) */
  GHashTable *nodes;   /* stack node id → event */
  GHashTable *names;   /* name facts already given */
  gboolean skip_next;  /* the next event is the end of a spilled pair */
} View;

/* A slice open on a thread: begun (end unknown) or complete (end known).
 * Through Perfetto, a slice ended below the top of the stack stays on it
 * (@reported: its fact is already given). */
typedef struct
{
  guint index;
  gboolean complete;
  gint64 end;
  gboolean reported;
} Open;

#define STR(id) trace_string_pool_get (v->b->pool, (id))

static GArray *stack_of (View *v,
                         const char *key);
#define PERFETTO(v) (((v)->flags & RT_VIEW_PERFETTO) != 0)

static gint64
assoc_get (View *v,
           gint64 tid)
{
  gpointer pid;

  if (g_hash_table_lookup_extended (v->assoc, &tid, NULL, &pid))
    return (gint64) GPOINTER_TO_SIZE (pid) - 1;
  return TRACE_ID_UNKNOWN;
}

static void
assoc_learn (View *v,
             const TraceEvent *ev)
{
  if (ev->pid >= 0 && ev->tid >= 0)
    g_hash_table_replace (v->assoc, g_memdup2 (&ev->tid, sizeof ev->tid), GSIZE_TO_POINTER ((gsize) ev->pid + 1));
}

/* The thread of a thread event: no tid is the process' main thread, no
 * pid the process the thread was seen in, else pid = tid (what both
 * sinks do: Perfetto needs a pid, json-src reads a missing tid as the
 * pid). */
static void
thread_of (View *v,
           const TraceEvent *ev,
           gint64 *pid,
           gint64 *tid)
{
  *tid = ev->tid >= 0 ? ev->tid : ev->pid;
  *pid = ev->pid >= 0 ? ev->pid : assoc_get (v, *tid);
  if (*pid < 0)
    *pid = *tid;
}

static void
add (View *v,
     char *fact)
{
  g_ptr_array_add (v->out, fact);
}

/* ---- args ---- */

/* Returns: whether @end is the end of a number's text, or ` NAME` (the
 * kernel's name of the number: `cmd=0x7211 BR_FAILED_REPLY`) */
static gboolean
ends_number (const char *end)
{
  if (end[0] == ' ' && end[1] != '\0')
    for (end++; g_ascii_isupper (*end) || g_ascii_isdigit (*end) || *end == '_'; end++)
      ;
  return *end == '\0';
}

static gboolean
parse_int_text (const char *s,
                gint64 *out)
{
  char *end = NULL;

  if ((s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) && g_ascii_isxdigit (s[2]))
    {
      *out = (gint64) g_ascii_strtoull (s + 2, &end, 16);
      return ends_number (end);
    }
  if (!(g_ascii_isdigit (s[0]) || (s[0] == '-' && g_ascii_isdigit (s[1]))))
    return FALSE;
  *out = g_ascii_strtoll (s, &end, 10);
  return *end == '\0';
}

static char *
double_text (double d)
{
  if (isfinite (d) && d == trunc (d) && fabs (d) < 9e18)
    return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) d);
  return g_strdup_printf ("%.17g", d);
}

char *
rt_arg_value (TraceBatch *b,
              const TraceArg *a)
{
  const char *s;
  gint64 i;
  char *end = NULL;
  double d;

  switch (a->type)
    {
    case TRACE_ARG_INT:
      return g_strdup_printf ("%" G_GINT64_FORMAT, a->v.i);
    case TRACE_ARG_UINT:
    case TRACE_ARG_POINTER:
      return g_strdup_printf ("%" G_GUINT64_FORMAT, a->v.u);
    case TRACE_ARG_DOUBLE:
      return double_text (a->v.d);
    case TRACE_ARG_BOOL:
      return g_strdup (a->v.b ? "1" : "0");
    default:
      s = trace_batch_get_arg_string (b, a);
      if (s == NULL)
        s = trace_string_pool_get (b->pool, a->v.s);
      if (parse_int_text (s, &i))
        return g_strdup_printf ("%" G_GINT64_FORMAT, i);
      d = g_ascii_strtod (s, &end);
      if (s[0] != '\0' && *end == '\0' && (g_ascii_isdigit (s[0]) || s[0] == '-' || s[0] == '.'))
        return double_text (d);
      return g_strdup_printf ("\"%s\"", s);
    }
}

static gint
cmp_str (gconstpointer a,
         gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* "k=v …" of the args of @evs (later events win for a repeated key),
 * sorted, with @rename applied to keys. */
static char *
args_of (TraceBatch *b,
         const TraceEvent **evs,
         guint n_evs,
         const char *(*rename) (const char *key))
{
  g_autoptr (GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key, value;

  for (guint e = 0; e < n_evs; e++)
    {
      const TraceArg *args = trace_batch_get_args (b, evs[e]);

      for (guint i = 0; i < evs[e]->n_args; i++)
        {
          const char *k = trace_string_pool_get (b->pool, args[i].key);

          if (rename)
            k = rename (k);
          g_hash_table_replace (by_key, (gpointer) k, rt_arg_value (b, &args[i]));
        }
    }
  g_hash_table_iter_init (&iter, by_key);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_ptr_array_add (items, g_strdup_printf ("%s=%s", (char *) key, (char *) value));
  g_ptr_array_sort (items, cmp_str);
  g_ptr_array_add (items, NULL);
  return g_strjoinv (" ", (char **) items->pdata);
}

char *
rt_args_text (TraceBatch *b,
              const TraceEvent *ev)
{
  return args_of (b, &ev, 1, NULL);
}

/* ---- slices, instants, flows ---- */

/* A slice's bound flow ids as flow facts. Through Perfetto, an id the
 * slice receives and sends that is not flowing yet only starts the flow,
 * and sending an id already flowing continues it (trace_processor's
 * reading, docs/perfetto.md). */
static void
slice_flows (View *v,
             const TraceEvent *ev,
             gint64 pid,
             gint64 tid)
{
  guint64 out = ev->u.slice.flow_out, in = ev->u.slice.flow_in;

  if (out == 0 && in == 0)
    return;
  if (PERFETTO (v) && out != 0)
    {
      gboolean flowing = g_hash_table_contains (v->flowing, &out);

      if (in == out && !flowing)
        in = 0;
      else if (in == 0 && flowing)
        in = out;
      g_hash_table_add (v->flowing, g_memdup2 (&out, sizeof out));
    }
  if (PERFETTO (v) && in != 0 && in != out)
    g_hash_table_remove (v->flowing, &in);
#define FLOW(ph, id) \
  add (v, g_strdup_printf ("F %" G_GINT64_FORMAT " " ph " %" G_GUINT64_FORMAT " %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT " enclosing", ev->ts, (guint64) (id), pid, tid))
  if (out != 0 && in == out)
    FLOW ("t", out);
  else
    {
      if (in != 0)
        FLOW ("f", in);
      if (out != 0)
        FLOW ("s", out);
    }
#undef FLOW
}

static void
flow_event (View *v,
            const TraceEvent *ev)
{
  static const char *ph[] = { "s", "t", "f" };
  gint64 pid, tid;

  /* No pops before a flow: it binds to the stack as it is. */
  thread_of (v, ev, &pid, &tid);
  add (v, g_strdup_printf ("F %" G_GINT64_FORMAT " %s %" G_GUINT64_FORMAT " %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT " %s",
                           ev->ts, ph[ev->kind - TRACE_EVENT_FLOW_START], ev->u.async.id, pid, tid,
                           (ev->flags & TRACE_EVENT_FLAG_FLOW_NEXT_SLICE) ? "next" : "enclosing"));
}

static GArray *
stack_of (View *v,
          const char *key)
{
  GArray *stack = g_hash_table_lookup (v->stacks, key);

  if (stack == NULL)
    {
      stack = g_array_new (FALSE, FALSE, sizeof (Open));
      g_hash_table_insert (v->stacks, g_strdup (key), stack);
    }
  return stack;
}

static void
slice_fact (View *v,
            const char *where,
            const TraceEvent *begin,
            const TraceEvent *end,
            gint64 dur)
{
  const TraceEvent *evs[2] = { begin, end };
  g_autofree char *args = args_of (v->b, evs, end ? 2 : 1, NULL);

  add (v, g_strdup_printf ("S %" G_GINT64_FORMAT " %s dur=%" G_GINT64_FORMAT " \"%s\" cat=%s {%s}", begin->ts, where,
                           dur, STR (begin->name), STR (begin->category), args));
}

static void
pop_slice (View *v,
           const char *where,
           GArray *stack,
           const TraceEvent *end,
           gint64 end_ts)
{
  Open top = g_array_index (stack, Open, stack->len - 1);
  const TraceEvent *begin = &v->b->events[top.index];

  g_array_set_size (stack, stack->len - 1);
  slice_fact (v, where, begin, top.complete ? NULL : end, end_ts - begin->ts);
}

#define OPEN(stack, i) (&g_array_index ((stack), Open, (i)))

/* Pops the innermost slice (docs/perfetto.md "Complete slices"): a
 * complete one with its own duration, a begun one cut at @cut. */
static void
tp_pop (View *v,
        const char *where,
        GArray *stack,
        gint64 cut)
{
  Open top = *OPEN (stack, stack->len - 1);
  const TraceEvent *begin = &v->b->events[top.index];

  g_array_set_size (stack, stack->len - 1);
  if (!top.reported)
    slice_fact (v, where, begin, NULL, (top.complete ? top.end : cut) - begin->ts);
}

/* trace_processor's slice stack before a slice at @ts lasting @dur (-1:
 * begun): what ended before pops; begun slices left inside an ended
 * complete slice are cut at its end. Returns: FALSE on a partial overlap
 * of complete slices. */
static gboolean
tp_close_stack (View *v,
                const char *where,
                GArray *stack,
                gint64 ts,
                gint64 dur)
{
  gboolean begun = FALSE;

  for (gint i = (gint) stack->len - 1; i >= 0; i--)
    {
      Open o = *OPEN (stack, (guint) i);
      gint64 start = v->b->events[o.index].ts;

      if (!o.complete)
        begun = TRUE;
      else if (begun && ts > o.end)
        {
          while (stack->len > (guint) i)
            tp_pop (v, where, stack, o.end);
          begun = FALSE;
        }
      else if (begun)
        continue;
      else if (o.end < ts || (o.end == ts && !(o.end == start && dur == 0)))
        tp_pop (v, where, stack, o.end);
      else if (dur >= 0 && ts < o.end && ts + dur > o.end)
        return FALSE;
    }
  return TRUE;
}

/* The begun slice an end closes: the innermost whose name and category
 * match what the end gives (docs/json.md "Phases → event kinds"). */
static gint
matching_begun (View *v,
                GArray *stack,
                const TraceEvent *end)
{
  for (gint i = (gint) stack->len - 1; i >= 0; i--)
    {
      Open *o = OPEN (stack, (guint) i);
      const TraceEvent *b = &v->b->events[o->index];

      if (o->complete || o->reported || (end->category && b->category != end->category) ||
          (end->name && b->name && b->name != end->name))
        continue;
      return i;
    }
  return -1;
}

static void
close_matching (View *v,
                const char *where,
                GArray *stack,
                const TraceEvent *end)
{
  gint i = matching_begun (v, stack, end);
  Open *o;

  if (i < 0)
    return;
  o = OPEN (stack, (guint) i);
  slice_fact (v, where, &v->b->events[o->index], end, end->ts - v->b->events[o->index].ts);
  o->reported = o->complete = TRUE;
  o->end = end->ts;
  if ((guint) i == stack->len - 1)
    g_array_set_size (stack, (guint) i);
}

static void instant_fact (View *v,
                          const TraceEvent *ev,
                          const char *where);

/* Read back (RT_VIEW_TP_STACK), a complete slice spilled to an overflow
 * track comes as the thread's begin and, next in the stream, a nameless
 * end (docs/perfetto.md): the pair is that slice, which partially
 * overlaps an open complete slice of the stack. */
static gboolean
spilled_pair (View *v,
              GArray *stack,
              const TraceEvent *ev)
{
  const TraceEvent *end = ev + 1;

  if (!(v->flags & RT_VIEW_TP_STACK) || end >= v->b->events + v->b->n_events || end->kind != TRACE_EVENT_SLICE_END ||
      end->name != 0 || end->tid != ev->tid || end->pid != ev->pid)
    return FALSE;
  for (guint i = 0; i < stack->len; i++)
    {
      Open *o = OPEN (stack, i);

      if (o->complete && ev->ts < o->end && end->ts > o->end)
        return TRUE;
    }
  return FALSE;
}

/* Through Perfetto a thread's slices nest as trace_processor nests the
 * stream that went in: complete slices keep their duration (one that
 * partially overlaps an open one stays whole, on an overflow track; one
 * of length 0 is an instant), begun slices left inside an ended complete
 * slice are cut at its end, an end closes the slice its name matches. */
static void
nested_slice_event (View *v,
                    const char *where,
                    GArray *stack,
                    const TraceEvent *ev)
{
  Open open = { ev - v->b->events, FALSE, 0, FALSE };

  switch (ev->kind)
    {
    case TRACE_EVENT_SLICE_BEGIN:
      if (spilled_pair (v, stack, ev))
        {
          slice_fact (v, where, ev, NULL, ev[1].ts - ev->ts);
          v->skip_next = TRUE;
          break;
        }
      tp_close_stack (v, where, stack, ev->ts, -1);
      g_array_append_val (stack, open);
      break;
    case TRACE_EVENT_SLICE_COMPLETE:
      if (ev->u.slice.dur < 0)
        break;
      if (!tp_close_stack (v, where, stack, ev->ts, ev->u.slice.dur))
        {
          slice_fact (v, where, ev, NULL, ev->u.slice.dur);
          break;
        }
      open.complete = TRUE;
      open.end = ev->ts + ev->u.slice.dur;
      open.reported = ev->u.slice.dur == 0;
      if (open.reported)
        instant_fact (v, ev, where);
      g_array_append_val (stack, open);
      break;
    case TRACE_EVENT_SLICE_END:
      tp_close_stack (v, where, stack, ev->ts, -1);
      close_matching (v, where, stack, ev);
      break;
    default:
      break;
    }
}

static void
slice_event (View *v,
             const TraceEvent *ev)
{
  gint64 pid, tid;
  g_autofree char *where = NULL;
  GArray *stack;
  Open open = { ev - v->b->events, FALSE, 0 };

  if (ev->u.slice.track != 0)
    {
      pid = ev->pid;
      tid = TRACE_ID_UNKNOWN;
      where = g_strdup_printf ("%" G_GINT64_FORMAT " track \"%s\"", pid, STR (ev->u.slice.track));
    }
  else
    {
      thread_of (v, ev, &pid, &tid);
      assoc_learn (v, ev);
      where = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, pid, tid);
    }
  if (ev->u.slice.track == 0)
    slice_flows (v, ev, pid, tid);
  stack = stack_of (v, where);
  if ((v->flags & (RT_VIEW_PERFETTO_DROPS | RT_VIEW_TP_STACK)) && ev->u.slice.track == 0)
    {
      nested_slice_event (v, where, stack, ev);
      return;
    }
  switch (ev->kind)
    {
    case TRACE_EVENT_SLICE_BEGIN:
      g_array_append_val (stack, open);
      break;
    case TRACE_EVENT_SLICE_COMPLETE:
      slice_fact (v, where, ev, NULL, ev->u.slice.dur);
      break;
    case TRACE_EVENT_SLICE_END:
      /* An end with nothing open is no slice (both sinks drop it or
       * write it as it is; no viewer shows it). Read back from Perfetto,
       * an end that names its slice closes that one. */
      if (PERFETTO (v))
        close_matching (v, where, stack, ev);
      else if (stack->len > 0)
        pop_slice (v, where, stack, ev, ev->ts);
      break;
    default:
      break;
    }
}

static void
instant_fact (View *v,
              const TraceEvent *ev,
              const char *where)
{
  g_autofree char *args = rt_args_text (v->b, ev);

  add (v, g_strdup_printf ("I %" G_GINT64_FORMAT " %s \"%s\" cat=%s {%s}", ev->ts, where, STR (ev->name),
                           STR (ev->category), args));
}

static void
instant_event (View *v,
               const TraceEvent *ev)
{
  g_autofree char *where = NULL;
  gint64 pid, tid;

  /* Chrome JSON has no named tracks: an instant on one is an instant
   * of the process (this folder's README.md). */
  if (ev->u.slice.track != 0 && (v->flags & RT_VIEW_JSON))
    where = g_strdup_printf ("%" G_GINT64_FORMAT " process", ev->pid);
  else if (ev->u.slice.track != 0)
    where = g_strdup_printf ("%" G_GINT64_FORMAT " track \"%s\"", ev->pid, STR (ev->u.slice.track));
  else if (ev->flags & TRACE_EVENT_FLAG_SCOPE_GLOBAL)
    where = g_strdup ("global");
  else if (ev->flags & TRACE_EVENT_FLAG_SCOPE_PROCESS)
    where = g_strdup_printf ("%" G_GINT64_FORMAT " process", ev->pid);
  else
    {
      thread_of (v, ev, &pid, &tid);
      assoc_learn (v, ev);
      where = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, pid, tid);
      if (v->flags & (RT_VIEW_PERFETTO_DROPS | RT_VIEW_TP_STACK))
        {
          Open open = { ev - v->b->events, TRUE, ev->ts, TRUE };
          GArray *stack = stack_of (v, where);

          tp_close_stack (v, where, stack, ev->ts, 0);
          g_array_append_val (stack, open);
        }
      slice_flows (v, ev, pid, tid);
    }
  instant_fact (v, ev, where);
}

/* At the end complete slices still open end; begins never ended stay
 * open (dur -1). */
static void
open_slices (View *v)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, v->stacks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *stack = value;

      for (guint i = 0; i < stack->len; i++)
        {
          Open *o = OPEN (stack, i);
          const TraceEvent *begin = &v->b->events[o->index];

          if (!o->reported)
            slice_fact (v, key, begin, NULL, o->complete ? o->end - begin->ts : -1);
        }
    }
}

/* ---- async ---- */

static gboolean
has_arg (View *v,
         const TraceEvent *ev,
         const char *key)
{
  const TraceArg *args = trace_batch_get_args (v->b, ev);

  for (guint i = 0; i < ev->n_args; i++)
    if (g_str_equal (STR (args[i].key), key))
      return TRUE;
  return FALSE;
}

/* The writer's drops (docs/perfetto.md "Async slices"): an end without an
 * open family and an unnestable begin repeated while open. */
static gboolean
perfetto_drops_async (View *v,
                      const TraceEvent *ev)
{
  gboolean legacy = (ev->flags & TRACE_EVENT_FLAG_ASYNC_LEGACY) != 0;
  g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GUINT64_FORMAT "/%u/%c%u",
                                          (ev->flags & TRACE_EVENT_FLAG_ID_GLOBAL) ? -1 : ev->pid, ev->u.async.id,
                                          ev->u.async.scope, legacy ? 'n' : 'c',
                                          legacy ? (ev->u.async.track ? ev->u.async.track : ev->name) : ev->category);
  gpointer n = g_hash_table_lookup (v->async, key);
  guint depth = GPOINTER_TO_UINT (n);

  if (ev->kind == TRACE_EVENT_ASYNC_END && depth == 0)
    return TRUE;
  if (ev->kind == TRACE_EVENT_ASYNC_BEGIN && legacy && depth > 0)
    return TRUE;
  if (ev->kind == TRACE_EVENT_ASYNC_BEGIN)
    depth++;
  else if (ev->kind == TRACE_EVENT_ASYNC_END)
    depth--;
  g_hash_table_replace (v->async, g_steal_pointer (&key), GUINT_TO_POINTER (depth));
  return FALSE;
}

/* json-sink's drops (docs/json.md): atrace's S|/F| (legacy async events
 * with a cpu) are written as nestable b/e, so a begin of a family already
 * open and an end of none are dropped, as atrace ignores them. */
static gboolean
json_drops_atrace_async (View *v,
                         const TraceEvent *ev)
{
  if (!(ev->flags & TRACE_EVENT_FLAG_ASYNC_LEGACY) || ev->cpu < 0 || ev->kind == TRACE_EVENT_ASYNC_STEP ||
      ev->kind == TRACE_EVENT_ASYNC_INSTANT)
    return FALSE;
  return perfetto_drops_async (v, ev);
}

static void
async_event (View *v,
             const TraceEvent *ev)
{
  static const char *kinds[] = { "begin", "step", "end", "instant" };
  gboolean end = ev->kind == TRACE_EVENT_ASYNC_END;
  gboolean global = (ev->flags & TRACE_EVENT_FLAG_ID_GLOBAL) != 0;
  g_autofree char *args = NULL;
  g_autofree char *extra = NULL;
  guint32 name = ev->name, cat = ev->category, track = ev->u.async.track, step = ev->u.async.step;
  guint kind = ev->kind;
  gint64 pid = ev->pid;

  if ((v->flags & RT_VIEW_PERFETTO_JSON_IN) && (ev->flags & TRACE_EVENT_FLAG_ASYNC_LEGACY))
    return;
  /* a JSON stream's nestable events are written as they come, as legacy
   * events trace_processor reads as it reads the JSON (docs/perfetto.md) */
  if ((v->flags & RT_VIEW_PERFETTO_DROPS) && !(v->flags & RT_VIEW_PERFETTO_JSON_IN) && perfetto_drops_async (v, ev))
    return;
  if ((v->flags & RT_VIEW_JSON) && !(v->flags & RT_VIEW_PERFETTO_DROPS) && json_drops_atrace_async (v, ev))
    return;
  args = rt_args_text (v->b, ev);
  /* JSON: a nestable step has no phase of its own and is written as an
   * async instant, its step name in args.step (docs/json.md). */
  if ((v->flags & RT_VIEW_JSON) && kind == TRACE_EVENT_ASYNC_STEP && !(ev->flags & TRACE_EVENT_FLAG_ASYNC_LEGACY))
    {
      kind = TRACE_EVENT_ASYNC_INSTANT;
      if (step != 0 && !has_arg (v, ev, "step"))
        {
          char *more = g_strdup_printf ("%s%sstep=\"%s\"", args, args[0] ? " " : "", STR (step));

          g_free (args);
          args = more;
        }
      step = 0;
    }
  if (PERFETTO (v))
    {
      /* No tid, scope or unnestable flag; ends without name/category; a
       * step's name also as arg "step"; a track named as its slice is
       * no named track. */
      if (end)
        name = cat = 0;
      if (track == ev->name)
        track = 0;
      if (global)
        pid = TRACE_ID_UNKNOWN;
      if (ev->kind == TRACE_EVENT_ASYNC_STEP && ev->u.async.step != 0 && !has_arg (v, ev, "step"))
        {
          char *more = g_strdup_printf ("%s%sstep=\"%s\"", args, args[0] ? " " : "", STR (ev->u.async.step));

          g_free (args);
          args = more;
        }
      extra = g_strdup ("");
    }
  else
    /* json-sink writes a legacy event from a text line (it has a cpu)
     * as nestable, which trace_processor reads (docs/json.md) */
    extra = g_strdup_printf (" tid=%" G_GINT64_FORMAT " scope=\"%s\" legacy=%d", ev->tid, STR (ev->u.async.scope),
                             (ev->flags & TRACE_EVENT_FLAG_ASYNC_LEGACY) != 0 &&
                                 (!(v->flags & RT_VIEW_JSON) || ev->cpu < 0));
  add (v, g_strdup_printf ("A %" G_GINT64_FORMAT " %s pid=%" G_GINT64_FORMAT " id=%" G_GUINT64_FORMAT "%s \"%s\" cat=%s track=\"%s\" step=\"%s\"%s {%s}",
                           ev->ts, kinds[kind - TRACE_EVENT_ASYNC_BEGIN], pid, ev->u.async.id, global ? "g" : "",
                           STR (name), STR (cat), STR (track), STR (step), extra, args));
}

/* ---- counters, names ---- */

static void
counter_event (View *v,
               const TraceEvent *ev)
{
  g_autofree char *value = double_text (ev->u.counter.value);
  g_autofree char *more = NULL;
  const char *name = STR (ev->name);
  const char *key = "";

  /* A JSON counter is named "<event name> <args key>"; a name without a
   * space is written with the key "value" (docs/json.md), as
   * trace_processor then names it too. */
  if ((v->flags & RT_VIEW_JSON) && strchr (name, ' ') == NULL)
    key = " value";

  if (PERFETTO (v))
    more = g_strdup ("");
  else
    {
      g_autofree char *args = rt_args_text (v->b, ev);

      more = g_strdup_printf (" tid=%" G_GINT64_FORMAT " cat=%s {%s}", ev->tid, STR (ev->category), args);
    }
  add (v, g_strdup_printf ("C %" G_GINT64_FORMAT " pid=%" G_GINT64_FORMAT " \"%s%s\" %s%s unit=%s%s", ev->ts, ev->pid,
                           name, key, value, (ev->flags & TRACE_EVENT_FLAG_COUNTER_INT) ? " int" : "",
                           STR (ev->u.counter.unit), more));
}

/* Names, sort indexes and labels, as a set: a sink writes a name once per
 * thread and process (docs/perfetto.md), and where they were learnt
 * (ts) is not part of what a viewer shows. */
static void
meta_event (View *v,
            const TraceEvent *ev)
{
  char *fact;
  gint64 pid = ev->pid;

  if (ev->kind == TRACE_EVENT_THREAD_NAME || ev->kind == TRACE_EVENT_THREAD_SORT_INDEX)
    {
      if (ev->tid < 0)
        return;
      /* Through JSON a name of a thread of unknown process is only the
       * task column of its kernel lines (docs/json.md): not a fact */
      if ((v->flags & RT_VIEW_JSON) && ev->kind == TRACE_EVENT_THREAD_NAME && pid < 0)
        return;
      /* Through Perfetto a name of unknown process stays without one
       * (docs/perfetto.md): where its process was learnt does not count */
      if (pid < 0 && !PERFETTO (v))
        pid = assoc_get (v, ev->tid);
      if (pid < 0)
        pid = ev->tid;
      assoc_learn (v, ev);
    }
  else if (pid < 0)
    return;
  switch (ev->kind)
    {
    case TRACE_EVENT_PROCESS_NAME:
      fact = g_strdup_printf ("N process %" G_GINT64_FORMAT " \"%s\"", pid, STR (ev->name));
      break;
    case TRACE_EVENT_THREAD_NAME:
      fact = g_strdup_printf ("N thread %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT " \"%s\"", pid, ev->tid, STR (ev->name));
      break;
    case TRACE_EVENT_PROCESS_LABEL:
      fact = g_strdup_printf ("N label %" G_GINT64_FORMAT " \"%s\"", pid, STR (ev->name));
      break;
    case TRACE_EVENT_PROCESS_SORT_INDEX:
      fact = g_strdup_printf ("N process-sort %" G_GINT64_FORMAT " %" G_GINT64_FORMAT, pid, ev->u.meta.value);
      break;
    default:
      fact = g_strdup_printf ("N thread-sort %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT " %" G_GINT64_FORMAT, pid, ev->tid,
                              ev->u.meta.value);
      break;
    }
  if (g_hash_table_contains (v->names, fact))
    g_free (fact);
  else
    {
      g_hash_table_add (v->names, fact);
      add (v, g_strdup (fact));
    }
}

/* ---- kernel records ---- */

/* The kernel's other spellings, as the Perfetto writer maps them to its
 * typed fields (docs/perfetto.md "Arg keys read"). */
static const char *
kernel_key (const char *key)
{
  static const char *alt[][2] = {
    { "io_wait", "iowait" },
    { "min", "min_freq" },
    { "max", "max_freq" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (alt); i++)
    if (g_str_equal (key, alt[i][0]))
      return alt[i][1];
  return key;
}

static char *
kernel_args (View *v,
             const TraceEvent *ev)
{
  const TraceArg *args = trace_batch_get_args (v->b, ev);
  GString *s;

  if (ev->kind == TRACE_EVENT_FTRACE)
    return args_of (v->b, &ev, 1, PERFETTO (v) ? kernel_key : NULL);
  if (!PERFETTO (v))
    return rt_args_text (v->b, ev);
  /* Typed records keep only oom_score_adj of task_newtask/rename. */
  s = g_string_new (NULL);
  for (guint i = 0; i < ev->n_args; i++)
    if ((ev->kind == TRACE_EVENT_TASK_NEWTASK || ev->kind == TRACE_EVENT_TASK_RENAME) && g_str_equal (STR (args[i].key), "oom_score_adj"))
      {
        g_autofree char *value = rt_arg_value (v->b, &args[i]);

        g_string_append_printf (s, "oom_score_adj=%s", value);
      }
  return g_string_free (s, FALSE);
}

static char *
kernel_fields (View *v,
               const TraceEvent *ev)
{
  const char *name;
  gint prio;

  switch (ev->kind)
    {
    case TRACE_EVENT_SCHED_SWITCH:
      return g_strdup_printf ("sched_switch prev=%d/%d/%" G_GINT64_FORMAT "/\"%s\" next=%d/%d/\"%s\"",
                              ev->u.sched_switch.prev_tid, ev->u.sched_switch.prev_prio, ev->u.sched_switch.prev_state,
                              STR (ev->u.sched_switch.prev_comm), ev->u.sched_switch.next_tid,
                              ev->u.sched_switch.next_prio, STR (ev->u.sched_switch.next_comm));
    case TRACE_EVENT_SCHED_WAKEUP:
    case TRACE_EVENT_SCHED_WAKING:
    case TRACE_EVENT_SCHED_WAKEUP_NEW:
      return g_strdup_printf ("%s %d/%d/\"%s\" target=%d success=%d", trace_event_kind_to_string (ev->kind),
                              ev->u.wakeup.tid, ev->u.wakeup.prio, STR (ev->u.wakeup.comm), ev->u.wakeup.target_cpu,
                              ev->u.wakeup.success);
    case TRACE_EVENT_SCHED_PROCESS_EXIT:
    case TRACE_EVENT_SCHED_PROCESS_FREE:
    case TRACE_EVENT_TASK_NEWTASK:
    case TRACE_EVENT_TASK_RENAME:
      /* task_newtask and task_rename have no prio in Perfetto */
      prio = PERFETTO (v) && (ev->kind == TRACE_EVENT_TASK_NEWTASK || ev->kind == TRACE_EVENT_TASK_RENAME)
                 ? 0
                 : ev->u.task.prio;
      return g_strdup_printf ("%s %d/%d/\"%s\" old=\"%s\" clone=%" G_GINT64_MODIFIER "x", trace_event_kind_to_string (ev->kind),
                              ev->u.task.tid, prio, STR (ev->u.task.comm), STR (ev->u.task.old_comm),
                              ev->u.task.clone_flags);
    case TRACE_EVENT_CPU_FREQUENCY:
    case TRACE_EVENT_CPU_IDLE:
      return g_strdup_printf ("%s cpu_id=%d state=%" G_GINT64_FORMAT, trace_event_kind_to_string (ev->kind),
                              ev->u.cpu.cpu_id, ev->u.cpu.state);
    default:
      name = STR (ev->name);
      /* Perfetto has one print event for the marker spellings */
      if (PERFETTO (v) && (g_str_equal (name, "tracing_mark_write") || g_str_equal (name, "0")))
        name = "print";
      return g_strdup_printf ("ftrace \"%s\"", name);
    }
}

static void
kernel_event (View *v,
              const TraceEvent *ev)
{
  g_autofree char *fields = kernel_fields (v, ev);
  g_autofree char *args = kernel_args (v, ev);
  gint64 tid = ev->tid;
  g_autofree char *pid = NULL;

  /* FtraceEvent.pid is the thread; a switch without one is its prev. */
  if (tid < 0 && ev->kind == TRACE_EVENT_SCHED_SWITCH)
    tid = ev->u.sched_switch.prev_tid;
  if (tid < 0 && PERFETTO (v))
    tid = 0;
  /* Through Perfetto kernel events get the pid their thread is known by
   * when read, which the input cannot tell (docs/perfetto.md). */
  pid = PERFETTO (v) ? g_strdup ("") : g_strdup_printf (" pid=%" G_GINT64_FORMAT, ev->pid);
  add (v, g_strdup_printf ("K %" G_GINT64_FORMAT " cpu=%d tid=%" G_GINT64_FORMAT "%s %s {%s}", ev->ts, ev->cpu, tid, pid,
                           fields, args));
}

/* ---- samples, clock markers ---- */

static char *
stack_text (View *v,
            guint64 id)
{
  GString *s = g_string_new (NULL);
  guint depth = 0;

  while (id != 0 && depth++ < 10000)
    {
      const TraceEvent *node = g_hash_table_lookup (v->nodes, &id);

      if (node == NULL)
        break;
      g_string_prepend (s, STR (node->name));
      g_string_prepend_c (s, ';');
      id = node->u.stack_node.parent_id;
    }
  return g_string_free (s, FALSE);
}

static void
sample_event (View *v,
              const TraceEvent *ev)
{
  g_autofree char *stack = NULL;
  gint64 tid = ev->tid >= 0 ? ev->tid : 0;
  gint64 pid = ev->pid >= 0 ? ev->pid : tid;
  /* Perfetto's StreamingProfilePacket times samples in microseconds. */
  gint64 ts = PERFETTO (v) ? (MAX (ev->ts, 0) + 500) / 1000 * 1000 : ev->ts;

  /* A sample of a node never defined has no stack to show: Perfetto
   * drops it; JSON writes it with a leaf named after the sample when it
   * had no node at all, else with an unnamed leaf. */
  if (!g_hash_table_contains (v->nodes, &ev->u.sample.node_id) && !(v->flags & RT_VIEW_JSON))
    return;
  if (!g_hash_table_contains (v->nodes, &ev->u.sample.node_id))
    stack = g_strdup_printf (";%s", ev->u.sample.node_id == 0 ? STR (ev->name) : "");
  else
    stack = stack_text (v, ev->u.sample.node_id);
  add (v, g_strdup_printf ("P %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT " %s", ts, pid, tid, stack));
}

static void
clock_event (View *v,
             const TraceEvent *ev)
{
  g_autofree char *who = NULL;

  /* Through Perfetto a marker is a clock snapshot or a print: no pid,
   * tid, name, category or issue time. */
  gboolean sync = ev->u.clock.marker == TRACE_CLOCK_MARKER_SYNC_ID;

  /* A print needs a bundle, a bundle a cpu: a marker without one (a
   * JSON clock_sync) is dropped (docs/perfetto.md "Clock markers"). */
  if (PERFETTO (v) && ev->u.clock.marker != TRACE_CLOCK_MARKER_PAIR && ev->cpu < 0)
    return;
  if (PERFETTO (v))
    who = g_strdup ("");
  /* JSON: a sync id is a `c` event (named clock_sync when it has no
   * name); other markers go to metadata with their pid only. */
  else if ((v->flags & RT_VIEW_JSON) && sync)
    who = g_strdup_printf (" %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT " \"%s\" issue=%" G_GINT64_FORMAT, ev->pid, ev->tid,
                           ev->name ? STR (ev->name) : "clock_sync", ev->u.clock.issue_ts);
  else if (v->flags & RT_VIEW_JSON)
    who = g_strdup_printf (" pid=%" G_GINT64_FORMAT, ev->pid);
  else
    who = g_strdup_printf (" %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT " \"%s\" issue=%" G_GINT64_FORMAT, ev->pid, ev->tid,
                           STR (ev->name), ev->u.clock.issue_ts);
  add (v, g_strdup_printf ("M %" G_GINT64_FORMAT " marker=%u domain=%u other=%" G_GINT64_FORMAT " sync=\"%s\"%s", ev->ts,
                           ev->u.clock.marker, ev->u.clock.domain, ev->u.clock.other_ts, STR (ev->u.clock.sync_id), who));
}

/* A Chrome event of another phase goes back as it came, to JSON as to
 * Perfetto (as a legacy TrackEvent). */
static void
chrome_phase_event (View *v,
                    const TraceEvent *ev)
{
  g_autofree char *args = args_of (v->b, &ev, 1, NULL);

  add (v, g_strdup_printf ("P %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT " '%c' \"%s\" cat=\"%s\" id=%u:%" G_GINT64_MODIFIER "x scope=\"%s\" %s",
                           ev->ts, ev->pid, ev->tid, ev->u.chrome_phase.phase, STR (ev->name), STR (ev->category),
                           ev->u.chrome_phase.id_kind, ev->u.chrome_phase.id, STR (ev->u.chrome_phase.scope), args));
}

/* ---- the view ---- */

/* A thread state: `T ts pid/tid state dur {args}`. It has no Perfetto
 * form (docs/perfetto.md): not a fact of a Perfetto view. */
static void
thread_state_event (View *v,
                    const TraceEvent *ev)
{
  g_autofree char *args = NULL;

  if (PERFETTO (v))
    return;
  args = rt_args_text (v->b, ev);
  add (v, g_strdup_printf ("T %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT " \"%s\" cat=%s dur=%" G_GINT64_FORMAT " {%s}",
                           ev->ts, ev->pid, ev->tid, STR (ev->name), STR (ev->category), ev->u.thread_state.dur, args));
}

static void
view_event (View *v,
            const TraceEvent *ev)
{
  TraceEventGroup group = trace_event_kind_get_group (ev->kind);

  if (v->skip_next)
    {
      v->skip_next = FALSE;
      return;
    }
  if (ev->kind == TRACE_EVENT_THREAD_STATE)
    {
      if (!(v->flags & RT_VIEW_KERNEL_ONLY))
        thread_state_event (v, ev);
    }
  else if (group & (TRACE_EVENT_GROUP_SCHED | TRACE_EVENT_GROUP_CPU | TRACE_EVENT_GROUP_FTRACE))
    kernel_event (v, ev);
  else if (v->flags & RT_VIEW_KERNEL_ONLY)
    return;
  else if (ev->kind == TRACE_EVENT_INSTANT)
    instant_event (v, ev);
  else if (group & TRACE_EVENT_GROUP_SLICES)
    slice_event (v, ev);
  else if (group & TRACE_EVENT_GROUP_ASYNC)
    async_event (v, ev);
  else if (group & TRACE_EVENT_GROUP_FLOWS)
    flow_event (v, ev);
  else if (ev->kind == TRACE_EVENT_COUNTER)
    counter_event (v, ev);
  else if (group & TRACE_EVENT_GROUP_METADATA)
    meta_event (v, ev);
  else if (ev->kind == TRACE_EVENT_SAMPLE)
    sample_event (v, ev);
  else if (ev->kind == TRACE_EVENT_CLOCK_MARKER)
    clock_event (v, ev);
  else if (ev->kind == TRACE_EVENT_CHROME_PHASE)
    chrome_phase_event (v, ev);
}

/**
 * rt_view:
 * @events: a whole stream
 * @flags: the losses to apply
 *
 * Returns: (transfer full): the stream's facts, sorted
 */
GPtrArray *
rt_view (TraceBatch *events,
         RtViewFlags flags)
{
  View v = { events, flags, g_ptr_array_new_with_free_func (g_free) };

  v.assoc = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  v.stacks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  v.flowing = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  v.async = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  v.nodes = g_hash_table_new (g_int64_hash, g_int64_equal);
  v.names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* Stack nodes first: a stream may define them after their samples. */
  for (guint i = 0; i < events->n_events; i++)
    if (events->events[i].kind == TRACE_EVENT_STACK_NODE)
      g_hash_table_insert (v.nodes, &events->events[i].u.stack_node.id, &events->events[i]);
  if (flags & RT_VIEW_PERFETTO_JSON_IN)
    {
      g_autoptr (GArray) order = rt_json_order (events);

      for (guint i = 0; i < order->len; i++)
        view_event (&v, &events->events[g_array_index (order, guint, i)]);
    }
  else
    for (guint i = 0; i < events->n_events; i++)
      view_event (&v, &events->events[i]);
  if (!(flags & RT_VIEW_KERNEL_ONLY))
    open_slices (&v);
  g_ptr_array_sort (v.out, cmp_str);
  g_hash_table_unref (v.assoc);
  g_hash_table_unref (v.stacks);
  g_hash_table_unref (v.flowing);
  g_hash_table_unref (v.async);
  g_hash_table_unref (v.nodes);
  g_hash_table_unref (v.names);
  return v.out;
}

/**
 * rt_assert_same_view:
 *
 * Fails with the first differences (facts missing and facts extra), so a
 * failure says what was lost or changed.
 */
void
rt_assert_same_view (const char *what,
                     GPtrArray *want,
                     GPtrArray *got)
{
  guint i = 0, j = 0, shown = 0, diffs = 0;

  /* RT_VIEW_DUMP=1: every fact, to see what a test compares */
  if (g_getenv ("RT_VIEW_DUMP"))
    for (guint k = 0; k < got->len; k++)
      g_test_message ("%s: %s", what, (char *) got->pdata[k]);

  while (i < want->len || j < got->len)
    {
      gint c = i == want->len ? 1 : j == got->len ? -1
                                                  : strcmp (want->pdata[i], got->pdata[j]);

      if (c == 0)
        {
          i++, j++;
          continue;
        }
      diffs++;
      if (shown++ < 12)
        g_test_message ("%s: %s %s", what, c < 0 ? "missing" : "extra  ", c < 0 ? (char *) want->pdata[i] : (char *) got->pdata[j]);
      if (c < 0)
        i++;
      else
        j++;
    }
  if (diffs)
    g_test_fail_printf ("%s: %u facts differ (%u expected, %u read back); first ones in the log", what, diffs,
                        want->len, got->len);
}
