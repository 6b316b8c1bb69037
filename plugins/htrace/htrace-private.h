/* tracepipe - the htrace plugin: OpenHarmony hiprofiler captures
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>
#include <trace/trace.h>

#include "arkts-engine.h"
#include "ftrace-text.h"
#include "htrace_arkts.pb-c.h"
#include "htrace_container.pb-c.h"
#include "htrace_ffrt.pb-c.h"
#include "htrace_ftrace.pb-c.h"
#include "htrace_native_hook.pb-c.h"
#include "htrace_sysmon.pb-c.h"

G_BEGIN_DECLS

/* The file header hiprofiler reserves before the first record. */
#define HTRACE_HEADER_SIZE 1024
#define HTRACE_MAGIC "OHOSPROF"

/* A record (one plugin's result) longer than this is refused: hiprofiler
 * writes results of at most a few shared-memory pages, so a larger length
 * is damage, and the reader must not allocate what a damaged length asks. */
#define HTRACE_MAX_RECORD (64 * 1024 * 1024)

/* Live allocations remembered per capture for the native-hook counters;
 * frees of allocations past this are counted, not matched. */
#define HTRACE_MAX_LIVE_ALLOCATIONS (4 * 1024 * 1024)

/* A cpu-plugin core number past this is damage (counted), not a cpu. */
#define HTRACE_MAX_CPUS 4096

/* Distinct kinds of undeclared kernel events counted by number in the
 * WARNING; more are counted together. */
#define HTRACE_MAX_FTRACE_KINDS 64

/* Distinct plugin names counted in `--stats`; more are counted together. */
#define HTRACE_MAX_PLUGIN_NAMES 64

/* What the reader could not use, by reason. */
typedef enum
{
  HTRACE_SKIP_UNKNOWN_PLUGIN,
  HTRACE_SKIP_BAD_RESULT,
  HTRACE_SKIP_UNKNOWN_CLOCK,
  HTRACE_SKIP_FFRT_RAW,
  HTRACE_SKIP_HOOK_OTHER,
  HTRACE_SKIP_HOOK_UNMATCHED_FREE,
  HTRACE_SKIP_FTRACE_OTHER,
  HTRACE_SKIP_FTRACE_FIELD,
  HTRACE_SKIP_TRUNCATED,
  HTRACE_SKIP_N
} HtraceSkip;

/* The header's fields (packed little-endian in the file). */
typedef struct
{
  guint64 length; /* the whole file, as the writer counted it */
  guint32 version;
  guint32 segments; /* two per record: its length and its data */
  guint32 data_type;
  /* clock readings taken together at the start, by TraceClockDomain;
   * 0 when the writer left them out */
  gint64 clocks[TRACE_CLOCK_PROCESS + 1];
} HtraceHeader;

typedef struct
{
  guint64 bytes_read;
  guint64 records;
  guint64 config_records;
  guint64 sysmon_records;
  guint64 ffrt_events;
  guint64 hook_events;
  guint64 arkts_messages;
  guint64 skipped[HTRACE_SKIP_N];
  guint64 first_offset[HTRACE_SKIP_N]; /* byte of the first record skipped */
  guint64 ftrace_events;
  FtraceStats ftrace; /* of the records FFRT and ftrace give the ftrace engine */
} HtraceReaderStats;

typedef struct _HtraceReader HtraceReader;
typedef struct _HtraceRecords HtraceRecords;

/* htrace-container.c: the header, the records, the clocks */
gboolean htrace_header_parse (HtraceHeader *header,
                              const guint8 *data,
                              gsize len,
                              const char *location,
                              GError **error);
TraceClockDomain htrace_clock_from_posix (gint64 clock_id);
gboolean htrace_header_convert (const HtraceHeader *header,
                                TraceClockDomain from,
                                TraceClockDomain to,
                                gint64 *ts);
gboolean htrace_is_htrace (const guint8 *data,
                           gsize len);

/* htrace-reader.c: the reader a TraceFileSrc drives */
HtraceReader *htrace_reader_new (GInputStream *in,
                                 const char *location,
                                 guint64 size,
                                 TraceStringPool *pool);
void htrace_reader_free (HtraceReader *r);
gboolean htrace_reader_read_batch (HtraceReader *r,
                                   TraceBatch **out,
                                   GError **error);
TraceClockDomain htrace_reader_get_clock_domain (HtraceReader *r);
void htrace_reader_copy_stats (HtraceReader *r,
                               HtraceReaderStats *out);
char *htrace_reader_get_summary (HtraceReader *r);
void htrace_reader_foreach_skipped_plugin (HtraceReader *r,
                                           GHFunc func,
                                           gpointer user_data);
const char *htrace_skip_get_key (HtraceSkip skip);

/* What the plugin decoders share with the reader: the batch being filled,
 * the pool, the clocks, the counters. */
typedef struct
{
  TraceBatch *batch;
  TraceStringPool *pool;
  const HtraceHeader *header;
  TraceClockDomain domain; /* the stream's */
  HtraceReaderStats *stats;
  guint64 offset; /* of the record being decoded */
  ProtobufCAllocator *allocator;
  HtraceRecords *records; /* the ftrace engine's, of FFRT and ftrace */
} HtraceContext;

