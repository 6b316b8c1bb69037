/* tracepipe tests - the robustness suite: trace-launch as a user runs it
 *
 * Every test starts the built trace-launch (env TRACE_LAUNCH) as a child
 * process and checks what a user would: the exit code, the text on
 * stderr, the files left behind, and that an output parses.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* What to change in the child before it runs trace-launch. */
typedef enum
{
  RB_SETUP_NONE = 0,
  RB_SETUP_NO_DAC_OVERRIDE = 1 << 0, /* root too must obey file modes */
  RB_SETUP_FILE_SIZE_64K = 1 << 1,   /* RLIMIT_FSIZE 64 KiB, SIGXFSZ ignored */
  RB_SETUP_FEW_THREADS = 1 << 2,     /* 256 MiB thread stacks in 1 GiB of address space */
} RbSetup;

typedef struct
{
  int status; /* exit code, or 128 + the signal that killed it */
  char *out;  /* NUL-terminated, but may hold NULs (a binary trace) */
  gsize out_len;
  char *err;
} RbResult;

void rb_result_free (RbResult *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (RbResult, rb_result_free)

/* Runs trace-launch with @args (NULL-terminated, after the program name)
 * to the end; @input, if not NULL, is written to its standard input
 * through a pipe. */
RbResult *rb_run (RbSetup setup,
                  GBytes *input,
                  const char *const *args);
#define RB_RUN(...) rb_run (RB_SETUP_NONE, NULL, (const char *const[]){ __VA_ARGS__, NULL })

/* Built with AddressSanitizer (gcc says so one way, clang another). */
#if defined(__SANITIZE_ADDRESS__)
#define RB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RB_ASAN 1
#endif
#endif

/* Runs trace-launch with @args to the end (stdout is for --stats: small,
 * text) and sets @peak_kib to its peak resident memory (ru_maxrss, KiB).
 * With ASan, the child's quarantine of freed blocks is made small (16 MB
 * instead of 256), so that what is measured is what the reader holds. */
RbResult *rb_run_peak (const char *const *args,
                       guint64 *peak_kib);

/* Runs any program (argv[0] is looked up in PATH). */
RbResult *rb_run_program (RbSetup setup,
                          const char *const *argv);

/* A trace-launch still running. */
typedef struct _RbChild RbChild;

/* Starts trace-launch and returns once the pipeline is PLAYING (its
 * signal handlers are then in place) and @delay_ms more have passed. */
RbChild *rb_start (guint delay_ms,
                   const char *const *args);
void rb_child_signal (RbChild *child,
                      int signal);
/* The next line of its stderr (waits for it); free with g_free(). */
char *rb_child_read_err_line (RbChild *child);
/* Waits for the end; frees @child. */
RbResult *rb_child_finish (RbChild *child);

/* A new empty folder for one test, removed (with what is in it) by
 * rb_scratch_cleanup(). */
char *rb_scratch_dir (void);
void rb_scratch_cleanup (const char *dir);

/* The names in @dir, hidden ones too, sorted, joined by " ". */
char *rb_list_dir (const char *dir);

/* The value of @key in @element's row of `--stats` output: a fixed
 * column ("events-in", "events-out") or a details key ("bytes-read");
 * fails the test if absent. */
/* stderr without the --stats table that ends it: the messages only */
char *rb_messages (const char *err);
#define rb_assert_messages(err, expected)           \
  G_STMT_START                                      \
  {                                                 \
    g_autofree char *messages_ = rb_messages (err); \
    g_assert_cmpstr (messages_, ==, expected);      \
  }                                                 \
  G_STMT_END
guint64 rb_stat (const char *out,
                 const char *element,
                 const char *key);
gboolean rb_has_stat (const char *out,
                      const char *element,
                      const char *key);

/* Parses a JSON trace with json-glib (fails the test if it does not
 * parse or has no traceEvents array); returns the number of events. */
guint rb_json_trace_events (const char *path);

/* Reads a Perfetto trace back with `perfetto-src ! fakesink` (fails the
 * test on an error or any WARNING, e.g. a cut last packet); returns the
 * events read. */
guint64 rb_perfetto_trace_events (const char *path);

/* A file of tests/data/. */
char *rb_data_path (const char *area,
                    const char *name);
GBytes *rb_read_file (const char *path);
void rb_write_file (const char *path,
                    const void *data,
                    gsize len);
/* gzip (RFC 1952) of @data. */
GBytes *rb_gzip (GBytes *data);

/* A systrace text file of about @mb MiB made by gen-synth (env
 * GEN_SYNTH), cached for the whole run. */
const char *rb_generated_systrace (guint mb);

void rb_add_fault_tests (void);
void rb_add_input_tests (void);
void rb_add_accounting_tests (void);
void rb_add_memory_tests (void);
void rb_add_graph_tests (void);
void rb_add_core_fault_tests (void);
void rb_add_gzip_tests (void);
void rb_add_damage_tests (void);
void rb_add_htrace_tests (void);

G_END_DECLS
