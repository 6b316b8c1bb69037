/* tracepipe - what the parts of the clock-sync solver share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "clocksync-solver.h"

G_BEGIN_DECLS

#define N_SHARED 4
#define DOMAIN_NODE_BIT 0x80000000u
/* Timestamps printed in µs (ftrace, JSON) carry this much doubt on top of
 * a marker's own precision when two pieces of evidence are compared. */
#define COMPARE_SLACK_NS 1000
#define MAX_SYNC_MARKS 1024

G_GNUC_INTERNAL extern const TraceClockDomain _clock_sync_shared_domains[N_SHARED];

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
  ClockSyncSource source;
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

struct _ClockSyncSolver
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
  GArray *decisions; /* ClockSyncDecision */
  GPtrArray *conflicts;
};

static inline Input *
get_input (ClockSyncSolver *s,
           guint input)
{
  return &g_array_index (s->inputs, Input, input);
}

static inline Edge *
get_edge (ClockSyncSolver *s,
          guint idx)
{
  return &g_array_index (s->edges, Edge, idx);
}

static inline TraceClockDomain
effective_domain (const Input *in)
{
  return in->has_domain_prop ? in->domain_prop : in->declared;
}

G_GNUC_INTERNAL int _clock_sync_shared_slot (TraceClockDomain domain);
G_GNUC_INTERNAL char *_clock_sync_format_ts (gint64 ts);
G_GNUC_INTERNAL gint64 _clock_sync_pair_delta (const TraceEvent *ev);
G_GNUC_INTERNAL gint64 _clock_sync_pair_precision (const TraceEvent *ev);
G_GNUC_INTERNAL ClockSyncSource _clock_sync_marker_source (guint marker);
G_GNUC_INTERNAL void _clock_sync_mark_from_event (SyncMark *m,
                                                  guint input,
                                                  const TraceEvent *ev,
                                                  gboolean late);
G_GNUC_INTERNAL gboolean _clock_sync_solver_has_sync_mark (ClockSyncSolver *s,
                                                           guint input,
                                                           guint32 sync_id);
G_GNUC_INTERNAL void _clock_sync_solver_decide (ClockSyncSolver *s,
                                                guint input);
G_GNUC_INTERNAL void _clock_sync_solver_describe_conflicts (ClockSyncSolver *s);

G_END_DECLS