void htrace_context_skip (HtraceContext *ctx,
                          HtraceSkip skip,
                          guint64 n);
gboolean htrace_context_time (HtraceContext *ctx,
                              TraceClockDomain clock,
                              guint64 sec,
                              guint64 nsec,
                              gint64 *ts);

/* htrace-sysmon.c: cpu, memory, disk, network and process plugins */
typedef struct _HtraceSysmon HtraceSysmon;
HtraceSysmon *htrace_sysmon_new (TraceStringPool *pool);
void htrace_sysmon_free (HtraceSysmon *s);
gboolean htrace_sysmon_handles (const char *plugin);
void htrace_sysmon_decode (HtraceSysmon *s,
                           HtraceContext *ctx,
                           const char *plugin,
                           gint64 ts,
                           const ProtobufCBinaryData *data);

/* htrace-ffrt.c: FFRT task markers through the ftrace engine */
typedef struct _HtraceFfrt HtraceFfrt;
HtraceFfrt *htrace_ffrt_new (TraceStringPool *pool);
void htrace_ffrt_free (HtraceFfrt *f);
void htrace_ffrt_configure (HtraceFfrt *f,
                            HtraceContext *ctx,
                            const ProtobufCBinaryData *data);
void htrace_ffrt_decode (HtraceFfrt *f,
                         HtraceContext *ctx,
                         const ProtobufCBinaryData *data);

/* htrace-records.c: typed records for the ftrace engine */

/* The names one record needs at once (two comms). */
#define HTRACE_RECORD_NAMES 2

/* The blanks hitrace text cannot hold after a field's value: spaces,
 * blanks for an event's last field (which ends the line), none for a
 * print's text (which the marker reader trims). */
typedef enum
{
  HTRACE_TRIM_NONE,
  HTRACE_TRIM_TRAILING_SPACES,
  HTRACE_TRIM_TRAILING_BLANKS,
} HtraceTrim;

HtraceRecords *htrace_records_new (TraceStringPool *pool);
void htrace_records_free (HtraceRecords *t);
FtraceParser *htrace_records_get_parser (HtraceRecords *t);
FtraceName htrace_records_name (HtraceRecords *t,
                                guint slot,
                                const char *s,
                                HtraceTrim trim);
FtraceRecord htrace_record (const char *comm,
                            gint64 tid,
                            gint64 pid,
                            guint cpu,
                            gint64 ts);
void htrace_records_finish (HtraceRecords *t,
                            TraceBatch *batch);
const FtraceStats *htrace_records_get_stats (HtraceRecords *t);
guint64 htrace_records_get_count (HtraceRecords *t);

/* htrace-ftrace.c: the ftrace plugin's kernel events as typed records */
typedef struct _HtraceFtrace HtraceFtrace;
HtraceFtrace *htrace_ftrace_new (TraceStringPool *pool);
void htrace_ftrace_free (HtraceFtrace *f);
gboolean htrace_ftrace_handles (const char *plugin);
char *htrace_ftrace_undeclared_text (HtraceFtrace *f);
void htrace_ftrace_decode (HtraceFtrace *f,
                           HtraceContext *ctx,
                           const ProtobufCBinaryData *data);

/* htrace-hook.c: native-hook allocations as live bytes per process */
typedef struct _HtraceHook HtraceHook;
HtraceHook *htrace_hook_new (TraceStringPool *pool);
void htrace_hook_free (HtraceHook *h);
void htrace_hook_configure (HtraceHook *h,
                            HtraceContext *ctx,
                            const ProtobufCBinaryData *data);
void htrace_hook_decode (HtraceHook *h,
                         HtraceContext *ctx,
                         const ProtobufCBinaryData *data);

/* htrace-arkts.c: ArkTS messages through the ArkTS engine */
typedef struct _HtraceArkts HtraceArkts;
HtraceArkts *htrace_arkts_new (TraceStringPool *pool,
                               const char *location);
void htrace_arkts_free (HtraceArkts *a);
void htrace_arkts_configure (HtraceArkts *a,
                             HtraceContext *ctx,
                             const ProtobufCBinaryData *data);
void htrace_arkts_add (HtraceArkts *a,
                       HtraceContext *ctx,
                       gint64 record_ts,
                       const ProtobufCBinaryData *data);
gboolean htrace_arkts_read_batch (HtraceArkts *a,
                                  HtraceContext *ctx,
                                  TraceBatch **out,
                                  GError **error);
char *htrace_arkts_get_summary (HtraceArkts *a);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HtraceReader, htrace_reader_free)

/* the element */
#define TRACE_TYPE_HTRACE_SRC (trace_htrace_src_get_type ())
G_DECLARE_FINAL_TYPE (TraceHtraceSrc, trace_htrace_src, TRACE, HTRACE_SRC, TraceFileSrc)

TRACE_ELEMENT_REGISTER_DECLARE (htrace_src)

G_END_DECLS
