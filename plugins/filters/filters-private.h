/* tracepipe - filter and main-thread-filter: the elements, the engine and
 * their internals
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The one private header of the plugin.  The elements (tracefilter.c,
 * tracemainthreadfilter.c) keep a #FilterOptions their properties read
 * and write, hand it to filter_new_with_options() at start and to
 * filter_set_conditions() when a property changed while playing, call
 * filter_process() on every writable batch and filter_drain() at EOS.
 * The engine: filters-event.c (the pass over a batch, the time window),
 * filters-conditions.c (the conditions), filters-knowledge.c (what the
 * stream taught about threads and processes), filters-parse.c (property
 * values), filters-report.c (stats and warnings).  See docs/filters.md for
 * the rules and the decisions behind them.
 */
#pragma once

#include <trace/trace.h>

G_BEGIN_DECLS

/**
 * FilterDropReason:
 * @FILTER_DROP_KIND: the event's kind is not among the wanted ones
 * @FILTER_DROP_CATEGORY: the category does not match
 * @FILTER_DROP_NAME: the name does not match
 * @FILTER_DROP_TID: the thread is not the wanted one (or not a main
 *   thread, or the event belongs to no thread)
 * @FILTER_DROP_PID: the process is not the wanted one (or the event
 *   belongs to no process)
 * @FILTER_DROP_THREAD_NAME: the thread's name does not match
 * @FILTER_DROP_PROCESS_NAME: the process' name does not match
 * @FILTER_DROP_INVERT: the event matched and `invert` is set
 * @FILTER_DROP_WINDOW: the event lies outside the time window
 * @FILTER_DROP_UNDECIDABLE: the conditions could not be decided and
 *   `keep-unknown` is off
 *
 * Why an event was dropped.  Ends, steps and async ends count under the
 * reason of the begin they follow.
 */
typedef enum
{
  FILTER_DROP_KIND,
  FILTER_DROP_CATEGORY,
  FILTER_DROP_NAME,
  FILTER_DROP_TID,
  FILTER_DROP_PID,
  FILTER_DROP_THREAD_NAME,
  FILTER_DROP_PROCESS_NAME,
  FILTER_DROP_INVERT,
  FILTER_DROP_WINDOW,
  FILTER_DROP_UNDECIDABLE,
  FILTER_N_DROP_REASONS
} FilterDropReason;

/**
 * FilterStats:
 * @events_in: events given to the filter
 * @kept: events passed on (metadata included, synthesized edges excluded)
 * @dropped: events dropped, by #FilterDropReason
 * @undecidable: events whose thread or process (or its name) was not
 *   known when they arrived, kept or dropped by `keep-unknown`
 * @metadata: metadata events passed whatever the conditions
 * @synthesized: slice begins and ends made at the window's edges
 * @clipped: complete slices shortened to fit the window
 * @slices_in: slices (begins and complete slices) given to the filter
 * @slices_kept: those the conditions keep (the window aside)
 */
typedef struct
{
  guint64 events_in;
  guint64 kept;
  guint64 dropped[FILTER_N_DROP_REASONS];
  guint64 undecidable;
  guint64 metadata;
  guint64 synthesized;
  guint64 clipped;
  guint64 slices_in;
  guint64 slices_kept;
} FilterStats;

/* The `tid` values that are not a thread id. */
#define FILTER_TID_ANY (-1)
#define FILTER_TID_MAIN (-2)
#define FILTER_PID_ANY (-1)

/**
 * FilterOptions:
 * @tid: a thread id, %FILTER_TID_MAIN or %FILTER_TID_ANY
 * @pid: a process id or %FILTER_PID_ANY
 * @process_name: (nullable): a glob on the process name
 * @thread_name: (nullable): a glob on the thread name
 * @name: (nullable): a glob on the event name
 * @category: (nullable): a glob on the category (`a,b` matches if a part does)
 * @kinds: #TraceEventGroup flags, 0 for every kind
 * @start: (nullable): the window's start as text: `+1.5s` (after the first
 *   timed event) must stay distinct from `1.5s`, so it is parsed at start
 * @end: (nullable): the window's end, the same way
 * @invert: drop what matches, keep the rest
 * @keep_unknown: keep the events whose process cannot be told
 *
 * The properties of `filter` (and of `main-thread-filter`, with @tid
 * %FILTER_TID_MAIN), stored once: the element keeps one, its properties
 * read and write it.  The strings are owned: filter_options_clear().
 */
