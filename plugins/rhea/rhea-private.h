/* tracepipe - rhea-repair: the element, its engine and their internals
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Turns RheaTrace method markers (`B:` entry, `E:` return, `T:` throw,
 * all written as slice begins) into balanced slice begin/end pairs per
 * thread, and repairs any unbalanced slice stream: frames an exception
 * unwound are closed at their T:, or at the last time the capture says
 * they were certainly still running, unmatched ends
 * are dropped, slices open at EOS are closed at the thread's last time.
 * The element (tracerhearepair.c) keeps a #RheaRepairOptions, hands it to
 * rhea_repair_new_with_options() at start, calls rhea_repair_process() on
 * every writable batch and rhea_repair_drain() at EOS until it returns
 * NULL.  The engine is rhea-repair.c and rhea-frames.c.  See
 * docs/rhea-repair.md.
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
 * @hold_total_overflows: times all threads together held more than
 *   `max-hold-total` events and the thread holding the most was cut as at
 *   its own hold limit (the older half of its hold decided and let out)
 * @too_deep: slice begins dropped because their thread's stack was
 *   already %RHEA_REPAIR_MAX_DEPTH deep (with their ends)
 * @suspended: frames taken to have ended before a call that a frame below
 *   them (or the thread's loop) makes and they never made
 * @resumed: suspended frames whose own `E:` or `T:` came later (they were
 *   still running), or whose suspension was undone at the hold limit
 * @max_depth: the deepest stack seen
 * @max_held: the most events held for one thread at once
 * @max_held_total: the most events held by all threads at once (before
 *   the total limit cut them)
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
  guint64 hold_total_overflows;
  guint64 too_deep;
  guint64 suspended;
  guint64 resumed;
  guint max_depth;
  guint max_held;
  guint64 max_held_total;
} RheaRepairStats;

/* Deeper than any real call stack: a stream of begins without ends must
 * not grow memory without bound. */
#define RHEA_REPAIR_MAX_DEPTH 10000

/**
 * RheaRepairOptions:
 * @markers: read `B:`/`E:`/`T:` method markers; %FALSE treats them as
 *   plain slice names (a stream that is not RheaTrace)
 * @marker_ends: whether each marker is followed by a plain end of its own
 * @crash_tag: rename slices whose end was estimated (unwound, missing
 *   end, closed at EOS) `⟨name⟩: CrashTag`, as btrace does; their begins
 *   are then held until the thread's stack is empty
 * @max_hold: how many events one thread may hold while the catcher of a
 *   throw is unknown (at least 1); at the limit the throws in the older
 *   half of the hold are taken to have escaped every instrumented frame
 * @max_hold_total: how many events all threads together may hold (at
 *   least 1): many threads each with a frame open would otherwise hold up
 *   to @max_hold each; over it the thread holding the most is cut as at
 *   @max_hold, until the total is back under it
 *
 * The `rhea-repair` properties, stored once: the element keeps one and
 * writes its properties into it; the engine copies it at creation.
 */
typedef struct
{
  gboolean markers;
  RheaMarkerEnds marker_ends;
  gboolean crash_tag;
  guint max_hold;
  guint max_hold_total;
} RheaRepairOptions;

/* The defaults of the options, used by the element's param specs and by
 * rhea_repair_new(). */
#define RHEA_REPAIR_DEFAULT_MARKERS TRUE
#define RHEA_REPAIR_DEFAULT_MARKER_ENDS RHEA_MARKER_ENDS_AUTO
#define RHEA_REPAIR_DEFAULT_CRASH_TAG FALSE
#define RHEA_REPAIR_DEFAULT_MAX_HOLD 65536
/* about 25 MB of held events at 96 bytes each (sizeof (TraceEvent)) */
#define RHEA_REPAIR_DEFAULT_MAX_HOLD_TOTAL 262144

typedef struct _RheaRepair RheaRepair;

RheaRepair *rhea_repair_new (TraceStringPool *pool);
RheaRepair *rhea_repair_new_with_options (TraceStringPool *pool,
                                          const RheaRepairOptions *opts);
void rhea_repair_free (RheaRepair *repair);

