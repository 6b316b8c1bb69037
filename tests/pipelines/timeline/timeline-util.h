/* Helpers of the timeline end-to-end tests: run a launch
 * description keeping every bus message, write and read the files the
 * tests make, and pair slices the way a viewer does. */
#pragma once

#include <json-glib/json-glib.h>

#include "../../test-util.h"

G_BEGIN_DECLS

#define TL_US G_GINT64_CONSTANT (1000)
#define TL_S G_GINT64_CONSTANT (1000000000)

/* One pipeline run.  `events` holds what the element named "out" (a
 * collectsink) received, NULL when the description has none. */
typedef struct
{
  TraceElement *pipeline;
  TraceBatch *events;
  GPtrArray *messages;        /* TraceMessage, in the order the bus gave them */
  TraceMessage *end;          /* the EOS or ERROR that ended the run */
  TraceClockDomain out_clock; /* the stream-start of "out" */
} TlRun;

TlRun *tl_run (const char *description);
void tl_run_free (TlRun *run);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlRun, tl_run_free)

/* The first message of @type from an element whose path ends with
 * @element_name and whose text contains @text (either may be NULL). */
TraceMessage *tl_run_find (TlRun *run,
                           TraceMessageType type,
                           const char *element_name,
                           const char *text);
/* clock-sync's ELEMENT message about @pad (transfer none). */
GVariant *tl_run_clock_decision (TlRun *run,
                                 const char *pad);
/* A counter of the STATS an element posted, or -1. */
gint64 tl_run_stat (TlRun *run,
                    const char *element_name,
                    const char *key);

/* A fresh temporary folder (removed by tl_tmp_cleanup, unless TL_KEEP is
 * set in the environment: to look at what a failing test wrote) and a
 * path in it. */
char *tl_tmp_path (const char *name);
void tl_tmp_cleanup (void);
void tl_write (const char *path,
               const char *text);

/* The traceEvents of a Chrome JSON file (transfer full). */
JsonNode *tl_read_json (const char *path);
/* "ts" or "dur" of a Chrome event (µs with a decimal fraction) in ns. */
gint64 tl_json_ns (JsonObject *ev,
                   const char *member);

/* A slice of the output, after pairing. */
typedef struct
{
  gint64 pid;
  gint64 tid;
  gint64 begin;
  gint64 end;
  const char *name;   /* in the pool, or interned (JSON) */
  const char *repair; /* the begin's or end's `repair` arg, or NULL */
} TlSlice;

/* Pairs SLICE_BEGIN/END per (pid, tid) and adds SLICE_COMPLETE; asserts
 * the stream is balanced: no end without begin, nothing open at the end. */
GArray *tl_slices_from_batch (TraceBatch *batch);
/* The same for a Chrome JSON traceEvents array (X, and B/E paired). */
GArray *tl_slices_from_json (JsonNode *events);
/* The slices by (tid, begin): a TlSlice key with those two set finds
 * the slice (the table points into @slices, which must not grow). */
GHashTable *tl_slices_index (GArray *slices);

/* "1234.000567" (seconds with 6 decimals) for a time in µs. */
char *tl_format_us (gint64 us);

G_END_DECLS
