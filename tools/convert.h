/* tracepipe tools - trace-convert's parts
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gboolean main_thread;
  char *start;
  char *end;
  char *filter;
  char *to;              /* --to: the output format, whatever OUT is called */
  char *output_template; /* -o */
  gint jobs;             /* -j */
  gboolean verbose, quiet, stats, version;
  char **files;
} ConvertOptions;

/* convert-batch.c: many inputs, each converted by a child trace-convert */
gboolean convert_batch_check_outputs (const char *template,
                                      GPtrArray *inputs);
int convert_batch (const ConvertOptions *o,
                   GPtrArray *inputs);
char *convert_expand_template (const char *template,
                               const char *input);

G_END_DECLS
