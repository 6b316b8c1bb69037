/* Helpers shared by the test programs: small elements defined in tests. */
#pragma once

#include <trace/trace.h>

G_BEGIN_DECLS

/* A sink pad whose readiness a test controls, to stand for a slow or
 * blocked downstream. */
typedef struct
{
  TracePad *pad;
  gboolean ready;
  GQueue batches;
  gboolean eos;
  GMutex lock;
} TestSinkPad;

TestSinkPad *test_sink_pad_new (void);
void test_sink_pad_free (TestSinkPad *tsp);
guint test_sink_pad_count_events (TestSinkPad *tsp);

/* Runs a pipeline's main context until EOS or ERROR reaches its bus, or
 * the timeout; returns the last such message (transfer full). */
TraceMessage *test_run_pipeline (TraceElement *pipeline,
                                 guint timeout_ms);

TraceBatch *test_make_slices (TraceStringPool *pool,
                              gint64 pid,
                              gint64 tid,
                              gint64 first_ts,
                              guint n_pairs);

/* A string arg kept in the batch (TRACE_ARG_TEXT), as json-src keeps a
 * value seen once. */
void test_add_arg_text (TraceBatch *batch,
                        TraceEvent *event,
                        const char *key,
                        const char *value);

void test_register_collect_sink (void);

/* Whether the test runs under valgrind (its preload libraries are in
 * LD_PRELOAD), which cannot resume an access after a SIGBUS handler. */
gboolean test_under_valgrind (void);

/* A thread that lends its spare time (trace_spare_work_lend()), as a
 * file sink's writer thread does between batches; stopping it returns
 * how many pieces of work it did. */
typedef struct _TestLender TestLender;
TestLender *test_lender_start (void);
guint test_lender_get_pieces (TestLender *l);
guint test_lender_stop (TestLender *l);

/* From now on, counts the debug messages whose text holds @needle
 * (a source's "read in place", say) and drops every debug message;
 * others go to GLib's default writer. Once per process. */
void test_watch_debug_messages (const char *needle);
guint test_get_watched_debug_messages (void);
void test_reset_watched_debug_messages (void);

/* Built with AddressSanitizer (gcc says so one way, clang another),
 * which cannot run under an address-space limit. */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_UNDER_ASAN 1
#endif
#endif

/* Limits this process's address space (RLIMIT_AS) to what it has now
 * (VmSize) plus @spare bytes: for a test that runs in a subprocess and
 * shows that an input does not make a reader allocate what it claims. */
void test_limit_address_space (gsize spare);

G_END_DECLS
