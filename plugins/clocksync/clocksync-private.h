/* tracepipe - clock-sync: the element, its pads and the solver that
 * decides which offset puts each input on the target clock
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The one private header of the plugin.  The element (traceclocksync.c,
 * its request pads in traceclocksyncpad.c, the decision in
 * clocksync-decide.c) feeds the solver (clocksync-solver.c,
 * clocksync-report.c; clocksync-shift.c moves batches) what it learnt
 * about every input what it learnt about every input
 * during the look-ahead (declared clock, pad properties, clock markers,
 * first timestamps), calls clocksync_solver_solve() once, and reads one
 * decision per input. Evidence is weighed in a fixed order of trust (see
 * docs/clocks.md): what a stream says about its own clock, sync-id pairs,
 * explicit clock pairs, pad properties, a guess. Evidence that disagrees
 * with more trusted evidence is kept aside as a conflict, with the reason.
 */
#pragma once

#include <trace/trace.h>

G_BEGIN_DECLS

/**
 * ClocksyncSource:
 * @CLOCKSYNC_SOURCE_NONE: nothing ties the input to the target clock
 * @CLOCKSYNC_SOURCE_GUESS: its first timestamps were nearest a known clock
 * @CLOCKSYNC_SOURCE_OFFSET_PROPERTY: the pad's `offset` property
 * @CLOCKSYNC_SOURCE_DOMAIN_PROPERTY: the pad's `domain` property
 * @CLOCKSYNC_SOURCE_REALTIME_TS: an atrace `realtime_ts=` marker
 * @CLOCKSYNC_SOURCE_PARENT_TS: an atrace `parent_ts=` marker
 * @CLOCKSYNC_SOURCE_PAIR: an exact pair of clock readings (RheaTrace
 *   `monotonic_time:`, a Perfetto clock snapshot)
 * @CLOCKSYNC_SOURCE_SYNC_ID: the same sync id marked in two inputs
 * @CLOCKSYNC_SOURCE_STREAM_START: the clock the stream-start declares
 *
 * Where a link between two clocks comes from; later values are trusted
 * more (see clocksync_source_trust()).
 */
typedef enum
{
  CLOCKSYNC_SOURCE_NONE,
  CLOCKSYNC_SOURCE_GUESS,
  CLOCKSYNC_SOURCE_OFFSET_PROPERTY,
  CLOCKSYNC_SOURCE_DOMAIN_PROPERTY,
  CLOCKSYNC_SOURCE_REALTIME_TS,
  CLOCKSYNC_SOURCE_PARENT_TS,
  CLOCKSYNC_SOURCE_PAIR,
  CLOCKSYNC_SOURCE_SYNC_ID,
  CLOCKSYNC_SOURCE_STREAM_START,
} ClocksyncSource;

/**
 * ClocksyncDecision:
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
  ClocksyncSource source;
  gboolean on_target;
  gboolean guess;
  char *via;
} ClocksyncDecision;

/**
 * ClocksyncConflict:
 * @input: the input the ignored evidence belongs to
 * @source: what was ignored
 * @winner: the least trusted link of what was kept instead
 * @disagreement: by how much they disagree, in ns
 * @text: one sentence saying all that
 */
typedef struct
{
  guint input;
  ClocksyncSource source;
  ClocksyncSource winner;
  gint64 disagreement;
  char *text;
} ClocksyncConflict;

/**
 * ClocksyncMarkerResult:
 * @CLOCKSYNC_MARKER_USED: the marker was taken as evidence
 * @CLOCKSYNC_MARKER_UNUSABLE: it ties to a clock that is not shared
 *   between inputs (unknown, ftrace local, a counter, a process clock)
 * @CLOCKSYNC_MARKER_DUPLICATE: a sync id this input already marked
 * @CLOCKSYNC_MARKER_TOO_MANY: the input already gave the most markers
 *   the solver keeps (%CLOCKSYNC_MAX_MARKERS)
 */
typedef enum
{
  CLOCKSYNC_MARKER_USED,
  CLOCKSYNC_MARKER_UNUSABLE,
  CLOCKSYNC_MARKER_DUPLICATE,
  CLOCKSYNC_MARKER_TOO_MANY,
} ClocksyncMarkerResult;

/* Markers kept per input: real captures carry a handful; a stream with
 * thousands must not grow memory. */
#define CLOCKSYNC_MAX_MARKERS 64

