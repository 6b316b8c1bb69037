/* tracepipe - arkts: what the reader's parts share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "arktsreader.h"

G_BEGIN_DECLS

/* Positions in skip reports: -1 for "not known". */
#define ARKTS_NO_POS ((gint64) -1)

/* The longest a snapshot's "snapshot" object (meta and counts) may be:
 * real ones are a few KiB; this only stops a broken document from making
 * the capture grow without bound. */
#define ARKTS_MAX_META_SIZE (64 * 1024 * 1024)

/**
 * ArktsEnv:
 *
 * What the parts of a reader need from it: where events go (pool, ids),
 * where skips are counted, and the options that place events.
 */
typedef struct
{
  TraceStringPool *pool;
  ArktsReaderStats *stats;
  const char *location;
  gint64 pid;
  gint64 tid;
  guint top_n;
  gint64 cpu_profiler_interval;
  guint64 next_stack_node_id; /* stack node ids stay unique across profiles */
} ArktsEnv;

void arkts_env_skip (ArktsEnv *env,
                     ArktsSkipReason reason,
                     gint64 line,
                     gint64 offset,
                     const char *detail_format,
                     ...) G_GNUC_PRINTF (5, 6);

/* Heap snapshot / timeline documents (arktsheapdoc.c, arktsheapsummary.c) */

typedef enum
{
  ARKTS_SECTION_NONE,
  ARKTS_SECTION_SNAPSHOT,
  ARKTS_SECTION_NODES,
  ARKTS_SECTION_EDGES,
  ARKTS_SECTION_TRACE_FUNCTION_INFOS,
  ARKTS_SECTION_TRACE_TREE,
  ARKTS_SECTION_SAMPLES,
  ARKTS_SECTION_LOCATIONS,
  ARKTS_SECTION_STRINGS,
  ARKTS_SECTION_OTHER,
  ARKTS_N_SECTIONS
} ArktsSection;

const char *arkts_section_name (ArktsSection section);

typedef struct _ArktsHeapSummary ArktsHeapSummary;

ArktsHeapSummary *arkts_heap_summary_new (ArktsEnv *env,
                                          guint index,
                                          gint64 start_ts);
void arkts_heap_summary_free (ArktsHeapSummary *s);
void arkts_heap_summary_set_position_source (ArktsHeapSummary *s,
                                             const gint64 *line,
                                             const gint64 *offset);
gboolean arkts_heap_summary_set_meta (ArktsHeapSummary *s,
                                      const char *json,
                                      gsize len,
                                      GError **error);
void arkts_heap_summary_section_begin (ArktsHeapSummary *s,
                                       ArktsSection section);
void arkts_heap_summary_number (ArktsHeapSummary *s,
                                ArktsSection section,
                                gint64 value,
                                TraceBatch *out);
void arkts_heap_summary_section_end (ArktsHeapSummary *s,
                                     ArktsSection section,
                                     guint64 n_values);
guint arkts_heap_summary_trace_node_width (ArktsHeapSummary *s,
                                           guint *children_field);
void arkts_heap_summary_trace_node (ArktsHeapSummary *s,
                                    const gint64 *fields);
gboolean arkts_heap_summary_wants_string (ArktsHeapSummary *s,
                                          guint64 index);
void arkts_heap_summary_string (ArktsHeapSummary *s,
                                guint64 index,
                                const char *str,
                                gsize len);
gboolean arkts_heap_summary_is_timeline (ArktsHeapSummary *s);
void arkts_heap_summary_emit (ArktsHeapSummary *s,
                              TraceBatch *out);

typedef struct _ArktsHeapDoc ArktsHeapDoc;

ArktsHeapDoc *arkts_heap_doc_new (ArktsEnv *env,
                                  guint index,
                                  gint64 start_ts);
void arkts_heap_doc_free (ArktsHeapDoc *doc);
void arkts_heap_doc_set_line (ArktsHeapDoc *doc,
                              gint64 line);
gboolean arkts_heap_doc_feed (ArktsHeapDoc *doc,
                              const char *data,
                              gsize len,
                              gsize *consumed,
                              TraceBatch *out,
                              GError **error);