typedef struct
{
  gint64 tid;
  gint64 pid;
  char *process_name;
  char *thread_name;
  char *name;
  char *category;
  guint kinds;
  char *start;
  char *end;
  gboolean invert;
  gboolean keep_unknown;
} FilterOptions;

void filter_options_clear (FilterOptions *opts);

typedef struct _Filter Filter;

Filter *filter_new (TraceStringPool *pool);
Filter *filter_new_with_options (TraceStringPool *pool,
                                 const FilterOptions *opts,
                                 GError **error);
void filter_free (Filter *filter);
void filter_set_conditions (Filter *filter,
                            const FilterOptions *opts);

/* Conditions; each call replaces the previous value of that condition.
 * A NULL or empty glob removes it.  Set them before the first batch. */
void filter_set_tid (Filter *filter,
                     gint64 tid);
void filter_set_tid_main (Filter *filter);
void filter_unset_tid (Filter *filter);
gboolean filter_set_tid_from_string (Filter *filter,
                                     const char *text,
                                     GError **error);
void filter_set_pid (Filter *filter,
                     gint64 pid);
void filter_unset_pid (Filter *filter);
void filter_set_process_name (Filter *filter,
                              const char *glob);
void filter_set_thread_name (Filter *filter,
                             const char *glob);
void filter_set_name (Filter *filter,
                      const char *glob);
void filter_set_category (Filter *filter,
                          const char *glob);
void filter_set_kinds (Filter *filter,
                       TraceEventGroup kinds);
void filter_set_start (Filter *filter,
                       gint64 start_ns);
void filter_set_end (Filter *filter,
                     gint64 end_ns);
void filter_set_start_relative (Filter *filter,
                                gint64 offset_ns);
void filter_set_end_relative (Filter *filter,
                              gint64 offset_ns);
gboolean filter_set_window_from_string (Filter *filter,
                                        const char *start,
                                        const char *end,
                                        GError **error);
void filter_set_invert (Filter *filter,
                        gboolean invert);
void filter_set_keep_unknown (Filter *filter,
                              gboolean keep_unknown);

void filter_process (Filter *filter,
                     TraceBatch *batch);

/* filters-main-threads.c */
gboolean filter_is_main_thread_name (const char *name);
void filter_set_main_threads_named (Filter *filter,
                                    gboolean named);
gboolean filter_waits_for_main_threads (Filter *filter);
void filter_learn_main_threads (Filter *filter,
                                const TraceBatch *batch);
gboolean filter_lookup_named_main_thread (Filter *filter,
                                          gint64 pid,
                                          gint64 *tid);
TraceBatch *filter_drain (Filter *filter);

char *filter_explain_empty_window (Filter *filter);
void filter_get_stats (Filter *filter,
                       FilterStats *stats);
char *filter_describe (Filter *filter);
char *filter_stats_to_string (const FilterStats *stats);
const char *filter_drop_reason_to_string (FilterDropReason reason);

/* Property parsers, shared by the elements and trace-launch users. */
gboolean filter_parse_time (const char *text,
                            gint64 *out_ns,
                            GError **error);
gboolean filter_parse_window_time (const char *text,
                                   gint64 *out_ns,
                                   gboolean *relative,
                                   GError **error);
gboolean filter_parse_kinds (const char *text,
                             TraceEventGroup *out_kinds,
                             GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Filter, filter_free)

/* ---- the elements ------------------------------------------------------ */

#define TRACE_TYPE_FILTER (trace_filter_get_type ())
/* The base both elements share (filters-element.c). */
#define FILTER_TYPE_ELEMENT (filter_element_get_type ())
G_DECLARE_DERIVABLE_TYPE (FilterElement, filter_element, FILTER, ELEMENT, TraceBaseTransform)

