/* tracepipe - filter internals shared by the filter's source files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "traceeventfilter.h"

G_BEGIN_DECLS

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

G_END_DECLS