/**
 * ClocksyncOptions:
 * @target: the clock of the output
 * @lookahead: batches held per input while looking for clock markers
 * @guess_window: how near (ns) an input's first timestamp must be to a
 *   known reading of a clock to be guessed to run on it; negative: never
 *
 * The `clock-sync` properties, stored once: the element keeps one and its
 * properties read and write it; the solver takes it at creation.
 */
typedef struct
{
  TraceClockDomain target;
  guint lookahead;
  gint64 guess_window;
} ClocksyncOptions;

typedef struct _ClocksyncSolver ClocksyncSolver;

const char *clocksync_source_to_string (ClocksyncSource source);
guint clocksync_source_trust (ClocksyncSource source);
gboolean clocksync_domain_is_shared (TraceClockDomain domain);
gint64 clocksync_parent_ts_precision (gint64 parent_ts);
char *clocksync_format_duration (gint64 ns,
                                 gboolean sign);

/* Metadata records (names, sort indexes, labels) carry no time: a 0 there
 * means "none", not the clock's origin, and stays 0. */
static inline gboolean
clocksync_kind_is_untimed (guint kind)
{
  return kind >= TRACE_EVENT_PROCESS_NAME && kind <= TRACE_EVENT_PROCESS_LABEL;
}

void clocksync_shift_batch (TraceBatch *batch,
                            gint64 offset,
                            TraceClockDomain from,
                            TraceClockDomain to);
gint64 clocksync_batch_start (TraceBatch *batch);

ClocksyncSolver *clocksync_solver_new (TraceStringPool *pool,
                                       TraceClockDomain target,
                                       gint64 guess_window);
ClocksyncSolver *clocksync_solver_new_with_options (TraceStringPool *pool,
                                                    const ClocksyncOptions *opts);
void clocksync_solver_free (ClocksyncSolver *solver);

guint clocksync_solver_add_input (ClocksyncSolver *solver,
                                  const char *name,
                                  TraceClockDomain declared);
void clocksync_solver_set_declared_domain (ClocksyncSolver *solver,
                                           guint input,
                                           TraceClockDomain declared);
void clocksync_solver_set_domain_property (ClocksyncSolver *solver,
                                           guint input,
                                           TraceClockDomain domain);
void clocksync_solver_set_offset_property (ClocksyncSolver *solver,
                                           guint input,
                                           gint64 offset);
void clocksync_solver_note_ts (ClocksyncSolver *solver,
                               guint input,
                               gint64 ts);
ClocksyncMarkerResult clocksync_solver_add_marker (ClocksyncSolver *solver,
                                                   guint input,
                                                   const TraceEvent *marker);

void clocksync_solver_solve (ClocksyncSolver *solver);
const ClocksyncDecision *clocksync_solver_get_decision (ClocksyncSolver *solver,
                                                        guint input);
GPtrArray *clocksync_solver_get_conflicts (ClocksyncSolver *solver);
char *clocksync_solver_check_late_marker (ClocksyncSolver *solver,
                                          guint input,
                                          const TraceEvent *marker);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClocksyncSolver, clocksync_solver_free)

/* ---- the element and its pads ------------------------------------------ */

#define TRACE_TYPE_CLOCK_SYNC_PAD (trace_clock_sync_pad_get_type ())
G_DECLARE_FINAL_TYPE (TraceClockSyncPad, trace_clock_sync_pad, TRACE, CLOCK_SYNC_PAD, TraceAggregatorPad)

#define TRACE_TYPE_CLOCK_SYNC (trace_clock_sync_get_type ())
G_DECLARE_FINAL_TYPE (TraceClockSync, trace_clock_sync, TRACE, CLOCK_SYNC, TraceAggregator)

TRACE_ELEMENT_REGISTER_DECLARE (clock_sync)

struct _TraceClockSyncPad
{
  TraceAggregatorPad parent_instance;

  /* properties */
  gint64 offset;
  gboolean offset_set;
  TraceClockDomain domain;

  /* one run */
  GQueue held; /* batches of the look-ahead */
  gint input;  /* index in the solver, -1 before the first batch */
  gboolean decided;
  gboolean rewrite; /* batches need shifting or markers renaming */
  gint64 applied_offset;
  TraceClockDomain applied_domain;
  gint64 first_ts; /* earliest timed event of the look-ahead */
  gboolean has_first_ts;
  guint64 events_seen;
  guint late_warnings;
};

struct _TraceClockSync
{
  TraceAggregator parent_instance;

  ClocksyncOptions opts; /* the properties */

