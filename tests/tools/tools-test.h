/* tracepipe tests - shared by the tools suite's files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct
{
  int status; /* exit code, or 128 + signal */
  char *out;
  char *err;
} Run;

void run_free (Run *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Run, run_free)

/* Runs "trace-launch" or "trace-inspect" with extra "KEY=VALUE"
 * environment and NULL-terminated arguments. */
Run *run_tool (const char *tool,
               const char *const *env,
               const char *const *args);
#define RUN(tool, env, ...) run_tool (tool, env, (const char *const[]){ __VA_ARGS__, NULL })

const char *tools_test_empty_dir (void);           /* a plugin folder with nothing in it */
const char *tools_test_scratch_dir (void);         /* for temporary files */
const char *const *tools_test_isolated_env (void); /* no plugins: core elements only */

/* test-interrupt.c: trace-launch running, its pipeline playing */
typedef struct
{
  GSubprocess *process;
  GDataInputStream *out;
  GDataInputStream *err;
} Running;

void tools_test_start_launch (Running *r,
                              const char *const *argv,
                              gboolean no_plugins);
int tools_test_finish_launch (Running *r,
                              char **out,
                              char **err);
/* the number in @column of @element's row of --stats (@column 1: events in) */
guint64 tools_test_stats_value (const char *out,
                                const char *element,
                                guint column);

/* test-output.c: the inflated content of a gzip file (asserts it is complete) */
GBytes *tools_test_gunzip (const char *path);

void add_interrupt_tests (void);
void add_inspect_tests (void);
void add_pipe_tests (void);
void add_readme_tests (void);
void add_info_tests (void);
void add_convert_tests (void);
void add_batch_tests (void);
void add_names_tests (void);
void add_stdin_tests (void);
void add_man_tests (void);
void add_output_tests (void);
void add_filter_tests (void);
void add_stats_tests (void);
void add_progress_tests (void);
void add_controls_tests (void);
void add_tracecmd_tests (void);
void add_streaming_tests (void);
void add_systrace_tests (void);
void add_clocks_tests (void);

G_END_DECLS
