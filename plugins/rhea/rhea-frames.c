/* tracepipe - rhea-repair: per-thread stacks of frames, holding events
 * while a throw is unsettled, and closing frames at the best estimate of
 * when they really ended
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Why events are held: an end may have to go before events that came
 * after it.  After `T:m` we cannot tell yet whether the exception left m
 * (m ended at the T:) or m caught it and went on (m ends at a later
 * `E:m`); a method frame that an exception without a marker left shows
 * nothing until a frame below returns, or a call shows a frame below
 * made it, and its end goes after its last event that says it was still
 * running, before the calls made after it was left.  So a thread's
 * slice events are held while a method frame is open, a throw is
 * unsettled or frames are suspended, up to the hold limit.  See
 * docs/rhea-repair.md.
 */
#include "rhea-private.h"

#include <string.h>

void
rhea_thread_free (gpointer data)
{
  RheaThread *th = data;

  g_array_unref (th->frames);
  g_clear_pointer (&th->hold, trace_batch_unref);
  g_clear_pointer (&th->spare, trace_batch_unref);
  g_array_unref (th->pending);
  g_array_unref (th->calls);
  g_free (th);
}

static RheaThread *
rhea_thread_new (RheaRepair *r,
                 gint64 tid,
                 gint64 pid)
{
  RheaThread *th = g_new0 (RheaThread, 1);

  th->tid = tid;
  th->pid = pid;
  th->last_marker = MARKER_NONE;
  th->frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  th->pending = g_array_new (FALSE, FALSE, sizeof (PendingEnd));
  th->calls = g_array_new (FALSE, FALSE, sizeof (RheaCall));
  g_ptr_array_add (r->thread_list, th);
  return th;
}

/* Threads are keyed by tid; a pid given for a thread whose pid was not
 * known teaches it, a different known pid is another process reusing the
 * tid (Chrome JSON). */
static RheaThread *
rhea_thread_lookup (RheaRepair *r,
                    gint64 tid,
                    gint64 pid)
{
  RheaThread *head = g_hash_table_lookup (r->threads, &tid), *th;

  if (head == NULL)
    {
      head = rhea_thread_new (r, tid, pid);
      g_hash_table_insert (r->threads, &head->tid, head);
      return head;
    }
  if (pid < 0)
    return head;
  for (th = head; th != NULL; th = th->next)
    {
      if (th->pid == pid)
        return th;
      if (th->pid < 0)
        {
          th->pid = pid;
          return th;
        }
    }
  th = rhea_thread_new (r, tid, pid);
  th->next = head->next;
  head->next = th;
  return th;
}

RheaThread *
rhea_thread_get (RheaRepair *r,
                 gint64 tid,
                 gint64 pid)
{
  if (G_LIKELY (tid == r->last_tid && pid == r->last_pid && r->last_thread))
    return r->last_thread;
  r->last_thread = rhea_thread_lookup (r, tid, pid);
  r->last_tid = tid;
  r->last_pid = pid;
  return r->last_thread;
}

static void
hold_start (RheaRepair *r,
            RheaThread *th)
{
  if (th->holding)
    return;
  if (th->hold == NULL)
    th->hold = trace_batch_new (r->pool, 64);
  th->holding = TRUE;
}

/* The event at @index of the batch being repaired goes on: into the
 * thread's hold while it holds, else to the output. */
void
rhea_thread_emit_current (RheaRepair *r,
                          RheaThread *th,
                          guint index)
{
  if (th->holding)
    trace_batch_append_event (th->hold, &r->out.batch->events[index], r->out.batch);
  else
    rhea_output_keep_current (r, index);
}

void
rhea_thread_push (RheaRepair *r,
                  RheaThread *th,
                  guint index,
                  gboolean is_method)
{
  const TraceEvent *ev = &r->out.batch->events[index];
  Frame f = { 0 };

  f.name = ev->name;
  f.category = ev->category;
  f.pid = ev->pid;
  f.tid = ev->tid;
  f.track = ev->u.slice.track;
  f.is_method = is_method;
  f.state = FRAME_OPEN;
  f.hold_index = -1;
  /* so that its end can still go before later events (an exception
   * without a marker may have left it), and with crash-tag so that its
   * begin can still be renamed */
  if (is_method || r->opts.crash_tag)
    hold_start (r, th);
  if (th->holding)
    f.hold_index = th->hold->n_events;
  g_array_append_val (th->frames, f);
  if (!is_method)
    th->n_plain++;
  r->stats.max_depth = MAX (r->stats.max_depth, th->frames->len);
  rhea_thread_emit_current (r, th, index);
}

void
rhea_thread_pop (RheaThread *th)
{
  Frame *f = &g_array_index (th->frames, Frame, th->frames->len - 1);

  if (!f->is_method)
    th->n_plain--;
  g_array_set_size (th->frames, th->frames->len - 1);
}

/* The innermost open frame of method @name, or -1: recursion and repeated
 * names pair with the nearest frame, as calls nest. */
