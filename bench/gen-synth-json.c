/* tracepipe - the benchmark's input generator: the plain Chrome JSON input
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gen-synth.h"

/* ------------------------------------------------------------------ json */

/* Chrome's own exporter order: pid, tid, ts, ph, cat, name, args, dur. */

#define JSON_START_US G_GUINT64_CONSTANT (352187043)

typedef struct
{
  Rng rng;
  Thread threads[N_THREADS];
  char *names[N_SLICE_NAMES]; /* JSON-escaped */
  gsize name_lens[N_SLICE_NAMES];
  guint64 ts_us;
  guint64 close_cost;
  guint64 events;
} ChromeJson;

/* ',\n{"pid":612,"tid":612,"ts":352187044.123,"ph":"B",' */
static inline char *
json_put_head (char *p,
               const Thread *th,
               guint64 ts_us,
               guint frac,
               char ph)
{
  p = put_lit (p, ",\n{\"pid\":");
  p = put_uint (p, (guint64) th->tgid);
  p = put_lit (p, ",\"tid\":");
  p = put_uint (p, (guint64) th->tid);
  p = put_lit (p, ",\"ts\":");
  p = put_uint (p, ts_us);
  *p++ = '.';
  p = put_uint_pad (p, frac, 3, '0');
  p = put_lit (p, ",\"ph\":\"");
  *p++ = ph;
  return put_lit (p, "\",\"cat\":\"");
}

static inline char *
json_put_name (char *p,
               const ChromeJson *cj,
               guint name)
{
  p = put_lit (p, "\",\"name\":\"");
  p = put_mem (p, cj->names[name], cj->name_lens[name]);
  *p++ = '"';
  return p;
}

/* The E event closing a slice: same category and name as its B. */
static char *
json_put_end (char *p,
              const ChromeJson *cj,
              const Thread *th,
              guint64 ts_us,
              guint frac,
              guint8 slot)
{
  p = json_put_head (p, th, ts_us, frac, 'E');
  p = put_str (p, categories[slot >> 5]);
  p = json_put_name (p, cj, slot & 31);
  *p++ = '}';
  return p;
}

/* Bytes json_put_end() will write for @slot, with today's ts width. */
static guint64
json_end_len (const ChromeJson *cj,
              const Thread *th,
              guint8 slot)
{
  guint64 len = sizeof (",\n{\"pid\":,\"tid\":,\"ts\":.000,\"ph\":\"E\",\"cat\":\"\",\"name\":\"\"}") - 1;

  len += (guint64) count_digits ((guint64) th->tgid);
  len += (guint64) count_digits ((guint64) th->tid);
  len += (guint64) count_digits (cj->ts_us);
  return len + strlen (categories[slot >> 5]) + cj->name_lens[slot & 31];
}

static char *
json_slice (ChromeJson *cj,
            char *p,
            Thread *th,
            guint frac,
            gboolean want_begin)
{
  if (th->depth >= MAX_DEPTH)
    want_begin = FALSE;
  else if (th->depth == 0)
    want_begin = TRUE;

  if (want_begin)
    {
      guint name = rng_below (&cj->rng, N_SLICE_NAMES);
      guint cat = rng_below (&cj->rng, N_CATEGORIES);
      /* One byte holds both: category in bits 5-6, name in bits 0-4. */
      guint8 slot = (guint8) (cat << 5 | name);

      th->stack[th->depth++] = slot;
      cj->close_cost += json_end_len (cj, th, slot);
      p = json_put_head (p, th, cj->ts_us, frac, 'B');
      p = put_str (p, categories[cat]);
      p = json_put_name (p, cj, name);
      p = put_lit (p, ",\"args\":{\"seq\":");
      p = put_uint (p, cj->events);
      return put_lit (p, "}}");
    }
  th->depth--;
  cj->close_cost -= json_end_len (cj, th, th->stack[th->depth]);
  return json_put_end (p, cj, th, cj->ts_us, frac, th->stack[th->depth]);
}

/* A complete slice of 1 to 40 µs, fractional; the thread emits nothing
 * else until it has ended, so it is always a leaf.
 */
static char *
json_complete (ChromeJson *cj,
               char *p,
               Thread *th,
               guint frac)
{
  guint dur_ns = 1000 + rng_below (&cj->rng, 39000);

  th->busy_until_us = cj->ts_us + (frac + dur_ns) / 1000 + 2;
  p = json_put_head (p, th, cj->ts_us, frac, 'X');
  p = put_str (p, categories[rng_below (&cj->rng, N_CATEGORIES)]);
  p = json_put_name (p, cj, rng_below (&cj->rng, N_SLICE_NAMES));
  p = put_lit (p, ",\"args\":{\"n\":");
  p = put_uint (p, rng_below (&cj->rng, 100));
  p = put_lit (p, "},\"dur\":");
  p = put_uint (p, dur_ns / 1000);
  *p++ = '.';
  p = put_uint_pad (p, dur_ns % 1000, 3, '0');
  *p++ = '}';
  return p;
}

