/* tracepipe - filter: the conditions, set from the options and matched
 * against each event
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each setter replaces one condition.  filter_set_conditions() sets them
 * all from a #FilterOptions; the elements call it again, between two
 * batches, when a property changed while playing: a slice already begun
 * keeps the decision its begin got, so the output stays balanced.
 */
#include "filters-private.h"

static void
filter_update (Filter *f)
{
  f->has_conditions = f->has_tid || f->has_pid || f->kinds != 0 || f->process_name.spec || f->thread_name.spec || f->name.spec || f->category.spec || f->invert;
  f->has_window = f->has_start || f->has_end;
  f->want_names = f->process_name.spec || f->thread_name.spec;
  if (!f->started)
    f->phase = f->has_start ? PHASE_BEFORE : PHASE_INSIDE;
}

void
filter_set_tid (Filter *f,
                gint64 tid)
{
  f->has_tid = TRUE;
  f->tid_main = FALSE;
  f->tid = tid;
  filter_update (f);
}

void
filter_set_tid_main (Filter *f)
{
  f->has_tid = TRUE;
  f->tid_main = TRUE;
  filter_update (f);
}

void
filter_unset_tid (Filter *f)
{
  f->has_tid = FALSE;
  f->tid_main = FALSE;
  filter_update (f);
}

/**
 * filter_set_tid_from_string:
 * @text: a thread id, `main`, or empty/%NULL for no tid condition
 */
gboolean
filter_set_tid_from_string (Filter *f,
                            const char *text,
                            GError **error)
{
  gint64 tid;

  if (text == NULL || *text == '\0')
    filter_unset_tid (f);
  else if (g_ascii_strcasecmp (text, "main") == 0)
    filter_set_tid_main (f);
  else if (g_ascii_string_to_signed (text, 10, 0, G_MAXINT64, &tid, NULL))
    filter_set_tid (f, tid);
  else
    {
      g_set_error (error, TRACE_PARSE_ERROR, TRACE_PARSE_ERROR_BAD_VALUE,
                   "invalid tid \"%s\": expected a thread id or \"main\"", text);
      return FALSE;
    }
  return TRUE;
}

void
filter_set_pid (Filter *f,
                gint64 pid)
{
  f->has_pid = TRUE;
  f->pid = pid;
  filter_update (f);
}

void
filter_unset_pid (Filter *f)
{
  f->has_pid = FALSE;
  filter_update (f);
}

void
filter_set_process_name (Filter *f,
                         const char *glob)
{
  filter_glob_set (&f->process_name, glob, FALSE);
  filter_update (f);
}

void
filter_set_thread_name (Filter *f,
                        const char *glob)
{
  filter_glob_set (&f->thread_name, glob, FALSE);
  filter_update (f);
}

void
filter_set_name (Filter *f,
                 const char *glob)
{
  filter_glob_set (&f->name, glob, FALSE);
  filter_update (f);
}

void
filter_set_category (Filter *f,
                     const char *glob)
{
  filter_glob_set (&f->category, glob, TRUE);
  filter_update (f);
}

void
filter_set_kinds (Filter *f,
                  TraceEventGroup kinds)
{
  f->kinds = kinds;
  filter_update (f);
}

void
filter_set_start (Filter *f,
                  gint64 start_ns)
{
  f->has_start = TRUE;
  f->start = start_ns;
  f->start_relative = FALSE;
  filter_update (f);
}

void
filter_set_end (Filter *f,
                gint64 end_ns)
{
  f->has_end = TRUE;
  f->end = end_ns;
  f->end_relative = FALSE;
  filter_update (f);
}

/**
 * filter_set_start_relative:
 * @offset_ns: how long after the first timed event the window starts
 *
 * The first timed event (not metadata, clock or stack node: the events the
 * window applies to) is only known once it comes, so the window is fixed
 * then; see docs/filters.md.
 */
void
filter_set_start_relative (Filter *f,
                           gint64 offset_ns)
{
  filter_set_start (f, offset_ns);
  f->start_relative = TRUE;
}

/**
 * filter_set_end_relative:
 * @offset_ns: how long after the first timed event the window ends
 */
