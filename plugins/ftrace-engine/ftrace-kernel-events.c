/* tracepipe - ftrace engine: kernel events from typed fields
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The one mapping of a kernel event into TraceEvents, whichever format
 * carried it: the text parser (ftrace-kernel.c) calls it with the fields
 * it cut out of a line, htrace-src with those of OpenHarmony's protobuf
 * records, perfetto-src with those of Perfetto's FtraceEvents. Each source
 * turns its format's values into an #FtraceKernelEvent (a field missing
 * from text is -1, one missing from protobuf what the format reads for
 * it; prev_state as #TraceTaskState bits: text letters in the 4.4 layout,
 * htrace's number as it is, Perfetto's by kernel version) and this file
 * decides the rest: the kind, the union's fields, the args
 * (oom_score_adj), which names teach the thread table.
 *
 * The sources differ in who knows the threads, the record's
 * #FtraceThreads:
 * - %FTRACE_THREADS_LEARN (ftrace text, htrace): the record is one of the
 *   parser's lines (counted in its stats; problems name its number), its
 *   pid is what its tgid, its comm and the thread table say, and the
 *   comms the event names teach the table (sched_switch's both,
 *   sched_waking's wakee, task_newtask's with its process, task_rename's
 *   new name: THREAD_NAME events when a name changes), as trace_processor
 *   reads the same text. Names are bytes the parser interns (cut and made
 *   valid UTF-8, counted as problems).
 * - %FTRACE_THREADS_GIVEN (Perfetto): the reader knows each thread's
 *   process from its descriptors and names threads itself: the record's
 *   tgid is its pid, it teaches and counts nothing but the event, names
 *   come interned (the compact tables' ids), and the event keeps the
 *   record's name (the FtraceEvent field's).
 *
 * Events the model has no kind for are TRACE_EVENT_FTRACE events of their
 * name with the source's args (ftrace_parser_add_generic()); kinds a
 * format cannot even name stay the source's (htrace counts them by field
 * number, Perfetto carries their bytes). A print's atrace text goes to
 * ftrace-marker.c, the one reader of atrace payloads, through
 * ftrace_parser_add_print(): for a LEARN record text that is no marker is
 * a problem, as from text; for a GIVEN one it stays the reader's (a print
 * event, as trace_processor shows it), and a marker of a record without
 * tgid is of the process the thread's markers named, as from text.
 */
#include "ftrace-text-private.h"

static guint32
name_id (FtraceParser *p,
         const FtraceName *n)
{
  return n->str ? ftrace_intern (p, n->str, n->len) : n->id;
}

/* ------------------------------------------------------------- the mapping */

/* @learn: whether the comms teach the thread table */
static TraceEvent *
add_switch (FtraceParser *p,
            TraceBatch *batch,
            const FtraceLine *line,
            gboolean learn,
            const FtraceSwitch *sw)
{
  TraceEvent *ev;

  if (learn && sw->prev_comm.str)
    ftrace_learn_thread (p, batch, line->ts, sw->prev_tid, TRACE_ID_UNKNOWN, sw->prev_comm.str, sw->prev_comm.len,
                         TRUE);
  if (learn && sw->next_comm.str)
    ftrace_learn_thread (p, batch, line->ts, sw->next_tid, TRACE_ID_UNKNOWN, sw->next_comm.str, sw->next_comm.len,
                         TRUE);
  ev = ftrace_emit (p, batch, TRACE_EVENT_SCHED_SWITCH, line);
  ev->u.sched_switch.prev_tid = (gint32) sw->prev_tid;
  ev->u.sched_switch.next_tid = (gint32) sw->next_tid;
  ev->u.sched_switch.prev_prio = sw->prev_prio;
  ev->u.sched_switch.next_prio = sw->next_prio;
  ev->u.sched_switch.prev_state = sw->prev_state;
  ev->u.sched_switch.prev_comm = name_id (p, &sw->prev_comm);
  ev->u.sched_switch.next_comm = name_id (p, &sw->next_comm);
  return ev;
}

/* sched_wakeup, sched_waking, sched_wakeup_new: one layout. Only
 * sched_waking names its wakee, as trace_processor reads it. */
static TraceEvent *
add_wakeup (FtraceParser *p,
            TraceBatch *batch,
            const FtraceLine *line,
            gboolean learn,
            TraceEventKind kind,
            const FtraceWakeup *w)
{
  TraceEvent *ev;

  if (learn && kind == TRACE_EVENT_SCHED_WAKING)
    ftrace_learn_thread (p, batch, line->ts, w->tid, TRACE_ID_UNKNOWN, w->comm.str, w->comm.len, TRUE);
  ev = ftrace_emit (p, batch, kind, line);
  ev->u.wakeup.tid = (gint32) w->tid;
  ev->u.wakeup.comm = name_id (p, &w->comm);
  ev->u.wakeup.prio = w->prio;
  ev->u.wakeup.target_cpu = w->target_cpu;
  ev->u.wakeup.success = w->success;
  return ev;
}