static char *
json_counter (ChromeJson *cj,
              char *p,
              const Thread *th,
              guint frac)
{
  p = json_put_head (p, th, cj->ts_us, frac, 'C');
  p = put_str (p, categories[0]);
  p = put_lit (p, "\",\"name\":\"");
  p = put_str (p, counter_names[rng_below (&cj->rng, N_COUNTER_NAMES)]);
  p = put_lit (p, "\",\"args\":{\"value\":");
  p = put_uint (p, rng_below (&cj->rng, 100000));
  return put_lit (p, "}}");
}

/* One event: 70 % B/E (half wanting to begin), 18 % X, 12 % counter; a
 * thread inside an X slice gets a counter instead.
 */
static char *
json_event (ChromeJson *cj,
            char *p)
{
  guint r, frac;
  Thread *th;

  cj->ts_us += 1 + rng_below (&cj->rng, 12);
  frac = rng_below (&cj->rng, 1000);
  r = rng_below (&cj->rng, 100);
  th = &cj->threads[rng_below (&cj->rng, N_THREADS)];
  cj->events++;
  if (th->busy_until_us > cj->ts_us)
    r = 95;
  if (r < 70)
    return json_slice (cj, p, th, frac, r < 35);
  if (r < 88)
    return json_complete (cj, p, th, frac);
  return json_counter (cj, p, th, frac);
}

static char *
json_put_metadata (char *p,
                   const Thread *th,
                   const char *what,
                   const char *name,
                   gboolean first)
{
  p = first ? put_lit (p, "[\n{\"pid\":") : put_lit (p, ",\n{\"pid\":");
  p = put_uint (p, (guint64) th->tgid);
  p = put_lit (p, ",\"tid\":");
  p = put_uint (p, (guint64) th->tid);
  p = put_lit (p, ",\"ph\":\"M\",\"cat\":\"__metadata\",\"name\":\"");
  p = put_str (p, what);
  p = put_lit (p, "\",\"args\":{\"name\":\"");
  p = put_str (p, name);
  return put_lit (p, "\"}}");
}

static void
json_write_metadata (ChromeJson *cj,
                     Output *out)
{
  for (int t = 0; t < N_THREADS; t++)
    {
      const Thread *th = &cj->threads[t];
      char *p = output_line_begin (out);

      if (th->tid == th->tgid)
        {
          p = json_put_metadata (p, th, "process_name", th->comm, t == 0);
          cj->events++;
        }
      p = json_put_metadata (p, th, "thread_name", th->comm, FALSE);
      cj->events++;
      output_line_end (out, p);
    }
}

static void
json_close_all (ChromeJson *cj,
                Output *out)
{
  char *p;

  /* Past the end of any X slice still running. */
  cj->ts_us += 100;
  for (int t = 0; t < N_THREADS; t++)
    {
      Thread *th = &cj->threads[t];

      while (th->depth > 0)
        {
          p = output_line_begin (out);
          cj->ts_us++;
          th->depth--;
          cj->events++;
          p = json_put_end (p, cj, th, cj->ts_us, rng_below (&cj->rng, 1000),
                            th->stack[th->depth]);
          output_line_end (out, p);
        }
    }
  p = output_line_begin (out);
  output_line_end (out, put_lit (p, "\n]\n"));
}

/* Returns the number of events written. */
guint64
gen_json (Output *out,
          guint64 target,
          guint64 seed)
{
  g_autofree ChromeJson *cj = g_new0 (ChromeJson, 1);
  char *p;

  G_STATIC_ASSERT (N_SLICE_NAMES <= 32 && N_CATEGORIES <= 4);
  rng_init (&cj->rng, seed);
  threads_init (cj->threads);
  for (guint i = 0; i < N_SLICE_NAMES; i++)
    {
      cj->names[i] = json_escape (slice_names[i]);
      cj->name_lens[i] = strlen (cj->names[i]);
    }
  cj->ts_us = JSON_START_US;

  json_write_metadata (cj, out);
  /* The closing events and "\n]\n" must fit in the target too. */
  while (out->total + cj->close_cost + 3 < target && !out->error)
    {
      p = output_line_begin (out);
      output_line_end (out, json_event (cj, p));
    }
  json_close_all (cj, out);
  for (guint i = 0; i < N_SLICE_NAMES; i++)
    g_free (cj->names[i]);
  return cj->events;
}