void rhea_repair_set_markers (RheaRepair *repair,
                              gboolean markers);
void rhea_repair_set_marker_ends (RheaRepair *repair,
                                  RheaMarkerEnds marker_ends);
void rhea_repair_set_crash_tag (RheaRepair *repair,
                                gboolean crash_tag);
void rhea_repair_set_max_hold (RheaRepair *repair,
                               guint max_events);
void rhea_repair_set_max_hold_total (RheaRepair *repair,
                                     guint max_events);

void rhea_repair_process (RheaRepair *repair,
                          TraceBatch *batch);
TraceBatch *rhea_repair_drain (RheaRepair *repair);

void rhea_repair_get_stats (RheaRepair *repair,
                            RheaRepairStats *stats);
char *rhea_repair_stats_to_string (const RheaRepairStats *stats);
char *rhea_repair_get_summary (RheaRepair *repair);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RheaRepair, rhea_repair_free)

/* tracerhearepair.c: the element */
#define TRACE_TYPE_RHEA_REPAIR (trace_rhea_repair_get_type ())
G_DECLARE_FINAL_TYPE (TraceRheaRepair, trace_rhea_repair, TRACE, RHEA_REPAIR, TraceBaseTransform)
TRACE_ELEMENT_REGISTER_DECLARE (rhea_repair)

/* ---- engine internals (rhea-repair.c, rhea-frames.c) ------------------ */

/* What a slice begin's name says, cached per string id. */
typedef enum
{
  MARKER_UNKNOWN = 0, /* not looked at yet */
  MARKER_NONE,        /* a plain slice */
  MARKER_BEGIN,       /* B:method */
  MARKER_RETURN,      /* E:method */
  MARKER_THROW,       /* T:method */
} MarkerType;

typedef struct
{
  guint32 stripped; /* the method without its marker, trimmed */
  guint32 type;     /* MarkerType */
} MarkerInfo;

/* How a repaired slice ended: the value of its end's `repair` arg. */
typedef enum
{
  REPAIR_EXITED_BY_THROW,
  REPAIR_UNWOUND,
  REPAIR_MISSING_END,
  REPAIR_CLOSED_AT_EOS,
  N_REPAIRS
} RepairKind;

typedef enum
{
  FRAME_OPEN,
  FRAME_THROWN, /* its method threw; it ended then unless it returns */
} FrameState;

/* An open slice of a thread.  A THROWN frame's end is settled later:
 * at its T: (the exception left it) or at its own E: (it caught). */
typedef struct
{
  guint32 name;
  guint32 category;
  gint64 pid;
  gint64 tid;
  guint32 track;
  guint8 is_method;
  guint8 state;
  gint64 throw_ts;
  guint throw_pos;  /* hold position after its T:, where its end goes */
  gint hold_index;  /* its begin in the hold, or -1 once it went out */
  guint8 suspended; /* taken to have ended before a later call (see
                     * rhea_thread_begin_method()); its end is guess_* */
  guint guess_pos;
  gint64 guess_ts;
  guint32 guess_call; /* the call that suspended it */
  guint32 guess_by;   /* the method that made that call (or the loop's) */
  guint32 last_call;  /* a call it is known to make (a shortcut) */
  guint8 call_known;  /* its caller was seen making it before it began */
} Frame;

/* An end to put into the hold before held event `pos`. */
typedef struct
{
  guint pos;
  guint seq;
  TraceEvent ev;
  guint8 repair;
} PendingEnd;

/* A call seen made by the frame at index @caller (-1: the loop). */
typedef struct
{
  gint caller;
  guint32 method;
} RheaCall;

/* A hold's buffer larger than so many events is freed when it empties,
 * and a spare one when it is twice what stays held. */
#define RHEA_HOLD_KEPT 1024

/* At most so many calls wait per thread for their caller's return. */
#define RHEA_MAX_CALLS_PENDING 1024