/* sched_process_exit/free, task_newtask, task_rename. A new task is a
 * thread of the writer's process (CLONE_THREAD) or a new process. */
static TraceEvent *
add_task (FtraceParser *p,
          TraceBatch *batch,
          const FtraceLine *line,
          gboolean learn,
          TraceEventKind kind,
          const FtraceTask *t)
{
  TraceEvent *ev;

  if (learn && kind == TRACE_EVENT_TASK_NEWTASK)
    ftrace_learn_thread (p, batch, line->ts, t->tid, (t->clone_flags & TRACE_CLONE_THREAD) ? line->pid : t->tid,
                         t->comm.str, t->comm.len, TRUE);
  else if (learn && kind == TRACE_EVENT_TASK_RENAME && t->comm.str)
    ftrace_learn_thread (p, batch, line->ts, t->tid, TRACE_ID_UNKNOWN, t->comm.str, t->comm.len, TRUE);
  ev = ftrace_emit (p, batch, kind, line);
  ev->u.task.tid = (gint32) t->tid;
  ev->u.task.prio = t->prio;
  ev->u.task.comm = name_id (p, &t->comm);
  ev->u.task.old_comm = name_id (p, &t->old_comm);
  ev->u.task.clone_flags = t->clone_flags;
  if (t->has_oom_score_adj)
    trace_batch_add_arg (batch, ev, trace_string_pool_intern (p->pool, "oom_score_adj"), TRACE_ARG_INT)->v.i =
        t->oom_score_adj;
  return ev;
}

/* cpu_frequency, cpu_idle */
static TraceEvent *
add_cpu (FtraceParser *p,
         TraceBatch *batch,
         const FtraceLine *line,
         TraceEventKind kind,
         const FtraceCpu *c)
{
  TraceEvent *ev = ftrace_emit (p, batch, kind, line);

  ev->u.cpu.cpu_id = c->cpu_id;
  ev->u.cpu.state = c->state;
  return ev;
}

/**
 * ftrace_kernel_event:
 * @p: a parser
 * @batch: where the events go
 * @line: the event's time, place and task, its pid resolved
 * @learn: whether the names the event carries teach the thread table
 * @e: the event
 *
 * Returns: (transfer none): the event of @e's kind, for the caller's args
 */
TraceEvent *
ftrace_kernel_event (FtraceParser *p,
                     TraceBatch *batch,
                     const FtraceLine *line,
                     gboolean learn,
                     const FtraceKernelEvent *e)
{
  switch (e->kind)
    {
    case TRACE_EVENT_SCHED_SWITCH:
      return add_switch (p, batch, line, learn, &e->u.sched_switch);
    case TRACE_EVENT_SCHED_WAKEUP:
    case TRACE_EVENT_SCHED_WAKING:
    case TRACE_EVENT_SCHED_WAKEUP_NEW:
      return add_wakeup (p, batch, line, learn, e->kind, &e->u.wakeup);
    case TRACE_EVENT_SCHED_PROCESS_EXIT:
    case TRACE_EVENT_SCHED_PROCESS_FREE:
    case TRACE_EVENT_TASK_NEWTASK:
    case TRACE_EVENT_TASK_RENAME:
      return add_task (p, batch, line, learn, e->kind, &e->u.task);
    case TRACE_EVENT_CPU_FREQUENCY:
    case TRACE_EVENT_CPU_IDLE:
      return add_cpu (p, batch, line, e->kind, &e->u.cpu);
    default:
      g_return_val_if_reached (NULL);
    }
}

/* A kernel event the event model has no kind for: a TRACE_EVENT_FTRACE
 * event named @event, its fields the caller's to add as args. */
TraceEvent *
ftrace_kernel_generic (FtraceParser *p,
                       TraceBatch *batch,
                       const FtraceLine *line,
                       const FtraceName *event)
{
  guint32 name = name_id (p, event);
  TraceEvent *ev = ftrace_emit (p, batch, TRACE_EVENT_FTRACE, line);

  ev->name = name;
  return ev;
}

/* ------------------------------------------------------- typed records */

/* The record as the parser's line: a LEARN record is counted as a line
 * and, unless it is a marker (whose pid may come from its text), its
 * pid resolved now; a GIVEN record's tgid is its pid. */
static void
begin_record (FtraceParser *p,
              TraceBatch *batch,
              const FtraceRecord *rec,
              FtraceLine *line,
              gboolean marker)
{
  *line = (FtraceLine){ .task = rec->comm ? rec->comm : "",
                        .task_len = rec->comm ? rec->comm_len : 0,
                        .tid = rec->tid,
                        .tgid = rec->tgid,
                        .cpu = rec->cpu,
                        .ts = rec->ts,
                        .pid = rec->tgid };
  if (rec->threads == FTRACE_THREADS_GIVEN)
    return;
  if (p->line_no_set)
    p->line_no_set = FALSE;
  else
    p->line_no++;
  p->stats.lines++;
  p->stats.trace_lines++;
  p->section = FTRACE_SECTION_TEXT;
  p->seen |= FTRACE_SEEN_FTRACE_EVENT;
  p->last_ts = rec->ts;
  line->pid = TRACE_ID_UNKNOWN;
  if (!marker)
    ftrace_resolve_line (p, batch, line, TRACE_ID_UNKNOWN);
}