void
filter_set_end_relative (Filter *f,
                         gint64 offset_ns)
{
  filter_set_end (f, offset_ns);
  f->end_relative = TRUE;
}

/**
 * filter_set_window_from_string:
 * @start: (nullable): `1212.5s` (the trace's clock), `+1.5s` (from the
 *   first timed event), or %NULL/empty for no start
 * @end: (nullable): the same for the end
 * @error: a %TRACE_PARSE_ERROR_BAD_VALUE naming the text
 */
gboolean
filter_set_window_from_string (Filter *f,
                               const char *start,
                               const char *end,
                               GError **error)
{
  gint64 ns;
  gboolean relative;

  if (start && *start)
    {
      if (!filter_parse_window_time (start, &ns, &relative, error))
        return g_prefix_error (error, "start: "), FALSE;
      relative ? filter_set_start_relative (f, ns) : filter_set_start (f, ns);
    }
  if (end && *end)
    {
      if (!filter_parse_window_time (end, &ns, &relative, error))
        return g_prefix_error (error, "end: "), FALSE;
      relative ? filter_set_end_relative (f, ns) : filter_set_end (f, ns);
    }
  return TRUE;
}

/**
 * filter_set_conditions:
 * @opts: the options; the window (@start, @end) is not read: it is set
 *   once, by filter_new_with_options()
 *
 * Sets every condition from @opts, replacing the previous ones.  Between
 * two batches only: the events of the next batch are decided by them.
 */
void
filter_set_conditions (Filter *f,
                       const FilterOptions *opts)
{
  g_return_if_fail (f != NULL);
  g_return_if_fail (opts != NULL);

  if (opts->tid == FILTER_TID_MAIN)
    filter_set_tid_main (f);
  else if (opts->tid >= 0)
    filter_set_tid (f, opts->tid);
  else
    filter_unset_tid (f);
  if (opts->pid >= 0)
    filter_set_pid (f, opts->pid);
  else
    filter_unset_pid (f);
  filter_set_process_name (f, opts->process_name);
  filter_set_thread_name (f, opts->thread_name);
  filter_set_name (f, opts->name);
  filter_set_category (f, opts->category);
  filter_set_kinds (f, opts->kinds);
  filter_set_invert (f, opts->invert);
  filter_set_keep_unknown (f, opts->keep_unknown);
}

void
filter_options_clear (FilterOptions *opts)
{
  g_clear_pointer (&opts->process_name, g_free);
  g_clear_pointer (&opts->thread_name, g_free);
  g_clear_pointer (&opts->name, g_free);
  g_clear_pointer (&opts->category, g_free);
  g_clear_pointer (&opts->start, g_free);
  g_clear_pointer (&opts->end, g_free);
}

void
filter_set_invert (Filter *f,
                   gboolean invert)
{
  f->invert = invert;
  filter_update (f);
}

void
filter_set_keep_unknown (Filter *f,
                         gboolean keep_unknown)
{
  f->keep_unknown = keep_unknown;
}

/* ---- conditions ------------------------------------------------------- */

static Match
match_of (gboolean yes)
{
  return yes ? MATCH_YES : MATCH_NO;
}

static Match
check_tid (Filter *f,
           const TraceEvent *ev,
           gint64 pid)
{
  gint64 main_tid;

  if (ev->tid < 0)
    return MATCH_NO; /* not a thread's event */
  if (!f->tid_main)
    return match_of (ev->tid == f->tid);
  /* tid 0 is the kernel's idle task on every cpu (<idle>, swapper), not
   * the main thread of a process, though its tid equals its "pid". */
  if (ev->tid == 0)
    return MATCH_NO;
  if (filter_lookup_named_main_thread (f, pid, &main_tid))
    return match_of (ev->tid == main_tid);
  if (pid >= 0)
    return match_of (ev->tid == pid);
  /* A tid some event used as a pid is a main thread (the thread-group
   * leader's tid is the pid), even when this event did not say so. */
  if (filter_knowledge_process (&f->k, ev->tid, FALSE) != NULL)
    return MATCH_YES;
  return MATCH_UNKNOWN;
}

