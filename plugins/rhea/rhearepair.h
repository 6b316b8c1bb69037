/* tracepipe - the logic of the `rhea-repair` element
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Turns RheaTrace method markers (`B:` entry, `E:` return, `T:` throw,
 * all written as slice begins) into balanced slice begin/end pairs per
 * thread, and repairs any unbalanced slice stream: frames an exception
 * unwound are closed at the last time known inside them, unmatched ends
 * are dropped, slices open at EOS are closed at the thread's last time.
 * A private module: the element calls rhea_repair_process() on every
 * writable batch and rhea_repair_drain() at EOS.  See docs/rhea-repair.md.
 */
#pragma once

#include <trace/trace.h>

G_BEGIN_DECLS

/**
 * RheaMarkerEnds:
 * @RHEA_MARKER_ENDS_AUTO: decide from the stream: the first `B:` marker
 *   directly followed (on its thread) by a plain end says they are present
 * @RHEA_MARKER_ENDS_PRESENT: every marker is followed by a plain end of
 *   its own (captures where the app also called `endSection()`)
 * @RHEA_MARKER_ENDS_ABSENT: markers have no end of their own (btrace's
 *   raw `rhea-atrace` files)
 */
typedef enum
{
  RHEA_MARKER_ENDS_AUTO,
  RHEA_MARKER_ENDS_PRESENT,
  RHEA_MARKER_ENDS_ABSENT,
} RheaMarkerEnds;

/**
 * RheaRepairStats:
 * @events_in: events given to the repair
 * @events_out: events passed on (synthesized ones included)
 * @methods: `B:` markers (method entries)
 * @returns: `E:` markers that closed their method
 * @throws: methods ended by their own `T:` (arg `repair=exited-by-throw`)
 * @throws_caught: `T:` markers whose method went on (a later `E:` or `T:`
 *   of the same frame): the throw was caught inside it
 * @unwound: method frames closed because an exception unwound them (arg
 *   `repair=unwound-by-exception`)
 * @missing_ends: plain slices closed because an enclosing slice ended
 *   (arg `repair=missing-end`)
 * @closed_at_eos: slices still open at EOS (arg `repair=closed-at-eos`)
 * @unmatched_returns: `E:` markers with no open frame of that method, dropped
 * @unmatched_throws: `T:` markers with no open frame of that method, dropped
 * @unmatched_ends: plain ends with no open plain slice, dropped
 * @marker_ends: plain ends that closed a marker's own begin, dropped
 * @crash_tagged: slices renamed `… : CrashTag`
 * @hold_overflows: throws decided at the hold limit: nothing below the
 *   thrower said it caught the exception, so it was taken to have escaped
 *   every instrumented frame (with crash-tag, also holds released at the
 *   limit without a throw)
 * @too_deep: slice begins dropped because their thread's stack was
 *   already %RHEA_REPAIR_MAX_DEPTH deep (with their ends)
 * @max_depth: the deepest stack seen
 * @max_held: the most events held for one thread at once
 */
typedef struct
{
  guint64 events_in;
  guint64 events_out;
  guint64 methods;
  guint64 returns;
  guint64 throws;
  guint64 throws_caught;
  guint64 unwound;
  guint64 missing_ends;
  guint64 closed_at_eos;
  guint64 unmatched_returns;
  guint64 unmatched_throws;
  guint64 unmatched_ends;
  guint64 marker_ends;
  guint64 crash_tagged;
  guint64 hold_overflows;
  guint64 too_deep;
  guint max_depth;
  guint max_held;
} RheaRepairStats;

#define RHEA_REPAIR_DEFAULT_MAX_HOLD 65536
/* Deeper than any real call stack: a stream of begins without ends must
 * not grow memory without bound. */
#define RHEA_REPAIR_MAX_DEPTH 10000

typedef struct _RheaRepair RheaRepair;

RheaRepair *rhea_repair_new (TraceStringPool *pool);
void rhea_repair_free (RheaRepair *repair);

void rhea_repair_set_markers (RheaRepair *repair,
                              gboolean markers);
void rhea_repair_set_marker_ends (RheaRepair *repair,
                                  RheaMarkerEnds marker_ends);
void rhea_repair_set_crash_tag (RheaRepair *repair,
                                gboolean crash_tag);
void rhea_repair_set_max_hold (RheaRepair *repair,
                               guint max_events);

void rhea_repair_process (RheaRepair *repair,
                          TraceBatch *batch);
TraceBatch *rhea_repair_drain (RheaRepair *repair);

void rhea_repair_get_stats (RheaRepair *repair,
                            RheaRepairStats *stats);
char *rhea_repair_stats_to_string (const RheaRepairStats *stats);
char *rhea_repair_get_summary (RheaRepair *repair);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RheaRepair, rhea_repair_free)

G_END_DECLS
