/* tracepipe tools - trace-info: printing one file's summary
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "info.h"

G_BEGIN_DECLS

typedef struct
{
  const char *path;
  const InfoSummary *summary;
  TraceStringPool *pool;  /* the names' strings */
  GVariant *source_stats; /* the source's STATS message, or NULL */
  const char *detected;   /* auto-src's detected-format, or NULL */
} InfoResult;

void info_print_text (const InfoResult *r,
                      guint top);
void info_print_json (const InfoResult *r,
                      guint top);

G_END_DECLS
