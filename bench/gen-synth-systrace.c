/* tracepipe - the benchmark's input generator: the systrace (ftrace text) input
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gen-synth.h"

/* ------------------------------------------------------------- systrace */

static const char systrace_header[] =
    "# tracer: nop\n"
    "#\n"
    "# entries-in-buffer/entries-written: 0/0   #P:8\n"
    "#\n"
    "#                                      _-----=> irqs-off\n"
    "#                                     / _----=> need-resched\n"
    "#                                    | / _---=> hardirq/softirq\n"
    "#                                    || / _--=> preempt-depth\n"
    "#                                    ||| /     delay\n"
    "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
    "#              | |        |      |   ||||       |         |\n";

/* About four days of uptime, in microseconds. */
#define SYSTRACE_START_US G_GUINT64_CONSTANT (354621087413)

typedef struct
{
  Rng rng;
  Thread threads[N_THREADS];
  int on_cpu[N_CPUS]; /* thread index, or -1 for the idle task */
  guint64 ts_us;
  const char *wakeup_event;
  guint64 close_cost; /* bytes of the E lines still owed to open slices */
  guint64 events;
} Systrace;

/* "[003] d..3 354621.087413: " */
static inline char *
put_cpu_flags_ts (char *p,
                  int cpu,
                  const char *flags,
                  guint64 ts_us)
{
  *p++ = '[';
  p = put_uint_pad (p, (guint64) cpu, 3, '0');
  p = put_lit (p, "] ");
  p = put_mem (p, flags, 4);
  *p++ = ' ';
  p = put_uint (p, ts_us / 1000000);
  *p++ = '.';
  p = put_uint_pad (p, ts_us % 1000000, 6, '0');
  return put_lit (p, ": ");
}

static inline char *
put_task (char *p,
          const Thread *th,
          int cpu,
          const char *flags,
          guint64 ts_us)
{
  p = put_mem (p, th->prefix, th->prefix_len);
  return put_cpu_flags_ts (p, cpu, flags, ts_us);
}

/* Length of the "E|tgid" line that will close a slice of @th. */
static guint64
systrace_end_line_len (const Systrace *st,
                       const Thread *th)
{
  guint64 len = th->prefix_len;

  len += sizeof "[000] .... " - 1;
  len += (guint64) count_digits (st->ts_us / 1000000) + sizeof ".000000: " - 1;
  len += sizeof "tracing_mark_write: E|" - 1;
  return len + (guint64) count_digits ((guint64) th->tgid) + 1;
}

static int
systrace_pick_next (Systrace *st)
{
  int next;

  /* Never a thread already running on some CPU (8 of 50 at most). */
  do
    next = (int) rng_below (&st->rng, N_THREADS);
  while (st->threads[next].running);
  return next;
}

static char *
systrace_switch (Systrace *st,
                 char *p,
                 int cpu)
{
  int prev = st->on_cpu[cpu];
  int next = systrace_pick_next (st);

  if (rng_below (&st->rng, 10) == 0)
    next = -1; /* the CPU goes idle */

  if (prev < 0)
    {
      p = put_lit (p, "          <idle>-0     (-----) ");
      p = put_cpu_flags_ts (p, cpu, "d..3", st->ts_us);
      p = put_lit (p, "sched_switch: prev_comm=swapper/");
      p = put_uint (p, (guint64) cpu);
      p = put_lit (p, " prev_pid=0 prev_prio=120 prev_state=R");
    }
  else
    {
      const Thread *th = &st->threads[prev];
      p = put_task (p, th, cpu, "d..3", st->ts_us);
      p = put_lit (p, "sched_switch: prev_comm=");
      p = put_str (p, th->comm);
      p = put_lit (p, " prev_pid=");
      p = put_uint (p, (guint64) th->tid);
      p = put_lit (p, " prev_prio=");
      p = put_uint (p, (guint64) th->prio);
      p = put_lit (p, " prev_state=");
      p = put_str (p, prev_states[rng_below (&st->rng, G_N_ELEMENTS (prev_states))]);
      st->threads[prev].running = FALSE;
    }

  if (next < 0)
    {
      p = put_lit (p, " ==> next_comm=swapper/");
      p = put_uint (p, (guint64) cpu);
      p = put_lit (p, " next_pid=0 next_prio=120\n");
    }
  else
    {
      const Thread *th = &st->threads[next];
      p = put_lit (p, " ==> next_comm=");
      p = put_str (p, th->comm);
      p = put_lit (p, " next_pid=");
      p = put_uint (p, (guint64) th->tid);
      p = put_lit (p, " next_prio=");
      p = put_uint (p, (guint64) th->prio);
      *p++ = '\n';
      st->threads[next].running = TRUE;
    }
  st->on_cpu[cpu] = next;
  return p;
}

