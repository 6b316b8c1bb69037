/* tracepipe fidelity tests - asking trace_processor what a trace holds
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One query's answer: the CSV lines trace_processor printed, header
 * first, as strings (a row is compared as a whole line). */
typedef struct
{
  GPtrArray *lines;
} FidRows;

void fid_rows_free (FidRows *rows);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FidRows, fid_rows_free)

/* Runs @sql on @trace with the trace_processor named by
 * $TRACE_PROCESSOR. NULL with @error when it cannot read the trace. */
FidRows *fid_query (const char *trace,
                    const char *sql,
                    GError **error);

/* The counts tp-compare shows, in the same order as fid_metric_names. */
#define FID_N_METRICS 17
extern const char *const fid_metric_names[FID_N_METRICS];
/* Metrics shown in messages but never compared: trace_processor keeps
 * every ftrace event of a proto trace in ftrace_event but only some of a
 * text one, and the first timestamp moves with what each format holds. */
gboolean fid_metric_is_info_only (const char *name);

typedef struct
{
  gint64 values[FID_N_METRICS];
  GHashTable *errors; /* stat name -> GINT_TO_POINTER (value) */
} FidMetrics;

void fid_metrics_free (FidMetrics *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FidMetrics, fid_metrics_free)

FidMetrics *fid_measure (const char *trace,
                         GError **error);

/* A text trace whose last line lacks its newline, given one in @tmpdir:
 * trace_processor drops such a line and we read it (docs/fidelity.md). */
char *fid_reference_copy (const char *trace,
                          const char *tmpdir);

/* Converts @input with `auto-src ! SINK [PROPS] location=OUTPUT` through
 * the built trace-launch; FALSE with the reason in @why. */
gboolean fid_convert (const char *input,
                      const char *sink,
                      const char *const *sink_props,
                      const char *output,
                      char **why);

/* known-differences.txt: FILE OUTPUT METRIC[,METRIC...] reason */
typedef struct
{
  char *file;   /* relative to tests/data, or a case's file name */
  char *output; /* perfetto, json or * */
  GStrv metrics;
  char *reason;
} FidKnown;

GPtrArray *fid_known_load (const char *path,
                           GError **error);
void fid_known_free (FidKnown *k);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FidKnown, fid_known_free)
FidKnown *fid_known_collect (GPtrArray *known,
                             const char *file,
                             const char *output);
gboolean fid_known_has_metric (const FidKnown *k,
                               const char *metric);

G_END_DECLS