gint
rhea_thread_find_method (RheaThread *th,
                         guint32 name)
{
  for (gint i = (gint) th->frames->len - 1; i >= 0; i--)
    {
      const Frame *f = &g_array_index (th->frames, Frame, i);

      if (f->is_method && f->name == name)
        return i;
    }
  return -1;
}

gint
rhea_thread_find_plain (RheaThread *th)
{
  if (th->n_plain == 0)
    return -1;
  for (gint i = (gint) th->frames->len - 1; i >= 0; i--)
    if (!g_array_index (th->frames, Frame, i).is_method)
      return i;
  return -1;
}

static guint32
crash_name (RheaRepair *r,
            guint32 name)
{
  gpointer found;
  g_autofree char *text = NULL;
  guint32 id;

  if (g_hash_table_lookup_extended (r->crash_names, GUINT_TO_POINTER (name), NULL, &found))
    return GPOINTER_TO_UINT (found);
  /* once per distinct repaired name, so the allocation is fine */
  text = g_strdup_printf ("%s: CrashTag", trace_string_pool_get (r->pool, name));
  id = trace_string_pool_intern (r->pool, text);
  g_hash_table_insert (r->crash_names, GUINT_TO_POINTER (name), GUINT_TO_POINTER (id));
  return id;
}

/* The end of @f at @ts, marked with what was repaired. */
static void
make_end (RheaRepair *r,
          RheaThread *th,
          Frame *f,
          gint64 ts,
          RepairKind kind,
          TraceEvent *ev)
{
  memset (ev, 0, sizeof *ev);
  ev->kind = TRACE_EVENT_SLICE_END;
  ev->ts = ts;
  ev->pid = f->pid;
  ev->tid = f->tid;
  ev->cpu = TRACE_ID_UNKNOWN;
  ev->name = f->name;
  ev->category = f->category;
  ev->flags = TRACE_EVENT_FLAG_REPAIRED;
  ev->u.slice.track = f->track;
  if (r->opts.crash_tag && kind != REPAIR_EXITED_BY_THROW && th->holding && f->hold_index >= 0)
    {
      ev->name = crash_name (r, f->name);
      th->hold->events[f->hold_index].name = ev->name;
      r->stats.crash_tagged++;
    }
}

static void
add_repair_arg (RheaRepair *r,
                TraceBatch *batch,
                TraceEvent *ev,
                guint8 kind)
{
  trace_batch_add_arg (batch, ev, r->repair_key, TRACE_ARG_STRING)->v.s = r->repair_values[kind];
}

static void
count_repair (RheaRepair *r,
              RheaThread *th,
              RepairKind kind,
              gint64 ts)
{
  guint64 *counter;

  switch (kind)
    {
    case REPAIR_EXITED_BY_THROW:
      counter = &r->stats.throws;
      break;
    case REPAIR_UNWOUND:
      counter = &r->stats.unwound;
      break;
    case REPAIR_MISSING_END:
      counter = &r->stats.missing_ends;
      break;
    default:
      counter = &r->stats.closed_at_eos;
      break;
    }
  rhea_count (counter, rhea_repair_kind_name (kind), ts, th->tid);
}

/* Ends @f at @ts: now (@pos < 0), or in the hold before held event @pos.
 * Never after the event it goes before: a complete slice before it may
 * last past that event (the input's slices overlap), and the thread's
 * output stays in time order. */
static void
end_frame (RheaRepair *r,
           RheaThread *th,
           Frame *f,
           gint64 ts,
           gint pos,
           RepairKind kind)
{
  TraceEvent end;

  if (pos >= 0 && th->holding && (guint) pos < th->hold->n_events)
    ts = MIN (ts, th->hold->events[pos].ts);
  else
    ts = MIN (ts, r->next_ts);
  make_end (r, th, f, ts, kind, &end);
  if (pos >= 0)
    {
      PendingEnd p = { (guint) pos, th->pending_seq++, end, kind };

      g_array_append_val (th->pending, p);
    }
  else if (th->holding)
    {
      TraceEvent *ev = trace_batch_append_event (th->hold, &end, NULL);

      add_repair_arg (r, th->hold, ev, kind);
    }
  else
    {
      TraceEvent *ev = rhea_output_append (r, &end, NULL);

      add_repair_arg (r, r->out.spill, ev, kind);
    }
}

static gint own_cut (RheaRepair *r,
                     RheaThread *th,
                     const Frame *f,
                     guint32 catcher,
                     guint from,
                     guint to,
                     gboolean *stopped_out,
                     gint64 *ts);
static gint dead_cut (RheaRepair *r,
                      RheaThread *th,
                      gint i,
                      guint32 catcher,
                      guint limit,
                      gint above_pos,
                      gint64 above_ts,
                      gint64 *ts);
static guint32 caller_name (RheaThread *th,
                            gint index);
static gboolean chain_call (RheaRepair *r,
                            RheaThread *th,
                            gint i,
                            guint32 catcher,
                            gboolean guessed);

/* Whether the suspended frame at @i was suspended by a later call than
 * the frame above it: it was still running when that one had ended. */