typedef struct _RheaThread RheaThread;
struct _RheaThread
{
  gint64 tid;
  gint64 pid;
  GArray *frames;     /* Frame, innermost last */
  guint n_thrown;     /* THROWN frames on the stack */
  guint n_plain;      /* plain (non-method) frames on the stack */
  guint n_suspended;  /* suspended frames on the stack */
  GArray *calls;      /* RheaCall: calls made by the open frames, learnt
                       * when their caller returns */
  guint n_untracked;  /* plain begins dropped for depth, whose ends are
                       * dropped too */
  gint64 last_ts;     /* the thread's latest slice time so far */
  gint64 released_ts; /* the latest held event that went out */
  gboolean seen;      /* last_ts is meaningful */
  guint8 last_marker; /* MarkerType of its previous slice event */
  gboolean holding;   /* events go to `hold`, not to the output */
  TraceBatch *hold;
  guint n_counted;   /* hold->n_events as last added to the repair's n_held */
  TraceBatch *spare; /* the hold's second buffer, for a partial release */
  GArray *pending;   /* PendingEnd */
  guint pending_seq; /* orders the pending ends made at one position */
  RheaThread *next;  /* another process reusing the tid */
};

/* Where events go: in place into the batch being repaired while nothing
 * has to be inserted, then (from the first insertion on) appended to a
 * spill batch that is copied back at the end. */
typedef struct
{
  TraceBatch *batch;
  guint w;
  TraceBatch *spill; /* NULL while in place */
} RheaOutput;

struct _RheaRepair
{
  TraceStringPool *pool;
  RheaRepairOptions opts; /* a copy: marker_ends stays AUTO only until the
                           * stream decided */

  GArray *marker_cache; /* MarkerInfo by string id */
  GHashTable *threads;  /* &tid -> RheaThread* (chain head) */
  GPtrArray *thread_list;
  RheaThread *last_thread;
  guint64 n_held;  /* events held by all threads, for max_hold_total */
  guint n_drained; /* threads rhea_repair_drain() has closed */
  gint64 next_ts;  /* the time of the event being repaired, which an end
                    * made now goes before (G_MAXINT64 at EOS) */
  gint64 last_tid;
  gint64 last_pid;

  RheaOutput out;
  TraceBatch *spill;
  RheaRepairStats stats;
  guint32 repair_key;
  guint32 repair_values[N_REPAIRS];
  GHashTable *crash_names; /* name id -> "name: CrashTag" id */
  /* which method was seen calling which: an open-addressing set of
   * caller << 32 | callee (+ 1, so 0 is free), with what is known */
  guint64 *call_keys;
  guint8 *call_flags;
  guint call_mask;
  guint n_calls;
};

/* rhea-frames.c */
RheaThread *rhea_thread_get (RheaRepair *r,
                             gint64 tid,
                             gint64 pid);
void rhea_thread_free (gpointer data);
void rhea_thread_emit_current (RheaRepair *r,
                               RheaThread *th,
                               guint index);
void rhea_thread_push (RheaRepair *r,
                       RheaThread *th,
                       guint index,
                       gboolean is_method);
gint rhea_thread_find_method (RheaThread *th,
                              guint32 name);
gint rhea_thread_find_plain (RheaThread *th);
void rhea_thread_close_above (RheaRepair *r,
                              RheaThread *th,
                              gint index);
void rhea_thread_throw (RheaRepair *r,
                        RheaThread *th,
                        gint index,
                        gint64 ts);
void rhea_thread_pop (RheaThread *th);
gboolean rhea_thread_begin_method (RheaRepair *r,
                                   RheaThread *th,
                                   guint32 method);
void rhea_thread_learn_calls (RheaRepair *r,
                              RheaThread *th,
                              gint index);
gint rhea_thread_resume (RheaRepair *r,
                         RheaThread *th,
                         gint index);
void rhea_thread_settle (RheaRepair *r,
                         RheaThread *th);
void rhea_thread_close_at_eos (RheaRepair *r,
                               RheaThread *th);

/* rhea-repair.c */
const char *rhea_repair_kind_name (RepairKind kind);
void rhea_count (guint64 *counter,
                 const char *what,
                 gint64 ts,
                 gint64 tid);
void rhea_output_keep_current (RheaRepair *r,
                               guint index);
TraceEvent *rhea_output_append (RheaRepair *r,
                                const TraceEvent *ev,
                                TraceBatch *args_from);

G_END_DECLS