/**
 * ftrace_parser_add_kernel:
 * @parser: a parser
 * @batch: where the events go
 * @rec: the record's time, place and task
 * @e: the event
 *
 * Adds a kernel event of a kind the event model has (and the
 * THREAD_NAME events a LEARN record's names teach).
 *
 * Returns: (transfer none): the event, for the caller's args
 */
TraceEvent *
ftrace_parser_add_kernel (FtraceParser *p,
                          TraceBatch *batch,
                          const FtraceRecord *rec,
                          const FtraceKernelEvent *e)
{
  FtraceLine line;
  TraceEvent *ev;

  begin_record (p, batch, rec, &line, FALSE);
  ev = ftrace_kernel_event (p, batch, &line, rec->threads == FTRACE_THREADS_LEARN, e);
  if (ev != NULL)
    ev->name = rec->name;
  return ev;
}

/**
 * ftrace_parser_add_print:
 * @parser: a parser
 * @batch: where the events go
 * @rec: the record's time, place and task
 * @buf: the print event's text (not NUL-terminated)
 * @len: its length
 *
 * Reads a print event as ftrace-src reads a `tracing_mark_write` line: an
 * atrace marker becomes its slice, counter or async event, on the
 * parser's begin/end stacks. For a LEARN record, a clock sync becomes its
 * clock marker, and other text, and markers whose fields do not parse,
 * are counted as problems. A GIVEN record's reader keeps all those itself
 * (trace_processor shows a print that is no marker as a print).
 *
 * Returns: whether @buf was read (always, for a LEARN record)
 */
gboolean
ftrace_parser_add_print (FtraceParser *p,
                         TraceBatch *batch,
                         const FtraceRecord *rec,
                         const char *buf,
                         gsize len)
{
  FtraceLine line;

  g_return_val_if_fail (buf != NULL || len == 0, FALSE);

  begin_record (p, batch, rec, &line, TRUE);
  if (rec->threads == FTRACE_THREADS_GIVEN)
    return ftrace_parse_print_marker (p, batch, &line, buf, len);
  ftrace_parse_marker (p, batch, &line, buf, len, FALSE);
  return TRUE;
}

/**
 * ftrace_parser_add_generic:
 * @parser: a parser
 * @batch: where the events go
 * @rec: the record's time, place and task (its name unused)
 * @event: the event's name
 *
 * Adds a kernel event of a kind the event model has none for, as a
 * TRACE_EVENT_FTRACE event named @event; its fields are the caller's to
 * add (ftrace_parser_add_field(), or typed args with keys from
 * ftrace_parser_intern()).
 *
 * Returns: (transfer none): the event
 */
TraceEvent *
ftrace_parser_add_generic (FtraceParser *p,
                           TraceBatch *batch,
                           const FtraceRecord *rec,
                           const FtraceName *event)
{
  FtraceLine line;

  begin_record (p, batch, rec, &line, FALSE);
  return ftrace_kernel_generic (p, batch, &line, event);
}

/**
 * ftrace_parser_add_kernel_text:
 * @parser: a parser
 * @batch: where the events go
 * @rec: the record's time, place and task (a LEARN record)
 * @event: the event's name
 * @event_len: its length
 * @payload: what the kernel prints of the event after `name: `
 * @len: its length
 *
 * Reads a kernel event given as the text the kernel prints of it, as
 * ftrace-src reads that line: the binary sources whose library prints an
 * event with the kernel's own print format (libtraceevent) give the
 * events the model has no kind for so, and get the args ftrace-src gets
 * of the kernel's text (`comm=` for a field named parent_comm, `ret=handled`,
 * `[action=TIMER]`).
 */
void
ftrace_parser_add_kernel_text (FtraceParser *p,
                               TraceBatch *batch,
                               const FtraceRecord *rec,
                               const char *event,
                               gsize event_len,
                               const char *payload,
                               gsize len)
{
  FtraceLine line;

  g_return_if_fail (rec->threads == FTRACE_THREADS_LEARN);

  begin_record (p, batch, rec, &line, FALSE);
  line.event = event;
  line.event_len = event_len;
  line.payload = payload;
  line.payload_len = len;
  ftrace_parse_kernel_event (p, batch, &line);
}

/* A field's value as ftrace prints it, read as the text path reads one
 * (a number is an INT, 0x... a UINT, anything else a STRING). */
void
ftrace_parser_add_field (FtraceParser *p,
                         TraceBatch *batch,
                         TraceEvent *ev,
                         const char *key,
                         gsize key_len,
                         const char *value,
                         gsize value_len)
{
  ftrace_add_value_arg (p, batch, ev, ftrace_intern (p, key, key_len), value, value_len);
}

/* A name interned as the parser interns it (cut, made valid UTF-8). */
guint32
ftrace_parser_intern (FtraceParser *p,
                      const char *s,
                      gsize len)
{
  return ftrace_intern (p, s, len);
}