static Match
check_pid (Filter *f,
           const TraceEvent *ev,
           gint64 pid)
{
  if (pid >= 0)
    return match_of (pid == f->pid);
  return ev->tid < 0 ? MATCH_NO : MATCH_UNKNOWN;
}

static Match
check_thread_name (Filter *f,
                   const TraceEvent *ev,
                   FilterThread *thread)
{
  if (ev->tid < 0 || thread == NULL)
    return MATCH_NO;
  if (thread->name == 0)
    return MATCH_UNKNOWN;
  return match_of (filter_glob_match (&f->thread_name, f->pool, thread->name));
}

static Match
check_process_name (Filter *f,
                    const TraceEvent *ev,
                    FilterThread *thread,
                    gint64 pid)
{
  FilterProcess *proc;
  guint32 name = 0;

  if (pid < 0)
    return ev->tid < 0 ? MATCH_NO : MATCH_UNKNOWN;
  proc = (thread && thread->pid == pid) ? thread->proc : filter_knowledge_process (&f->k, pid, FALSE);
  if (proc != NULL)
    name = proc->name ? proc->name : (proc->main_thread ? proc->main_thread->name : 0);
  if (name == 0)
    return MATCH_UNKNOWN;
  return match_of (filter_glob_match (&f->process_name, f->pool, name));
}

/* Folds one condition's answer in: the first definite "no" decides. */
static gboolean
fold (Match m,
      FilterDropReason why,
      gboolean *unknown,
      guint8 *reason)
{
  if (m == MATCH_UNKNOWN)
    *unknown = TRUE;
  if (m != MATCH_NO)
    return FALSE;
  *reason = why;
  return TRUE;
}

/* The conditions, cheapest first; @with_names FALSE for an end that has
 * no begin to follow (ends rarely carry a name or category). */
static Match
filter_match (Filter *f,
              const TraceEvent *ev,
              FilterThread *thread,
              gboolean with_names,
              guint8 *reason)
{
  gboolean unknown = FALSE;
  gint64 pid = filter_knowledge_resolve_pid (&f->k, ev, ev->tid >= 0 ? thread : NULL);

  if (f->kinds != 0 && fold (match_of (trace_event_kind_get_group (ev->kind) & f->kinds), FILTER_DROP_KIND, &unknown, reason))
    return MATCH_NO;
  if (with_names && f->category.spec && fold (match_of (filter_glob_match (&f->category, f->pool, ev->category)), FILTER_DROP_CATEGORY, &unknown, reason))
    return MATCH_NO;
  if (with_names && f->name.spec && fold (match_of (filter_glob_match (&f->name, f->pool, ev->name)), FILTER_DROP_NAME, &unknown, reason))
    return MATCH_NO;
  if (f->has_tid && fold (check_tid (f, ev, pid), FILTER_DROP_TID, &unknown, reason))
    return MATCH_NO;
  if (f->has_pid && fold (check_pid (f, ev, pid), FILTER_DROP_PID, &unknown, reason))
    return MATCH_NO;
  if (f->thread_name.spec && fold (check_thread_name (f, ev, thread), FILTER_DROP_THREAD_NAME, &unknown, reason))
    return MATCH_NO;
  if (f->process_name.spec && fold (check_process_name (f, ev, thread, pid), FILTER_DROP_PROCESS_NAME, &unknown, reason))
    return MATCH_NO;
  return unknown ? MATCH_UNKNOWN : MATCH_YES;
}

/* Keep @ev?  `invert` flips a definite answer; an undecidable one is
 * counted and settled by `keep-unknown`, never flipped. */
gboolean
filter_decide (Filter *f,
               const TraceEvent *ev,
               FilterThread *thread,
               gboolean with_names,
               guint8 *reason)
{
  Match m;

  if (!f->has_conditions)
    return TRUE;
  m = filter_match (f, ev, thread, with_names, reason);
  if (m == MATCH_UNKNOWN)
    {
      f->stats.undecidable++;
      *reason = FILTER_DROP_UNDECIDABLE;
      return f->keep_unknown;
    }
  if (f->invert)
    {
      *reason = FILTER_DROP_INVERT;
      return m == MATCH_NO;
    }
  return m == MATCH_YES;
}