static gboolean
outlived_above (RheaThread *th,
                gint i)
{
  const Frame *f = &g_array_index (th->frames, Frame, i);

  return i + 1 < (gint) th->frames->len && f[1].suspended && f->guess_pos > f[1].guess_pos;
}

/* Ends the frames from @top down to @bottom (indices, innermost first).
 * A frame that threw ends at its T:, and a frame below it at that T:
 * (the exception came from there and passed through it).  A frame that
 * an exception without a marker left (a frame below ended, or a call
 * showed it had ended: suspended) ends at the last point the capture
 * says is certainly its own (dead_cut()): never after its true end, so
 * never worse than a zero-length slice.  @top_kind says whether the
 * frames above the innermost throw were left (unwound) or are still
 * running at EOS (they end at the thread's latest event).  The caller
 * removes them from the stack. */
static void
end_frames (RheaRepair *r,
            RheaThread *th,
            gint top,
            gint bottom,
            RepairKind top_kind)
{
  gint64 ts = th->last_ts;
  gint pos = -1;
  gboolean below_throw = FALSE;
  guint32 catcher = caller_name (th, bottom - 1);
  /* no frame below returned or threw to say where the exception was
   * caught: EOS, or the hold limit taking it to have escaped */
  gboolean guessed = top_kind != REPAIR_UNWOUND || top + 1 < (gint) th->frames->len;

  for (gint i = top; i >= bottom; i--)
    {
      Frame *f = &g_array_index (th->frames, Frame, i);
      RepairKind kind = REPAIR_UNWOUND;

      if (f->state == FRAME_THROWN)
        {
          ts = f->throw_ts;
          pos = (gint) f->throw_pos;
          kind = REPAIR_EXITED_BY_THROW;
          below_throw = TRUE;
          th->n_thrown--;
        }
      else if (f->suspended && outlived_above (th, i))
        {
          gboolean stopped;

          /* a later call showed it running after the frame above had
           * ended (it caught that exception): it ends after its calls
           * certainly its own from there on, before that later call */
          if (pos >= 0 && th->holding && (guint) pos <= f->guess_pos)
            pos = own_cut (r, th, f, f->guess_by, (guint) pos, f->guess_pos, &stopped, &ts);
          else
            ts = f->guess_ts, pos = (gint) f->guess_pos;
          below_throw = FALSE;
        }
      else if (below_throw && chain_call (r, th, i, catcher, guessed))
        ; /* the nearest T: above it: that exception came through it */
      else if (below_throw || top_kind == REPAIR_UNWOUND || f->suspended)
        {
          gint64 cut_ts;
          gint cut = dead_cut (r, th, i, f->suspended ? f->guess_by : catcher,
                               f->suspended ? f->guess_pos : G_MAXUINT, pos, ts, &cut_ts);

          if (cut >= 0)
            ts = cut_ts, pos = cut;
          else if (below_throw)
            ; /* its begin has gone out: no earlier place than the T: */
          else if (f->suspended)
            ts = f->guess_ts, pos = (gint) f->guess_pos;
          else
            ts = th->last_ts, pos = -1;
        }
      else
        kind = top_kind, ts = th->last_ts, pos = -1;
      if (!f->is_method && kind == REPAIR_UNWOUND)
        kind = REPAIR_MISSING_END;
      if (!f->is_method)
        th->n_plain--;
      if (f->suspended)
        th->n_suspended--;
      end_frame (r, th, f, ts, pos, kind);
      count_repair (r, th, kind, ts);
    }
}

/* Closes every frame above @index (all frames for -1). */
static void
close_frames (RheaRepair *r,
              RheaThread *th,
              gint index,
              RepairKind top_kind)
{
  end_frames (r, th, (gint) th->frames->len - 1, index + 1, top_kind);
  g_array_set_size (th->frames, index + 1);
}

void
rhea_thread_close_above (RheaRepair *r,
                         RheaThread *th,
                         gint index)
{
  close_frames (r, th, index, REPAIR_UNWOUND);
}

/* The frame at @index (now the innermost) threw at @ts.  A frame that had
 * already thrown caught that earlier exception, since it threw again. */
void
rhea_thread_throw (RheaRepair *r,
                   RheaThread *th,
                   gint index,
                   gint64 ts)
{
  Frame *f = &g_array_index (th->frames, Frame, index);

  if (f->state == FRAME_THROWN)
    r->stats.throws_caught++;
  else
    {
      f->state = FRAME_THROWN;
      th->n_thrown++;
    }
  hold_start (r, th);
  f->throw_ts = ts;
  f->throw_pos = th->hold->n_events;
}

static gint
pending_compare (gconstpointer a,
                 gconstpointer b)
{
  const PendingEnd *pa = a, *pb = b;

  if (pa->pos != pb->pos)
    return pa->pos < pb->pos ? -1 : 1;
  return pa->seq < pb->seq ? -1 : (pa->seq > pb->seq);
}

