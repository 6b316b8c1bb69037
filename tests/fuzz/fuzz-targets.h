/* tracepipe fuzzing - the bodies of the fuzz targets
 *
 * Each function reads one input the way its element would, to the end,
 * and frees everything. The libFuzzer executables (fuzz-main.c) call one
 * of them per input; the regression test (test-fuzz-regressions.c) calls
 * them on the files of tests/data/fuzz-regressions/ without the fuzzer,
 * so a crash found once stays fixed in every build.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <trace/trace.h>

G_BEGIN_DECLS

typedef void (*FuzzTargetFunc) (const guint8 *data,
                                gsize size);

typedef struct
{
  const char *name; /* the executable is fuzz-NAME */
  const char *area; /* the folder of tests/data/ (seeds) and of the regressions */
  FuzzTargetFunc func;
} FuzzTarget;

void fuzz_ftrace_reader (const guint8 *data, gsize size);
void fuzz_ftrace_lines (const guint8 *data, gsize size);
void fuzz_json_reader (const guint8 *data, gsize size);
void fuzz_json_threads (const guint8 *data, gsize size);
void fuzz_arkts_reader (const guint8 *data, gsize size);
void fuzz_perfetto_reader (const guint8 *data, gsize size);
void fuzz_perfetto_compressed (const guint8 *data, gsize size);
void fuzz_htrace_reader (const guint8 *data, gsize size);
void fuzz_htrace_records (const guint8 *data, gsize size);
void fuzz_rhea_repair (const guint8 *data, gsize size);
void fuzz_launch (const guint8 *data, gsize size);
void fuzz_launch_graph (const guint8 *data, gsize size);

/* The pool the readers intern into (a new reference). */
TraceStringPool *fuzz_get_pool (void);

/* One-time set-up shared by every target (GLib's log handling). */
void fuzz_init (void);

G_END_DECLS
