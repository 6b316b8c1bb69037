/* tracepipe - json plugin: the Chrome Trace Event Format reader, as json-src uses it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <trace/trace.h>

#include "json-common.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* The reader: streaming, the Chrome Trace Event Format in            */

/*
 * Reads the array form and the object form, in bounded
 * memory: the file is read in large blocks and each event object is
 * parsed in place, never as a whole-document tree.  Events come out in
 * file order.  See docs/json.md for every mapping decision.
 */

/* The largest single value held in memory at once (one event, one
 * metadata member, one stack frame).  Larger ones are refused. */
#define CHROME_MAX_ELEMENT_SIZE (256u * 1024 * 1024)

/* Args kept per event; the rest are dropped and counted. */
#define CHROME_MAX_ARGS 1024

/* Offsets remembered per skip reason. */
#define CHROME_MAX_OFFSETS 4

/**
 * ChromeSkipReason:
 *
 * Why something of the input did not become events.  The reasons before
 * %CHROME_SKIP_N_DAMAGE mean the input is damaged or data was lost
 * (worth a WARNING); the ones after are valid input the event model has
 * no place for (an INFO).
 */
typedef enum
{
  CHROME_SKIP_MALFORMED,
  CHROME_SKIP_TRUNCATED,
  CHROME_SKIP_NOT_AN_OBJECT,
  CHROME_SKIP_NO_PHASE,
  CHROME_SKIP_UNKNOWN_PHASE,
  CHROME_SKIP_BAD_TIMESTAMP,
  CHROME_SKIP_BAD_DURATION,
  CHROME_SKIP_BAD_ID,
  CHROME_SKIP_BAD_VALUE,
  CHROME_SKIP_BAD_SCOPE,
  CHROME_SKIP_TRAILING_DATA,
  /* not damage, but data lost (an array cut at 1024 elements): warned */
  CHROME_SKIP_ARGS_DROPPED,
  CHROME_SKIP_N_DAMAGE,
  CHROME_SKIP_UNSUPPORTED_PHASE = CHROME_SKIP_N_DAMAGE,
  CHROME_SKIP_OTHER_METADATA,
  CHROME_SKIP_ORPHAN_SAMPLES,
  CHROME_SKIP_EMPTY_OBJECT,
  CHROME_SKIP_NAME_OVERRIDDEN,
  CHROME_SKIP_N_REASONS
} ChromeSkipReason;

typedef struct
{
  guint64 count;
  guint64 offsets[CHROME_MAX_OFFSETS]; /* byte offsets of the first ones */
} ChromeSkipCount;

/**
 * ChromeReaderStats:
 * @bytes: bytes of (decompressed) JSON read
 * @objects: event objects found in the traceEvents array
 * @events: #TraceEvent produced
 * @empty_objects: `{}` placeholders (also counted as skipped: empty object)
 * @skipped: per #ChromeSkipReason
 */
typedef struct
{
  guint64 bytes;
  guint64 objects;
  guint64 events;
  guint64 empty_objects;
  ChromeSkipCount skipped[CHROME_SKIP_N_REASONS];
} ChromeReaderStats;

typedef struct _ChromeReader ChromeReader;

ChromeReader *chrome_reader_new (GInputStream *in,
                                 const char *location,
                                 TraceStringPool *pool);
void chrome_reader_free (ChromeReader *reader);

gboolean chrome_reader_read_batch (ChromeReader *reader,
                                   TraceBatch **out,
                                   GError **error);

TraceClockDomain chrome_reader_get_clock_domain (ChromeReader *reader);
const char *chrome_reader_get_clock_domain_name (ChromeReader *reader);
const char *chrome_reader_get_display_time_unit (ChromeReader *reader);
JsonObject *chrome_reader_get_metadata (ChromeReader *reader);

gboolean chrome_reader_has_system_trace (ChromeReader *reader);
guint64 chrome_reader_get_system_trace_size (ChromeReader *reader);
GInputStream *chrome_reader_open_system_trace (ChromeReader *reader,
                                               GError **error);

guint64 chrome_reader_get_bytes_read (ChromeReader *reader);
const ChromeReaderStats *chrome_reader_get_stats (ChromeReader *reader);
gboolean chrome_reader_has_damage (ChromeReader *reader);
char *chrome_reader_get_summary (ChromeReader *reader,
                                 gboolean include_unsupported);
char *chrome_reader_get_unsupported_summary (ChromeReader *reader);
char *chrome_reader_get_failure (ChromeReader *reader);
const char *chrome_skip_reason_to_string (ChromeSkipReason reason);

/* The counters json-src reports, in ChromeReaderStats: bytes-read,
 * json-events, then skipped-<reason> for each reason in order. */
#define CHROME_READER_N_STATS (2 + CHROME_SKIP_N_REASONS)
extern const TraceFileSrcStat chrome_reader_stats[CHROME_READER_N_STATS];

/* json-reader-chunks.c: reading on several threads */
void chrome_reader_set_threads (ChromeReader *r, guint threads);
void chrome_reader_set_patient (ChromeReader *r, gboolean patient);
void chrome_reader_set_input_map (ChromeReader *r, TraceInputMap *map);
void chrome_reader_get_chunk_counts (ChromeReader *r, guint64 *taken, guint64 *missed, guint64 *stolen);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChromeReader, chrome_reader_free)

G_END_DECLS
