/* Helpers of the clock-sync element tests: harnesses, batches with
 * clock markers, and what the element said on the bus. */
#pragma once

#include <trace/trace.h>
#include <trace/check/traceharness.h>

#include "../../test-util.h"

G_BEGIN_DECLS

#define S(x) ((gint64) (x) *G_GINT64_CONSTANT (1000000000))
#define MS(x) ((gint64) (x) *1000000)
#define US(x) ((gint64) (x) *1000)

TraceHarness *cs_harness_new (guint n_inputs,
                              const char *first_property,
                              ...);
void cs_stream_start (TraceHarness *h,
                      guint input,
                      const char *format,
                      TraceClockDomain domain);
TracePad *cs_pad (TraceHarness *h,
                  const char *name);

TraceBatch *cs_slices (TraceStringPool *pool,
                       gint64 pid,
                       gint64 ts);
TraceEvent *cs_add_slice (TraceBatch *batch,
                          gint64 pid,
                          gint64 ts,
                          gint64 dur);
void cs_add_process_name (TraceBatch *batch,
                          gint64 pid,
                          const char *name);
TraceEvent *cs_add_pair (TraceBatch *batch,
                         TraceClockMarkerKind kind,
                         gint64 ts,
                         TraceClockDomain domain,
                         gint64 other_ts);
TraceEvent *cs_add_sync (TraceBatch *batch,
                         const char *sync_id,
                         gint64 ts,
                         gint64 issue_ts);

const TraceEvent *cs_find (TraceBatch *all,
                           TraceEventKind kind,
                           gint64 pid,
                           guint nth);
GPtrArray *cs_collect (TraceHarness *h);
GVariant *cs_decision (GPtrArray *messages,
                       const char *pad);
GPtrArray *cs_texts (GPtrArray *messages,
                     TraceMessageType type);
gboolean cs_texts_contain (GPtrArray *texts,
                           const char *text);

G_END_DECLS
