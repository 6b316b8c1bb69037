/* tracepipe - Perfetto reader: timestamps on other clocks
 *
 * A packet may be timestamped on any clock: a builtin one (MONOTONIC,
 * REALTIME, …), a sequence's own (ids 64 to 127, which the Perfetto SDK
 * and Chrome use, often incremental: each timestamp a delta on the last,
 * in units of unit_multiplier_ns) or a global custom one (128 and up).
 * ClockSnapshot packets give the value of several clocks at one instant.
 * trace_processor puts every timestamp on the trace's clock through them;
 * so does this reader, for clocks a snapshot ties to the stream's clock
 * directly (the snapshots traced and the SDK write do): the value is moved
 * by the difference of the two clocks at the last snapshot at or before
 * it on its own clock (the first snapshot for one before them all), as
 * trace_processor's ClockTracker does.
 *
 * What it cannot put on the stream's clock (a clock no snapshot ties to
 * it directly) is kept as it is and counted (`other_clock`).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-reader-private.h"

/* Sequence-scoped clock ids, as Perfetto reserves them. */
#define SEQUENCE_CLOCK_FIRST 64
#define SEQUENCE_CLOCK_LAST 127

/* Bounds on what a damaged or hostile trace can make this keep: clocks
 * past the first ones are not tied, snapshots past a clock's first ones
 * are not kept (the last kept one then moves later values). */
#define MAX_CLOCKS 1024
#define MAX_PAIRS_PER_CLOCK 65536

typedef struct
{
  gint64 own_ns;    /* the clock's value, in ns */
  gint64 stream_ns; /* the stream clock's at the same instant */
} ClockPair;

struct _PerfettoClock
{
  gint64 multiplier; /* ns per unit */
  gboolean incremental;
  gint64 last_ns; /* an incremental clock's running value */
  GArray *pairs;  /* ClockPair, in snapshot order */
};

static void
clock_free (gpointer data)
{
  PerfettoClock *c = data;

  g_array_unref (c->pairs);
  g_free (c);
}

GHashTable *
perfetto_clocks_new (void)
{
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, clock_free);
}

/* Clock ids 64 to 127 are the sequence's own: keyed with it. */
static gint64
clock_key (guint32 clock_id,
           guint32 sequence)
{
  if (clock_id >= SEQUENCE_CLOCK_FIRST && clock_id <= SEQUENCE_CLOCK_LAST)
    return ((gint64) sequence << 32) | clock_id;
  return clock_id;
}

static PerfettoClock *
clock_get (PerfettoReader *r,
           gint64 key,
           const Perfetto__Protos__ClockSnapshot__Clock *c)
{
  PerfettoClock *clock = g_hash_table_lookup (r->clocks, &key);

  if (clock != NULL || g_hash_table_size (r->clocks) >= MAX_CLOCKS)
    return clock;
  clock = g_new0 (PerfettoClock, 1);
  clock->multiplier = c->has_unit_multiplier_ns && c->unit_multiplier_ns > 0 &&
                              c->unit_multiplier_ns <= G_MAXINT32
                          ? (gint64) c->unit_multiplier_ns
                          : 1;
  /* only a sequence's own clock may be incremental */
  clock->incremental = c->has_is_incremental && c->is_incremental && key > G_MAXUINT32;
  clock->pairs = g_array_new (FALSE, FALSE, sizeof (ClockPair));
  g_hash_table_insert (r->clocks, g_memdup2 (&key, sizeof key), clock);
  return clock;
}

/* @value units of @clock in ns, saturated */
static gint64
to_ns (const PerfettoClock *clock,
       guint64 value)
{
  gint64 v = (gint64) MIN (value, (guint64) G_MAXINT64);

  if (v > G_MAXINT64 / clock->multiplier)
    return G_MAXINT64;
  return v * clock->multiplier;
}

/**
 * perfetto_reader_clock_snapshot:
 * @r: a #PerfettoReader
 * @snap: a ClockSnapshot that is no header
 * @sequence: its packet's sequence
 *
 * Ties each of @snap's clocks to the stream's clock, when @snap holds the
 * stream's clock, and sets the running value of incremental clocks.
 *
 * Returns: how many clocks it tied
 */
guint
perfetto_reader_clock_snapshot (PerfettoReader *r,
                                const Perfetto__Protos__ClockSnapshot *snap,
                                guint32 sequence)
{
  gboolean have_stream = FALSE;
  gint64 stream_ns = 0;
  guint tied = 0;

  for (gsize i = 0; i < snap->n_clocks; i++)
    if (snap->clocks[i]->clock_id == r->stream_clock && !have_stream)
      {
        have_stream = TRUE;
        stream_ns = (gint64) MIN (snap->clocks[i]->timestamp, (guint64) G_MAXINT64);
      }
  for (gsize i = 0; i < snap->n_clocks; i++)
    {
      const Perfetto__Protos__ClockSnapshot__Clock *c = snap->clocks[i];
      PerfettoClock *clock;
      ClockPair pair;

      if (c->clock_id == r->stream_clock || c->clock_id == 0)
        continue;
      if ((clock = clock_get (r, clock_key (c->clock_id, sequence), c)) == NULL)
        {
          perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "clock past the clocks a trace may tie");
          continue;
        }
      pair.own_ns = to_ns (clock, c->timestamp);
      clock->last_ns = pair.own_ns;
      if (!have_stream || clock->pairs->len >= MAX_PAIRS_PER_CLOCK)
        continue;
      pair.stream_ns = stream_ns;
      g_array_append_val (clock->pairs, pair);
      tied++;
    }
  return tied;
}

/* The pair to move @ns by: the last at or before it, else the first. */
static const ClockPair *
pair_for (const PerfettoClock *clock,
          gint64 ns)
{
  const ClockPair *pairs = (const ClockPair *) (gpointer) clock->pairs->data;
  guint lo = 0, hi = clock->pairs->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (pairs[mid].own_ns <= ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return &pairs[lo > 0 ? lo - 1 : 0];
}

/**
 * perfetto_reader_convert_time:
 * @r: a #PerfettoReader
 * @clock_id: the clock @value is on (not the stream's)
 * @sequence: the packet's sequence
 * @value: the packet's timestamp
 * @ts: (out): @value on the stream's clock, or as it is
 *
 * Returns: whether @value could be put on the stream's clock
 */
gboolean
perfetto_reader_convert_time (PerfettoReader *r,
                              guint32 clock_id,
                              guint32 sequence,
                              guint64 value,
                              gint64 *ts)
{
  gint64 key = clock_key (clock_id, sequence);
  PerfettoClock *clock = g_hash_table_lookup (r->clocks, &key);
  const ClockPair *pair;
  gint64 ns;

  if (clock == NULL)
    {
      *ts = (gint64) MIN (value, (guint64) G_MAXINT64);
      return FALSE;
    }
  ns = to_ns (clock, value);
  if (clock->incremental)
    ns = clock->last_ns = trace_time_add_saturated (clock->last_ns, ns);
  if (clock->pairs->len == 0)
    {
      *ts = ns;
      return FALSE;
    }
  pair = pair_for (clock, ns);
  /* stream_ns + (ns - own_ns), in two steps that cannot overflow alone */
  *ts = trace_time_add_saturated (pair->stream_ns, trace_time_add_saturated (ns, -MAX (pair->own_ns, -G_MAXINT64)));
  return TRUE;
}
