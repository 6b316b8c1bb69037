/* tracepipe - the logic of the `clock-sync` element: which offset puts
 * each input on the target clock
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A private module. The element feeds it what it learnt about every input
 * during the look-ahead (declared clock, pad properties, clock markers,
 * first timestamps), calls clock_sync_solver_solve() once, and reads one
 * decision per input. Evidence is weighed in a fixed order of trust (see
 * docs/clocks.md): what a stream says about its own clock, sync-id pairs,
 * explicit clock pairs, pad properties, a guess. Evidence that disagrees
 * with more trusted evidence is kept aside as a conflict, with the reason.
 */
#pragma once

#include <trace/trace.h>

G_BEGIN_DECLS

/**
 * ClockSyncSource:
 * @CLOCK_SYNC_SOURCE_NONE: nothing ties the input to the target clock
 * @CLOCK_SYNC_SOURCE_GUESS: its first timestamps were nearest a known clock
 * @CLOCK_SYNC_SOURCE_OFFSET_PROPERTY: the pad's `offset` property
 * @CLOCK_SYNC_SOURCE_DOMAIN_PROPERTY: the pad's `domain` property
 * @CLOCK_SYNC_SOURCE_REALTIME_TS: an atrace `realtime_ts=` marker
 * @CLOCK_SYNC_SOURCE_PARENT_TS: an atrace `parent_ts=` marker
 * @CLOCK_SYNC_SOURCE_PAIR: an exact pair of clock readings (RheaTrace
 *   `monotonic_time:`, a Perfetto clock snapshot)
 * @CLOCK_SYNC_SOURCE_SYNC_ID: the same sync id marked in two inputs
 * @CLOCK_SYNC_SOURCE_STREAM_START: the clock the stream-start declares
 *
 * Where a link between two clocks comes from; later values are trusted
 * more (see clock_sync_source_trust()).
 */
typedef enum
{
  CLOCK_SYNC_SOURCE_NONE,
  CLOCK_SYNC_SOURCE_GUESS,
  CLOCK_SYNC_SOURCE_OFFSET_PROPERTY,
  CLOCK_SYNC_SOURCE_DOMAIN_PROPERTY,
  CLOCK_SYNC_SOURCE_REALTIME_TS,
  CLOCK_SYNC_SOURCE_PARENT_TS,
  CLOCK_SYNC_SOURCE_PAIR,
  CLOCK_SYNC_SOURCE_SYNC_ID,
  CLOCK_SYNC_SOURCE_STREAM_START,
} ClockSyncSource;

/**
 * ClockSyncDecision:
 * @domain: the clock the input's timestamps are in, as used (declared or
 *   from the `domain` property); %TRACE_CLOCK_UNKNOWN when unknown
 * @offset: nanoseconds added to every timestamp of the input
 * @precision: how far off @offset may be, in ns: the sum of the steps of
 *   the numbers it was computed from (0 for exact)
 * @source: the least trusted link between the input and the target clock
 * @on_target: whether the input is tied to the target clock at all;
 *   %FALSE means it passes through unshifted (or tied only to other
 *   inputs that are not)
 * @guess: whether a guess is part of the chain
 * @via: the chain of links, in words
 */
typedef struct
{
  TraceClockDomain domain;
  gint64 offset;
  gint64 precision;
  ClockSyncSource source;
  gboolean on_target;
  gboolean guess;
  char *via;
} ClockSyncDecision;

/**
 * ClockSyncConflict:
 * @input: the input the ignored evidence belongs to
 * @source: what was ignored
 * @winner: the least trusted link of what was kept instead
 * @disagreement: by how much they disagree, in ns
 * @text: one sentence saying all that
 */
typedef struct
{
  guint input;
  ClockSyncSource source;
  ClockSyncSource winner;
  gint64 disagreement;
  char *text;
} ClockSyncConflict;

/**
 * ClockSyncMarkerResult:
 * @CLOCK_SYNC_MARKER_USED: the marker was taken as evidence
 * @CLOCK_SYNC_MARKER_UNUSABLE: it ties to a clock that is not shared
 *   between inputs (unknown, ftrace local, a counter, a process clock)
 * @CLOCK_SYNC_MARKER_DUPLICATE: a sync id this input already marked
 * @CLOCK_SYNC_MARKER_TOO_MANY: the input already gave the most markers
 *   the solver keeps (%CLOCK_SYNC_MAX_MARKERS)
 */
typedef enum
{
  CLOCK_SYNC_MARKER_USED,
  CLOCK_SYNC_MARKER_UNUSABLE,
  CLOCK_SYNC_MARKER_DUPLICATE,
  CLOCK_SYNC_MARKER_TOO_MANY,
} ClockSyncMarkerResult;

/* Markers kept per input: real captures carry a handful; a stream with
 * thousands must not grow memory. */
#define CLOCK_SYNC_MAX_MARKERS 64

typedef struct _ClockSyncSolver ClockSyncSolver;

const char *clock_sync_source_to_string (ClockSyncSource source);
guint clock_sync_source_trust (ClockSyncSource source);
gboolean clock_sync_domain_is_shared (TraceClockDomain domain);
gint64 clock_sync_parent_ts_precision (gint64 parent_ts);
char *clock_sync_format_duration (gint64 ns,
                                  gboolean sign);

/* Metadata records (names, sort indexes, labels) carry no time: a 0 there
 * means "none", not the clock's origin, and stays 0. */
static inline gboolean
clock_sync_kind_is_untimed (guint kind)
{
  return kind >= TRACE_EVENT_PROCESS_NAME && kind <= TRACE_EVENT_PROCESS_LABEL;
}

void clock_sync_shift_batch (TraceBatch *batch,
                             gint64 offset,
                             TraceClockDomain from,
                             TraceClockDomain to);
gint64 clock_sync_batch_start (TraceBatch *batch);

ClockSyncSolver *clock_sync_solver_new (TraceStringPool *pool,
                                        TraceClockDomain target,
                                        gint64 guess_window);
void clock_sync_solver_free (ClockSyncSolver *solver);

guint clock_sync_solver_add_input (ClockSyncSolver *solver,
                                   const char *name,
                                   TraceClockDomain declared);
void clock_sync_solver_set_declared_domain (ClockSyncSolver *solver,
                                            guint input,
                                            TraceClockDomain declared);
void clock_sync_solver_set_domain_property (ClockSyncSolver *solver,
                                            guint input,
                                            TraceClockDomain domain);
void clock_sync_solver_set_offset_property (ClockSyncSolver *solver,
                                            guint input,
                                            gint64 offset);
void clock_sync_solver_note_ts (ClockSyncSolver *solver,
                                guint input,
                                gint64 ts);
ClockSyncMarkerResult clock_sync_solver_add_marker (ClockSyncSolver *solver,
                                                    guint input,
                                                    const TraceEvent *marker);

void clock_sync_solver_solve (ClockSyncSolver *solver);
const ClockSyncDecision *clock_sync_solver_get_decision (ClockSyncSolver *solver,
                                                         guint input);
GPtrArray *clock_sync_solver_get_conflicts (ClockSyncSolver *solver);
char *clock_sync_solver_check_late_marker (ClockSyncSolver *solver,
                                           guint input,
                                           const TraceEvent *marker);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClockSyncSolver, clock_sync_solver_free)

G_END_DECLS