struct _FilterElementClass
{
  TraceBaseTransformClass parent_class;
};

FilterOptions *filter_element_lock_options (FilterElement *self);
void filter_element_unlock_options (FilterElement *self,
                                    gboolean changed);

G_DECLARE_FINAL_TYPE (TraceFilter, trace_filter, TRACE, FILTER, FilterElement)

#define TRACE_TYPE_MAIN_THREAD_FILTER (trace_main_thread_filter_get_type ())
G_DECLARE_FINAL_TYPE (TraceMainThreadFilter, trace_main_thread_filter, TRACE, MAIN_THREAD_FILTER, FilterElement)

TRACE_ELEMENT_REGISTER_DECLARE (filter)
TRACE_ELEMENT_REGISTER_DECLARE (main_thread_filter)

/* filters-report.c: what both elements say at EOS and in their STATS */
void filter_collect_stats (Filter *filter,
                           GVariantDict *dict);
void filter_warn_at_eos (TraceElement *element,
                         Filter *filter,
                         gboolean keep_unknown);

/* ---- engine internals ---------------------------------------------------- */

/* A glob condition with its results cached per string id: string ids are
 * small dense integers, so one byte per id answers every later event with
 * an array index instead of a pattern match. */
typedef struct
{
  GPatternSpec *spec;
  char *text;
  gboolean any_comma_part; /* categories: "a,b" matches if a part does */
  GByteArray *cache;       /* by string id: 0 unknown, 1 match, 2 no */
} FilterGlob;

gboolean filter_glob_set (FilterGlob *glob,
                          const char *text,
                          gboolean any_comma_part);
void filter_glob_clear (FilterGlob *glob);
gboolean filter_glob_match (FilterGlob *glob,
                            TraceStringPool *pool,
                            guint32 id);

/* Where an open slice stands relative to the time window. */
typedef enum
{
  ENTRY_PENDING, /* began before the window; nothing emitted yet */
  ENTRY_EMITTED, /* its begin (or a clipped one) was emitted */
  ENTRY_CLOSED,  /* an end was emitted at the window's end */
  ENTRY_DROPPED, /* dropped with everything that belongs to it */
} EntryState;

/* One open slice (thread stack) or async slice (per id): the decision its
 * begin got, so that its end follows it. `begin` is only filled while a
 * window is set, to synthesize a clipped begin at the start edge. */
typedef struct
{
  guint8 keep;
  guint8 reason;
  guint8 state;
  TraceEvent begin;
} SliceEntry;

/* What the stream taught about a thread. */
typedef struct _FilterThread FilterThread;
struct _FilterThread
{
  gint64 tid;
  gint64 pid;                  /* TRACE_ID_UNKNOWN until learnt */
  guint32 name;                /* 0 until learnt */
  guint8 name_rank;            /* how trustworthy `name` is, see NAME_RANK_* */
  GArray *stack;               /* SliceEntry, open slices of this thread */
  struct _FilterProcess *proc; /* the process of `pid`, once known */
  FilterThread *next;          /* another process using the same tid (Chrome) */
};

enum
{
  NAME_RANK_NONE,
  NAME_RANK_SCHED, /* comm from sched_switch/wakeup: 15 chars */
  NAME_RANK_TASK,  /* task_newtask / task_rename */
  NAME_RANK_META,  /* a THREAD_NAME event */
};

typedef struct _FilterProcess
{
  gint64 pid;
  guint32 name;              /* PROCESS_NAME, 0 until learnt */
  FilterThread *main_thread; /* tid == pid, once seen: names the process
                              * when no PROCESS_NAME did (ftrace comm) */
} FilterProcess;

/* The key of an async slice: events with equal keys nest. */
typedef struct
{
  gint64 pid;
  guint64 id;
  guint32 category;
  guint32 name; /* only for legacy (unnestable, name-keyed) families */
  guint32 scope;
} AsyncKey;

typedef struct
{
  AsyncKey key;
  GArray *stack; /* SliceEntry */
} AsyncState;

