/* Unit tests of the arkts reader: helpers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "arkts-engine.h"

/* Everything one reader produced, in order, and the reader (for stats). */
typedef struct
{
  TraceBatch *events;
  ArktsReader *reader;
  guint n_batches;
  guint max_batch;
} ArktsRun;

char *arkts_test_path (const char *name);
ArktsRun *arkts_run_stream (GInputStream *in,
                            const char *location,
                            const ArktsReaderOptions *opts,
                            GError **error);
ArktsRun *arkts_run_file (const char *name,
                          const ArktsReaderOptions *opts,
                          GError **error);
ArktsRun *arkts_run_text (const char *text,
                          gssize len,
                          const char *location,
                          const ArktsReaderOptions *opts,
                          GError **error);
ArktsRun *arkts_run_gzip_text (const char *data,
                               gsize len,
                               const char *location,
                               const ArktsReaderOptions *opts,
                               GError **error);
void arkts_run_free (ArktsRun *run);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ArktsRun, arkts_run_free)

guint arkts_run_count (ArktsRun *run,
                       TraceEventKind kind,
                       const char *name);
const TraceEvent *arkts_run_find (ArktsRun *run,
                                  TraceEventKind kind,
                                  const char *name,
                                  guint nth);
const char *arkts_run_name (ArktsRun *run,
                            const TraceEvent *ev);
const TraceArg *arkts_run_arg (ArktsRun *run,
                               const TraceEvent *ev,
                               const char *key);
gint64 arkts_run_arg_int (ArktsRun *run,
                          const TraceEvent *ev,
                          const char *key);
const char *arkts_run_arg_string (ArktsRun *run,
                                  const TraceEvent *ev,
                                  const char *key);
char *arkts_run_args_text (ArktsRun *run,
                           const TraceEvent *ev);

JsonNode *arkts_test_parse_file (const char *name);
JsonNode *arkts_test_parse_text (const char *text);
char *arkts_test_read_file (const char *name,
                            gsize *len);