  ClocksyncSolver *solver;
  gboolean decided;
  guint64 markers_used;
  guint64 markers_unusable;
  guint64 markers_late;
  guint64 conflicts;
  TraceInputSpans *spans; /* what each input covers, after the shift */
};

/* traceclocksyncpad.c */
void clocksync_pad_reset (TraceClockSyncPad *pad);

/* clocksync-decide.c */
void clocksync_decide (TraceClockSync *self);

/* ---- solver internals (clocksync-solver.c, clocksync-report.c) ---------- */

#define N_SHARED 4
#define DOMAIN_NODE_BIT 0x80000000u
/* Timestamps printed in µs (ftrace, JSON) carry this much doubt on top of
 * a marker's own precision when two pieces of evidence are compared. */
#define COMPARE_SLACK_NS 1000
#define MAX_SYNC_MARKS 1024

G_GNUC_INTERNAL extern const TraceClockDomain clocksync_shared_domains[N_SHARED];

typedef struct
{
  char *name;
  TraceClockDomain declared;
  TraceClockDomain domain_prop;
  gint64 offset_prop;
  gint64 first_ts;
  guint n_markers;
  gboolean has_domain_prop;
  gboolean has_offset_prop;
  gboolean has_first_ts;
} Input;

typedef struct
{
  guint input;
  guint32 sync_id;
  gint64 ts;
  gint64 mid;
  gint64 width;
  gboolean late;
} SyncMark;

/* t(v) = t(u) + d for one instant; u is an input, v an input or a
 * DOMAIN_NODE_BIT | slot until solve() turns both into node indexes. */
typedef struct
{
  guint u;
  guint v;
  gint64 d;
  gint64 precision;
  ClocksyncSource source;
  guint order;
  guint input;
  guint other_input;
  gint64 ts;
  gint64 other_ts;
  guint32 sync_id;
} Edge;

typedef struct
{
  guint edge;
  gint64 residual;
} RawConflict;

struct _ClocksyncSolver
{
  TraceStringPool *pool;
  TraceClockDomain target;
  gint64 guess_window;
  GArray *inputs; /* Input */
  GArray *edges;  /* Edge */
  GArray *syncs;  /* SyncMark */
  gint64 domain_ref[N_SHARED];
  gboolean has_domain_ref[N_SHARED];

  /* after solve() */
  gboolean solved;
  guint n_nodes;
  guint *uf_parent;
  gint64 *uf_delta; /* t(parent) = t(node) + delta */
  gint64 *uf_prec;
  GArray *tree;    /* guint: indexes of the edges in the forest */
  GArray *pending; /* RawConflict */
  GPtrArray **adj; /* per node: edge indexes of the forest */
  gint64 *node_offset;
  gint64 *node_prec;
  gint *node_edge; /* edge towards the root, -1 at a root */
  guint *node_up;
  gboolean *on_target;
  gboolean *visited;
  GArray *decisions; /* ClocksyncDecision */
  GPtrArray *conflicts;
};

static inline Input *
get_input (ClocksyncSolver *s,
           guint input)
{
  return &g_array_index (s->inputs, Input, input);
}

static inline Edge *
get_edge (ClocksyncSolver *s,
          guint idx)
{
  return &g_array_index (s->edges, Edge, idx);
}

static inline TraceClockDomain
effective_domain (const Input *in)
{
  return in->has_domain_prop ? in->domain_prop : in->declared;
}

G_GNUC_INTERNAL int clocksync_shared_slot (TraceClockDomain domain);
G_GNUC_INTERNAL char *clocksync_format_ts (gint64 ts);
G_GNUC_INTERNAL gint64 clocksync_pair_delta (const TraceEvent *ev);
G_GNUC_INTERNAL gint64 clocksync_pair_precision (const TraceEvent *ev);
G_GNUC_INTERNAL ClocksyncSource clocksync_marker_source (guint marker);
G_GNUC_INTERNAL void clocksync_mark_from_event (SyncMark *m,
                                                guint input,
                                                const TraceEvent *ev,
                                                gboolean late);
G_GNUC_INTERNAL gboolean clocksync_solver_has_sync_mark (ClocksyncSolver *s,
                                                         guint input,
                                                         guint32 sync_id);
G_GNUC_INTERNAL void clocksync_solver_decide (ClocksyncSolver *s,
                                              guint input);
G_GNUC_INTERNAL void clocksync_solver_describe_conflicts (ClocksyncSolver *s);

G_END_DECLS