static void
emit_pending (RheaRepair *r,
              PendingEnd *p)
{
  TraceEvent *ev = rhea_output_append (r, &p->ev, NULL);

  add_repair_arg (r, r->out.spill, ev, p->repair);
}

/* The held events before @upto go to the output, with the pending ends
 * placed before them; the rest stays held, renumbered from 0 (copied to
 * the spare batch, which then becomes the hold). */
static void
release_before (RheaRepair *r,
                RheaThread *th,
                guint upto)
{
  TraceBatch *hold = th->hold;
  guint j = 0;
  PendingEnd *pending;

  g_array_sort (th->pending, pending_compare);
  pending = (PendingEnd *) th->pending->data;
  for (guint i = 0; i < upto; i++)
    {
      for (; j < th->pending->len && pending[j].pos <= i; j++)
        emit_pending (r, &pending[j]);
      rhea_output_append (r, &hold->events[i], hold);
    }
  for (; j < th->pending->len && pending[j].pos <= upto; j++)
    emit_pending (r, &pending[j]);
  g_array_remove_range (th->pending, 0, j);
  for (guint i = 0; i < th->pending->len; i++)
    g_array_index (th->pending, PendingEnd, i).pos -= upto;
  if (upto < hold->n_events)
    {
      if (th->spare == NULL)
        th->spare = trace_batch_new (r->pool, 64);
      for (guint i = upto; i < hold->n_events; i++)
        trace_batch_append_event (th->spare, &hold->events[i], hold);
      th->hold = th->spare;
      th->spare = hold;
    }
  if (upto > 0)
    th->released_ts = MAX (th->released_ts, hold->events[upto - 1].ts);
  trace_batch_clear (hold);
  /* a buffer far larger than what stays held goes back: a hold that was
   * cut keeps memory near its size, not near the largest it ever was */
  if (hold == th->spare && hold->events_capacity > 2 * MAX (th->hold->n_events, RHEA_HOLD_KEPT))
    g_clear_pointer (&th->spare, trace_batch_unref);
  for (guint i = 0; i < th->frames->len; i++)
    {
      Frame *f = &g_array_index (th->frames, Frame, i);

      f->hold_index = f->hold_index >= (gint) upto ? f->hold_index - (gint) upto : -1;
      /* a thrown frame left open is above every decided one: its T:
       * came after @upto (the lowest such T:) */
      if (f->state == FRAME_THROWN)
        f->throw_pos = f->throw_pos > upto ? f->throw_pos - upto : 0;
      /* and so is a suspension (overflow()) */
      if (f->suspended)
        f->guess_pos -= MIN (f->guess_pos, upto);
    }
}

/* Everything held goes to the output, the pending ends at their places. */
static void
release (RheaRepair *r,
         RheaThread *th)
{
  release_before (r, th, th->hold->n_events);
  th->holding = FALSE;
  if (th->hold->events_capacity > RHEA_HOLD_KEPT)
    g_clear_pointer (&th->hold, trace_batch_unref);
}

/* The hold limit: the suspensions whose ends would go before held event
 * @before are undone, so that those events can go out: the frames are
 * open again, as if never suspended (a later E: or T: of one of them
 * still pairs with it), and end as any open frame does. */
static void
undo_suspensions (RheaRepair *r,
                  RheaThread *th,
                  guint before)
{
  for (guint i = 0; i < th->frames->len && th->n_suspended > 0; i++)
    {
      Frame *f = &g_array_index (th->frames, Frame, i);

      if (!f->suspended || f->guess_pos >= before)
        continue;
      f->suspended = FALSE;
      th->n_suspended--;
      r->stats.resumed++;
    }
}

/* The first held event an end of a frame still open may have to go
 * before (a T: or a suspension), or G_MAXUINT. */
static guint
first_needed (RheaThread *th)
{
  guint first = G_MAXUINT;

  for (guint i = 0; i < th->frames->len; i++)
    {
      const Frame *f = &g_array_index (th->frames, Frame, i);

      if (f->suspended)
        first = MIN (first, f->guess_pos);
      else if (f->state == FRAME_THROWN)
        first = MIN (first, f->throw_pos);
    }
  return first;
}

/* Whether a frame still open may need an end before held events: a
 * method frame (an exception without a marker may have left it), or with
 * crash-tag any frame (its begin may be renamed). */
static gboolean
needs_hold (RheaRepair *r,
            RheaThread *th)
{
  if (r->opts.crash_tag)
    return th->frames->len > 0;
  return th->frames->len > th->n_plain;
}

/* Too many events held for @th (its own limit, or it holds the most when
 * all threads together hold too many): nothing below the oldest throws
 * has returned or thrown to say it caught them, so they are taken to have
 * escaped every instrumented frame to an uninstrumented catcher (a
 * message loop, a thread pool), as at EOS: the frames up to the innermost
 * of them end at the T: that left them; the calls made since stay open.
 * Suspensions before held event @half are undone first.  Only the throws
 * before @half are decided (at least one), so a recent throw whose
 * catcher is about to return is not, and the hold shrinks to at most its
 * size less @half (each event is copied O(1) times).  The events before
 * the oldest left open go out. */