gboolean arkts_heap_doc_is_started (ArktsHeapDoc *doc);
gboolean arkts_heap_doc_is_complete (ArktsHeapDoc *doc);
gboolean arkts_heap_doc_is_timeline (ArktsHeapDoc *doc);
guint64 arkts_heap_doc_get_offset (ArktsHeapDoc *doc);
char *arkts_heap_doc_describe_cut (ArktsHeapDoc *doc);
void arkts_heap_doc_emit (ArktsHeapDoc *doc,
                          TraceBatch *out);

/* CPU profiles and sampling heap profiles (arktscpuprofile.c) */

typedef struct _ArktsCpuProfile ArktsCpuProfile;

typedef struct _ArktsJsonSkel ArktsJsonSkel;

ArktsCpuProfile *arkts_cpu_profile_load (ArktsEnv *env,
                                         JsonObject *profile,
                                         ArktsJsonSkel *skel,
                                         gint64 line);
gboolean arkts_cpu_profile_emit (ArktsCpuProfile *cp,
                                 TraceBatch *out,
                                 guint max_events);
void arkts_cpu_profile_free (ArktsCpuProfile *cp);

gboolean arkts_heap_profile_convert (ArktsEnv *env,
                                     JsonObject *profile,
                                     ArktsJsonSkel *skel,
                                     gint64 ts,
                                     TraceBatch *out);

/* JSON documents whose number arrays are kept apart (arktsjsonskel.c) */

/* The most numbers a CPU or heap profile (or a message) may keep in its
 * arrays: a profile of 16 M samples with their timeDeltas (4.6 hours at
 * V8's default 1 ms interval). 4 bytes each, 8 for large values. */
#define ARKTS_MAX_PROFILE_NUMBERS ((guint64) 32 * 1024 * 1024)

/**
 * ArktsNumbers:
 *
 * The numbers of an array, kept by an #ArktsJsonSkel or still in a
 * json-glib array; read with arkts_numbers_get().
 */
typedef struct
{
  JsonArray *array; /* or: */
  ArktsJsonSkel *skel;
  guint first;
  gboolean wide;
  guint len;
} ArktsNumbers;

ArktsJsonSkel *arkts_json_skel_new (gsize max_skeleton,
                                    guint64 max_numbers);
void arkts_json_skel_free (ArktsJsonSkel *s);
gboolean arkts_json_skel_feed (ArktsJsonSkel *s,
                               const char *data,
                               gsize len,
                               GError **error);
void arkts_json_skel_reset (ArktsJsonSkel *s);
void arkts_json_skel_finish (ArktsJsonSkel *s);
gboolean arkts_json_skel_is_profile (ArktsJsonSkel *s);
const char *arkts_json_skel_get_text (ArktsJsonSkel *s,
                                      gsize *len);
gboolean arkts_numbers_lookup (ArktsJsonSkel *s,
                               JsonObject *obj,
                               const char *member,
                               ArktsNumbers *out);
gint64 arkts_numbers_get (const ArktsNumbers *n,
                          guint i,
                          gboolean *ok);

/* Small helpers */

static inline TraceEvent *
arkts_append (TraceBatch *out,
              TraceEventKind kind,
              gint64 ts,
              gint64 pid,
              gint64 tid,
              guint32 name)
{
  TraceEvent *ev = trace_batch_append (out, kind, ts);

  ev->pid = pid;
  ev->tid = tid;
  ev->name = name;
  return ev;
}

gint64 arkts_json_get_int (JsonObject *obj,
                           const char *member,
                           gint64 fallback);
double arkts_json_get_double (JsonObject *obj,
                              const char *member,
                              double fallback);
const char *arkts_json_get_string (JsonObject *obj,
                                   const char *member);
gint64 arkts_json_array_get_int (JsonArray *array,
                                 guint i,
                                 gboolean *ok);
gint64 arkts_us_to_ns (double us);
gboolean arkts_double_to_int (double d,
                              gint64 *out);

G_END_DECLS