/* The stream's knowledge: threads, processes, open slices. */
typedef struct
{
  GHashTable *threads;    /* &tid -> FilterThread* (chain head) */
  GPtrArray *thread_list; /* all FilterThread, creation order (owns) */
  GHashTable *processes;  /* &pid -> FilterProcess* (owns) */
  GHashTable *async;      /* AsyncKey* -> AsyncState* (owns) */
  GPtrArray *async_free;  /* recycled AsyncState, so no malloc per slice */
  GPtrArray *async_list;  /* open AsyncState, for window edges */
  FilterThread *last_thread;
  gint64 last_tid;
  gint64 last_pid;
} FilterKnowledge;

void filter_knowledge_init (FilterKnowledge *k);
void filter_knowledge_clear (FilterKnowledge *k);
FilterThread *filter_knowledge_thread (FilterKnowledge *k,
                                       gint64 tid,
                                       gint64 pid);
FilterProcess *filter_knowledge_process (FilterKnowledge *k,
                                         gint64 pid,
                                         gboolean create);
void filter_knowledge_learn (FilterKnowledge *k,
                             const TraceEvent *ev,
                             FilterThread *thread,
                             gboolean want_names);
gint64 filter_knowledge_resolve_pid (FilterKnowledge *k,
                                     const TraceEvent *ev,
                                     FilterThread *thread);
AsyncState *filter_knowledge_async (FilterKnowledge *k,
                                    const TraceEvent *ev,
                                    gint64 pid,
                                    gboolean create);
void filter_knowledge_async_release (FilterKnowledge *k,
                                     AsyncState *state);

typedef enum
{
  PHASE_BEFORE,
  PHASE_INSIDE,
  PHASE_AFTER,
} WindowPhase;

typedef enum
{
  MATCH_YES,
  MATCH_NO,
  MATCH_UNKNOWN,
} Match;

/* A synthesized event waiting to be moved before original event `before`;
 * it was appended to the batch at `index` (so its args are in place). */
typedef struct
{
  guint before;
  guint index;
} Insert;

struct _Filter
{
  TraceStringPool *pool;

  gboolean has_tid;
  gboolean tid_main;
  gint64 tid;
  gboolean has_pid;
  gint64 pid;
  FilterGlob process_name;
  FilterGlob thread_name;
  FilterGlob name;
  FilterGlob category;
  guint kinds; /* TraceEventGroup, 0 for all */
  gboolean has_start;
  gboolean has_end;
  gint64 start;
  gint64 end;
  /* +1.5s: start/end hold offsets from the first timed event until it
   * comes (window_resolve) */
  gboolean start_relative;
  gboolean end_relative;
  gboolean have_ts; /* a timed event came: first_ts, last_ts are set */
  gint64 first_ts;  /* of the first timed event, in stream order */
  gint64 last_ts;   /* the latest timed event */
  gboolean invert;
  gboolean keep_unknown;

  /* derived from the conditions */
  gboolean has_conditions;
  gboolean has_window;
  gboolean want_names;

  FilterKnowledge k;
  /* tid=main in a stream whose main threads are told by their names
   * (TRACE_STREAM_FLAG_MAIN_THREADS_NAMED): pid -> tid of the thread
   * named as its main thread, see filter_learn_main_threads() */
  gboolean main_threads_named;
  GHashTable *named_main;
  gboolean live; /* an element's: conditions may change between batches */
  gboolean started;
  WindowPhase phase;
  FilterStats stats;

  TraceBatch *cur;   /* the batch being filtered, or the drain's */
  guint cur_index;   /* the original event being looked at */
  gboolean draining; /* synthesized events are appended, not moved */
  GArray *inserts;   /* Insert */
  GArray *scratch;   /* TraceEvent, to merge inserts in one pass */
  guint32 clip_key;
  guint32 clip_start;
  guint32 clip_end;
};

/* filters-conditions.c */
gboolean filter_decide (Filter *f,
                        const TraceEvent *ev,
                        FilterThread *thread,
                        gboolean with_names,
                        guint8 *reason);

G_END_DECLS