static void
overflow (RheaRepair *r,
          RheaThread *th,
          guint half)
{
  guint n_before;
  gint decided = -1;
  guint upto;

  undo_suspensions (r, th, half);
  n_before = th->n_thrown;
  for (guint i = 0; i < th->frames->len; i++)
    {
      const Frame *f = &g_array_index (th->frames, Frame, i);

      if (f->state != FRAME_THROWN || f->suspended)
        continue;
      if (decided >= 0 && f->throw_pos >= half)
        break;
      decided = i;
    }
  end_frames (r, th, decided, 0, REPAIR_UNWOUND);
  g_array_remove_range (th->frames, 0, decided + 1);
  if (decided >= 0 && r->stats.hold_overflows == 0)
    g_debug ("first hold overflow on thread %" G_GINT64_FORMAT " at ts=%" G_GINT64_FORMAT
             " (max-hold %u): oldest throws taken as escaped",
             th->tid, th->last_ts, r->opts.max_hold);
  if (decided >= 0 || r->opts.crash_tag)
    r->stats.hold_overflows += MAX (n_before - th->n_thrown, 1);
  upto = first_needed (th);
  if (upto == 0)
    {
      undo_suspensions (r, th, G_MAXUINT); /* max-hold 1 */
      upto = first_needed (th);
    }
  if (upto != G_MAXUINT)
    {
      release_before (r, th, upto);
      return;
    }
  release (r, th);
  if (needs_hold (r, th))
    hold_start (r, th);
}

/* Brings the repair's count of held events up to date with @th's hold
 * (a hold only changes while an event of its thread is repaired). */
static void
count_held (RheaRepair *r,
            RheaThread *th)
{
  guint n = th->hold != NULL ? th->hold->n_events : 0;

  r->n_held = r->n_held - th->n_counted + n;
  th->n_counted = n;
}

static RheaThread *
holding_most (RheaRepair *r)
{
  RheaThread *most = NULL;

  for (guint i = 0; i < r->thread_list->len; i++)
    {
      RheaThread *th = r->thread_list->pdata[i];

      if (most == NULL || th->n_counted > most->n_counted)
        most = th;
    }
  return most;
}

/* All threads together hold more than max-hold-total events (many
 * threads, each with a frame open, each under its own limit): the thread
 * holding the most is cut as at its own limit, with the older half of its
 * hold, until the total is back under the limit.  Cutting the largest
 * lets the most out per cut, so the fewest threads are cut; scanning the
 * threads is paid once per cut, which lets out half the largest hold. */
static void
bound_total (RheaRepair *r)
{
  while (r->n_held > r->opts.max_hold_total)
    {
      RheaThread *th = holding_most (r);
      guint before = th->n_counted;

      overflow (r, th, MAX (before / 2, 1));
      count_held (r, th);
      if (th->n_counted >= before)
        break; /* nothing could go out: try again after the next event */
      rhea_count (&r->stats.hold_total_overflows, "hold cut at the total hold limit", th->last_ts, th->tid);
    }
}

/* After each slice event of @th: release the hold once nothing needs it,
 * and keep it, and all holds together, under their limits. */
void
rhea_thread_settle (RheaRepair *r,
                    RheaThread *th)
{
  if (!th->holding)
    return; /* its hold, if any, was counted empty when it was released */
  count_held (r, th);
  r->stats.max_held = MAX (r->stats.max_held, th->hold->n_events);
  r->stats.max_held_total = MAX (r->stats.max_held_total, r->n_held);
  if (!needs_hold (r, th))
    release (r, th);
  else if (th->hold->n_events >= r->opts.max_hold)
    overflow (r, th, r->opts.max_hold / 2);
  count_held (r, th);
  if (r->n_held > r->opts.max_hold_total)
    bound_total (r);
}

/* EOS: the frames above the innermost throw were running when the
 * capture was cut: they end at the thread's last time.  The ones below a
 * throw were left by that exception as far as the capture tells: nothing
 * below them returned to say otherwise (an uninstrumented catcher, a
 * crash), so they end at the throw. */
void
rhea_thread_close_at_eos (RheaRepair *r,
                          RheaThread *th)
{
  close_frames (r, th, -1, REPAIR_CLOSED_AT_EOS);
  if (th->holding)
    release (r, th);
  /* freed now: the thread's drain batch holds the same events */
  g_clear_pointer (&th->hold, trace_batch_unref);
  g_clear_pointer (&th->spare, trace_batch_unref);
  count_held (r, th);
}

/* ---- which frame a call was made from ---------------------------------- */

/* The caller of a call made with no frame open: the thread's loop. */
#define CALLER_LOOP G_MAXUINT32

static inline guint64
call_key (guint32 caller,
          guint32 callee)
{
  return (((guint64) caller << 32) | callee) + 1;
}

/* The slot of @key in the call set: where it is, or the free one where
 * it would go. */
