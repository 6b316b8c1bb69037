/* tracepipe - rhea-repair internals
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "rhearepair.h"

G_BEGIN_DECLS

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
  guint throw_pos; /* hold position after its T:, where its end goes */
  gint hold_index; /* its begin in the hold (crash-tag renaming), or -1 */
} Frame;

/* An end to put into the hold before held event `pos`. */
typedef struct
{
  guint pos;
  guint seq;
  TraceEvent ev;
  guint8 repair;
} PendingEnd;

typedef struct _RheaThread RheaThread;
struct _RheaThread
{
  gint64 tid;
  gint64 pid;
  GArray *frames;     /* Frame, innermost last */
  guint n_thrown;     /* THROWN frames on the stack */
  guint n_plain;      /* plain (non-method) frames on the stack */
  guint n_untracked;  /* plain begins dropped for depth, whose ends are
                       * dropped too */
  gint64 last_ts;     /* the thread's latest slice time so far */
  gboolean seen;      /* last_ts is meaningful */
  guint8 last_marker; /* MarkerType of its previous slice event */
  gboolean holding;   /* events go to `hold`, not to the output */
  TraceBatch *hold;
  TraceBatch *spare; /* the hold's second buffer, for a partial release */
  GArray *pending;   /* PendingEnd */
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
  gboolean markers;
  RheaMarkerEnds marker_ends; /* AUTO until the stream decided */
  gboolean crash_tag;
  guint max_hold;

  GArray *marker_cache; /* MarkerInfo by string id */
  GHashTable *threads;  /* &tid -> RheaThread* (chain head) */
  GPtrArray *thread_list;
  RheaThread *last_thread;
  gint64 last_tid;
  gint64 last_pid;

  RheaOutput out;
  TraceBatch *spill;
  RheaRepairStats stats;
  guint32 repair_key;
  guint32 repair_values[N_REPAIRS];
  GHashTable *crash_names; /* name id -> "name: CrashTag" id */
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
void rhea_thread_settle (RheaRepair *r,
                         RheaThread *th);
void rhea_thread_close_at_eos (RheaRepair *r,
                               RheaThread *th);

/* rhearepair.c */
void rhea_output_keep_current (RheaRepair *r,
                               guint index);
TraceEvent *rhea_output_append (RheaRepair *r,
                                const TraceEvent *ev,
                                TraceBatch *args_from);

G_END_DECLS