static char *
systrace_wakeup (Systrace *st,
                 char *p,
                 int cpu)
{
  const Thread *waker = &st->threads[rng_below (&st->rng, N_THREADS)];
  const Thread *wakee = &st->threads[rng_below (&st->rng, N_THREADS)];

  p = put_task (p, waker, cpu, "d..4", st->ts_us);
  p = put_str (p, st->wakeup_event);
  p = put_lit (p, ": comm=");
  p = put_str (p, wakee->comm);
  p = put_lit (p, " pid=");
  p = put_uint (p, (guint64) wakee->tid);
  p = put_lit (p, " prio=");
  p = put_uint (p, (guint64) wakee->prio);
  p = put_lit (p, " target_cpu=");
  p = put_uint_pad (p, rng_below (&st->rng, N_CPUS), 3, '0');
  *p++ = '\n';
  return p;
}

static char *
systrace_slice (Systrace *st,
                char *p,
                int cpu,
                gboolean want_begin)
{
  Thread *th = &st->threads[rng_below (&st->rng, N_THREADS)];

  if (th->depth >= MAX_DEPTH)
    want_begin = FALSE;
  else if (th->depth == 0)
    want_begin = TRUE;

  p = put_task (p, th, cpu, "....", st->ts_us);
  p = put_lit (p, "tracing_mark_write: ");
  if (want_begin)
    {
      guint name = rng_below (&st->rng, N_SLICE_NAMES);
      th->stack[th->depth++] = (guint8) name;
      st->close_cost += systrace_end_line_len (st, th);
      p = put_lit (p, "B|");
      p = put_uint (p, (guint64) th->tgid);
      *p++ = '|';
      p = put_str (p, slice_names[name]);
    }
  else
    {
      th->depth--;
      st->close_cost -= systrace_end_line_len (st, th);
      p = put_lit (p, "E|");
      p = put_uint (p, (guint64) th->tgid);
    }
  *p++ = '\n';
  return p;
}

static char *
systrace_counter (Systrace *st,
                  char *p,
                  int cpu)
{
  const Thread *th = &st->threads[rng_below (&st->rng, N_THREADS)];

  p = put_task (p, th, cpu, "....", st->ts_us);
  p = put_lit (p, "tracing_mark_write: C|");
  p = put_uint (p, (guint64) th->tgid);
  *p++ = '|';
  p = put_str (p, counter_names[rng_below (&st->rng, N_COUNTER_NAMES)]);
  *p++ = '|';
  p = put_uint (p, rng_below (&st->rng, 1000));
  *p++ = '\n';
  return p;
}

/* One line: 20 % sched_switch, 10 % wakeup, 60 % B/E (begin favoured
 * until MAX_DEPTH), 10 % counter.
 */
static char *
systrace_event (Systrace *st,
                char *p)
{
  guint r, cpu;

  st->ts_us += 1 + rng_below (&st->rng, 20);
  r = rng_below (&st->rng, 100);
  cpu = rng_below (&st->rng, N_CPUS);
  st->events++;
  if (r < 20)
    return systrace_switch (st, p, (int) cpu);
  if (r < 30)
    return systrace_wakeup (st, p, (int) cpu);
  if (r < 90)
    return systrace_slice (st, p, (int) cpu, r < 60);
  return systrace_counter (st, p, (int) cpu);
}

static void
systrace_close_all (Systrace *st,
                    Output *out)
{
  for (int t = 0; t < N_THREADS; t++)
    {
      Thread *th = &st->threads[t];

      while (th->depth > 0)
        {
          char *p = output_line_begin (out);

          st->ts_us++;
          th->depth--;
          st->events++;
          p = put_task (p, th, (int) rng_below (&st->rng, N_CPUS), "....", st->ts_us);
          p = put_lit (p, "tracing_mark_write: E|");
          p = put_uint (p, (guint64) th->tgid);
          *p++ = '\n';
          output_line_end (out, p);
        }
    }
}

/* Returns the number of events written. */
guint64
gen_systrace (Output *out,
              guint64 target,
              guint64 seed,
              gboolean waking)
{
  g_autofree Systrace *st = g_new0 (Systrace, 1);
  char *p;

  rng_init (&st->rng, seed);
  threads_init (st->threads);
  for (int c = 0; c < N_CPUS; c++)
    st->on_cpu[c] = -1;
  st->ts_us = SYSTRACE_START_US;
  st->wakeup_event = waking ? "sched_waking" : "sched_wakeup";

  p = output_line_begin (out);
  output_line_end (out, put_lit (p, systrace_header));

  /* Stop early enough that the closing E lines land on the target. */
  while (out->total + st->close_cost < target && !out->error)
    {
      p = output_line_begin (out);
      output_line_end (out, systrace_event (st, p));
    }
  systrace_close_all (st, out);
  return st->events;
}