static inline guint
call_slot (RheaRepair *r,
           guint64 key)
{
  guint i = (guint) ((key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 40) & r->call_mask;

  while (r->call_keys[i] != 0 && r->call_keys[i] != key)
    i = (i + 1) & r->call_mask;
  return i;
}

/* What the capture says of a call: seen made by a frame (which may have
 * been one an exception had already left), or certain: made while the
 * caller was running (it returned later, or it is the loop). */
enum
{
  CALL_SEEN = 1,
  CALL_CERTAIN = 2,
};

static inline guint
makes_call (RheaRepair *r,
            guint32 caller,
            guint32 callee)
{
  return r->call_flags[call_slot (r, call_key (caller, callee))];
}

static void
grow_calls (RheaRepair *r)
{
  guint64 *keys = r->call_keys;
  guint8 *flags = r->call_flags;
  guint n = r->call_mask + 1;

  r->call_mask = 2 * n - 1;
  r->call_keys = g_new0 (guint64, 2 * n);
  r->call_flags = g_new0 (guint8, 2 * n);
  for (guint i = 0; i < n; i++)
    if (keys[i] != 0)
      {
        guint slot = call_slot (r, keys[i]);

        r->call_keys[slot] = keys[i];
        r->call_flags[slot] = flags[i];
      }
  g_free (keys);
  g_free (flags);
}

static void
learn_call (RheaRepair *r,
            guint32 caller,
            guint32 callee,
            guint how)
{
  guint64 key = call_key (caller, callee);
  guint slot = call_slot (r, key);

  if (r->call_keys[slot] == 0)
    {
      if (2 * (r->n_calls + 1) > r->call_mask + 1)
        {
          grow_calls (r);
          slot = call_slot (r, key);
        }
      r->call_keys[slot] = key;
      r->n_calls++;
    }
  r->call_flags[slot] |= how;
}

/* The innermost frame below @from that is not suspended, or -1. */
static gint
active_below (RheaThread *th,
              gint from)
{
  gint i = from - 1;

  while (i >= 0 && g_array_index (th->frames, Frame, i).suspended)
    i--;
  return i;
}

static guint
n_thrown_suspended (RheaThread *th)
{
  guint n = 0;

  for (guint i = 0; i < th->frames->len; i++)
    {
      const Frame *f = &g_array_index (th->frames, Frame, i);

      n += f->suspended && f->state == FRAME_THROWN;
    }
  return n;
}

/* Whether the frames above @caller, up to the top, may be taken to have
 * ended before a call of @method made by @caller: each is a method frame
 * that was never seen making that call. */
static gint
known_caller_below (RheaRepair *r,
                    RheaThread *th,
                    gint top,
                    guint32 method)
{
  gint found = -2;
  gboolean after_throw = th->n_thrown > n_thrown_suspended (th);
  guint how = after_throw ? CALL_CERTAIN : CALL_SEEN | CALL_CERTAIN;

  for (gint i = active_below (th, top); i >= 0; i = active_below (th, i))
    {
      const Frame *f = &g_array_index (th->frames, Frame, i);

      if (!f->is_method)
        return -2;
      if (!(makes_call (r, f->name, method) & how))
        continue;
      if (found != -2)
        return -2; /* two frames make that call: either may have */
      found = i;
      if (!after_throw)
        return found;
    }
  if (makes_call (r, CALLER_LOOP, method) & how)
    return found == -2 ? -1 : -2;
  return found;
}

/* The frames above @caller (not already suspended) ended before the call
 * of @method about to begin: each ends at the nearest T: above it among
 * them (that exception left it), or, with none, at the thread's latest
 * time, before the call.  Their ends wait in the hold, so that a later
 * E: or T: of one of them can undo this (rhea_thread_resume()). */
static void
suspend_above (RheaRepair *r,
               RheaThread *th,
               gint caller,
               guint32 method)
{
  gint64 ts = th->last_ts;
  guint pos;

  hold_start (r, th);
  pos = th->hold->n_events;
  for (gint i = (gint) th->frames->len - 1; i > caller; i--)
    {
      Frame *f = &g_array_index (th->frames, Frame, i);

      if (f->suspended)
        continue;
      if (f->state == FRAME_THROWN)
        {
          ts = f->throw_ts;
          pos = f->throw_pos;
        }
      f->guess_ts = ts;
      f->guess_pos = pos;
      f->guess_call = method;
      f->guess_by = caller < 0 ? CALLER_LOOP : g_array_index (th->frames, Frame, caller).name;
      f->suspended = TRUE;
      th->n_suspended++;
      r->stats.suspended++;
    }
}

/* A call made by the frame at @caller: learnt when that frame returns (a
 * frame an exception left may have been taken for the caller of calls
 * made after it ended), at once when made by the loop.  The calls of the
 * frames no longer on the stack are dropped first. */
static void
note_call (RheaRepair *r,
           RheaThread *th,
           gint caller,
           guint32 method)
{
  RheaCall c = { caller, method };
  guint n = th->calls->len;

  if (caller < 0)
    {
      learn_call (r, CALLER_LOOP, method, CALL_CERTAIN);
      return;
    }
  while (n > 0 && g_array_index (th->calls, RheaCall, n - 1).caller >= (gint) th->frames->len)
    n--;
  g_array_set_size (th->calls, n);
  if (n > 0 && g_array_index (th->calls, RheaCall, n - 1).caller == caller && g_array_index (th->calls, RheaCall, n - 1).method == method)
    return;
  if (n < RHEA_MAX_CALLS_PENDING)
    g_array_append_val (th->calls, c);
}

/* The frame at @index returned or threw: it was running, so the calls
 * made while it was the innermost were its calls. */
void
rhea_thread_learn_calls (RheaRepair *r,
                         RheaThread *th,
                         gint index)
{
  guint32 name = g_array_index (th->frames, Frame, index).name;
  guint n = th->calls->len;

  for (; n > 0 && g_array_index (th->calls, RheaCall, n - 1).caller >= index; n--)
    {
      const RheaCall *c = &g_array_index (th->calls, RheaCall, n - 1);

      if (c->caller == index)
        learn_call (r, name, c->method, CALL_CERTAIN);
    }
  g_array_set_size (th->calls, n);
}

/**
 * rhea_thread_begin_method:
 * @method: the method of the `B:` about to be pushed
 *
 * Learns which method makes which call, and uses it: a call that the
 * innermost frame never made but a frame below it (or the thread's loop)
 * did was made by that one, so the frames above it had ended, left by an
 * exception (a `T:` among them, or none).  They are suspended: their
 * ends go before the call unless a later `E:` or `T:` of one of them
 * shows it was still running.
 *
 * Returns: whether the innermost frame had been seen making that call
 *   before (kept in the new frame: a `T:` chain through it is trusted)
 */
gboolean
rhea_thread_begin_method (RheaRepair *r,
                          RheaThread *th,
                          guint32 method)
{
  gint top = active_below (th, (gint) th->frames->len);
  guint32 caller = CALLER_LOOP;
  gint found;

  if (top >= 0)
    {
      const Frame *f = &g_array_index (th->frames, Frame, top);

      if (!f->is_method)
        return FALSE;
      caller = f->name;
    }
  if (makes_call (r, caller, method))
    {
      if (top >= 0)
        g_array_index (th->frames, Frame, top).last_call = method;
      return TRUE;
    }
  found = top >= 0 ? known_caller_below (r, th, top, method) : -2;
  if (found == -2)
    {
      note_call (r, th, top, method);
      learn_call (r, caller, method, CALL_SEEN);
    }
  else
    {
      suspend_above (r, th, found, method);
      note_call (r, th, found, method);
    }
  return FALSE;
}

/**
 * rhea_thread_resume:
 * @index: the frame an `E:` or `T:` names, or -1
 *
 * A suspended frame that returns or throws was still running, and so were
 * the frames below it: they are no longer suspended, and the call that
 * suspended them is learnt as one the frame makes.
 *
 * Returns: @index
 */
gint
rhea_thread_resume (RheaRepair *r,
                    RheaThread *th,
                    gint index)
{
  Frame *f;

  if (index < 0 || th->n_suspended == 0)
    return index;
  f = &g_array_index (th->frames, Frame, index);
  if (!f->suspended)
    return index;
  learn_call (r, f->name, f->guess_call, CALL_CERTAIN);
  r->stats.resumed++;
  for (gint i = index; i >= 0; i--)
    {
      Frame *below = &g_array_index (th->frames, Frame, i);

      if (below->suspended)
        {
          below->suspended = FALSE;
          th->n_suspended--;
        }
    }
  return index;
}

/* Whether @child, a call begun directly in a frame of method @caller that
 * an exception without a marker left, says that frame was still running:
 * its method was seen making that call, and the catcher (which made its
 * calls after it caught, nested in the frames the exception left) is not
 * certain to make it. */
static gboolean
own_call (RheaRepair *r,
          guint32 caller,
          guint32 catcher,
          guint32 child)
{
  return makes_call (r, caller, child) && !(makes_call (r, catcher, child) & CALL_CERTAIN);
}

/* One event of a frame's own time, seen by own_cut(): a call begun
 * directly in it (@depth 0 to 1), the end of one, or something else.
 * The first direct call that is not certainly its own may be the
 * catcher's, made after the exception left it: from there on (@stopped)
 * nothing says it was still running. */
static void
own_cut_step (RheaRepair *r,
              const Frame *f,
              guint32 catcher,
              const TraceEvent *ev,
              guint pos_after,
              guint *depth,
              gboolean *stopped,
              gint *cut,
              gint64 *ts)
{
  if (ev->kind == TRACE_EVENT_SLICE_BEGIN)
    {
      if ((*depth)++ == 0 && !own_call (r, f->name, catcher, ev->name))
        *stopped = TRUE;
      return;
    }
  if (ev->kind == TRACE_EVENT_SLICE_END && *depth > 0)
    {
      if (--(*depth) > 0 || *stopped)
        return;
    }
  else if (ev->kind != TRACE_EVENT_SLICE_END && *stopped)
    return;
  /* an end at depth 0 closes a call whose begin has gone out: the frame
   * ends after it anyway, to stay nested */
  *cut = (gint) pos_after;
  *ts = ev->kind == TRACE_EVENT_SLICE_COMPLETE ? ev->ts + MAX (ev->u.slice.dur, 0) : ev->ts;
}

/* Where the frame @f that an exception without a marker left ended,
 * among the held events before @to: after the last call begun directly
 * in it that is certainly its own (own_call()), or the last complete
 * slice or instant in it, else right after its begin (or where the hold
 * starts, when its begin has gone out).  The ends waiting in the hold
 * count as the events they end.  Returns the hold position (its time in
 * @ts). */
static gint
own_cut (RheaRepair *r,
         RheaThread *th,
         const Frame *f,
         guint32 catcher,
         guint from,
         guint to,
         gboolean *stopped_out,
         gint64 *ts)
{
  const TraceBatch *hold = th->hold;
  const PendingEnd *pending;
  gboolean stopped = FALSE;
  guint depth = 0, j = 0;
  gint cut = (gint) from;

  g_array_sort (th->pending, pending_compare);
  pending = (const PendingEnd *) th->pending->data;
  while (j < th->pending->len && pending[j].pos < from)
    j++;
  for (guint i = from; i <= to; i++)
    {
      for (; j < th->pending->len && pending[j].pos <= i; j++)
        own_cut_step (r, f, catcher, &pending[j].ev, i, &depth, &stopped, &cut, ts);
      if (i == to)
        break;
      own_cut_step (r, f, catcher, &hold->events[i], i + 1, &depth, &stopped, &cut, ts);
    }
  *stopped_out = stopped;
  return cut;
}

/* The end of the frame at @i, which an exception without a marker left
 * before held event @limit (a frame @catcher made a call, returned or
 * threw): with the frame above it (which ends at @above_pos, @above_ts)
 * when that one is certainly its call (the exception came from there) or
 * began before the hold (so it is nested in it already), else after its
 * last event before that frame's begin that is certainly its own
 * (own_cut()).  Returns the hold position, or -1 when it cannot be
 * placed in the hold. */
static gint
dead_cut (RheaRepair *r,
          RheaThread *th,
          gint i,
          guint32 catcher,
          guint limit,
          gint above_pos,
          gint64 above_ts,
          gint64 *ts)
{
  const Frame *f = &g_array_index (th->frames, Frame, i);
  const Frame *above = NULL;
  gboolean stopped;
  gint cut;
  guint to;

  if (!th->holding || !f->is_method)
    return -1;
  to = MIN (limit, th->hold->n_events);
  if (i + 1 < (gint) th->frames->len)
    {
      above = &g_array_index (th->frames, Frame, i + 1);
      if (above->hold_index < 0)
        {
          /* nested in it already */
          *ts = above_ts;
          return above_pos;
        }
      to = MIN (to, (guint) above->hold_index);
    }
  *ts = f->hold_index >= 0 ? th->hold->events[f->hold_index].ts : th->released_ts;
  cut = own_cut (r, th, f, catcher, f->hold_index >= 0 ? (guint) f->hold_index + 1 : 0, to, &stopped, ts);
  if (above != NULL && !stopped && above_pos >= 0 && above_pos <= (gint) MIN (limit, th->hold->n_events) &&
      (guint) above->hold_index <= to && own_call (r, f->name, catcher, above->name))
    {
      *ts = above_ts;
      return above_pos;
    }
  return cut;
}

/* Whether the frame at @i, below one that a T: exception left, was left
 * by it too (the frame above it was its call).  When a frame below
 * returned or threw, it was: the exception passed through it to that
 * catcher.  When nothing did (@guessed: EOS, the hold limit), frames an
 * exception without a marker left long before may be under the T:, with
 * the calls made since nested in them, and must not end at that much
 * later T:.  So the call above it must be one its method is certain to
 * make, or else one it was seen making before that call began (or begun
 * right after it) that the thread's loop is not certain to make. */
static gboolean
chain_call (RheaRepair *r,
            RheaThread *th,
            gint i,
            guint32 catcher,
            gboolean guessed)
{
  const Frame *f = &g_array_index (th->frames, Frame, i), *above;

  if (i + 1 >= (gint) th->frames->len)
    return FALSE;
  above = f + 1;
  if (!guessed)
    return TRUE;
  if (makes_call (r, f->name, above->name) & CALL_CERTAIN)
    return TRUE;
  if (makes_call (r, CALLER_LOOP, above->name) & CALL_CERTAIN)
    return FALSE;
  return above->call_known || (f->hold_index >= 0 && above->hold_index == f->hold_index + 1);
}

/* The method of the frame at @index, or the loop's. */
static guint32
caller_name (RheaThread *th,
             gint index)
{
  return index >= 0 ? g_array_index (th->frames, Frame, index).name : CALLER_LOOP;
}
