/* Round-trip pipelines: helpers shared by the tests of this folder. */
#pragma once

#include "../../test-util.h"

G_BEGIN_DECLS

/* What a view leaves out or reshapes, by the documented losses of the
 * format the events went through (docs/perfetto.md, docs/json.md,
 * the README.md of this folder). */
typedef enum
{
  RT_VIEW_EXACT = 0,
  /* docs/perfetto.md "What does not survive a round trip" */
  RT_VIEW_PERFETTO = 1 << 0,
  /* the perfetto writer's drops, applied to the stream that went in:
   * unmatched async ends, repeated unnestable begins */
  RT_VIEW_PERFETTO_DROPS = 1 << 1,
  /* docs/json.md "Round trips" */
  RT_VIEW_JSON = 1 << 2,
  /* only the kernel records (sched, cpu, ftrace) */
  RT_VIEW_KERNEL_ONLY = 1 << 3,
  /* with RT_VIEW_PERFETTO_DROPS, the stream that went in was Chrome
   * JSON: its legacy async events (S T p F) are not written, as
   * trace_processor ignores them in JSON (docs/perfetto.md) */
  RT_VIEW_PERFETTO_JSON_IN = 1 << 4,
  /* a thread's slices nest as trace_processor's slice stack nests them
   * (implied by RT_VIEW_PERFETTO_DROPS); read back from a Chrome JSON
   * stream's Perfetto output, whose begun slices left inside an ended
   * complete slice have no end: trace_processor cuts them
   * (docs/perfetto.md) */
  RT_VIEW_TP_STACK = 1 << 5,
} RtViewFlags;

/* The stream as a sorted list of facts, one string per event (per slice
 * for begin/end pairs): what a user compares. */
GPtrArray *rt_view (TraceBatch *events,
                    RtViewFlags flags);
void rt_assert_same_view (const char *what,
                          GPtrArray *want,
                          GPtrArray *got);

/* Runs DESCRIPTION (with a `collectsink name=out` if @collect) to EOS;
 * asserts no ERROR. Returns the collected events (or NULL). */
TraceBatch *rt_run (const char *description,
                    gboolean collect);

char *rt_tmpdir (void);
void rt_rmtree (const char *dir);
GPtrArray *rt_corpus_files (const char *folder);
void rt_add_corpus (const char *suite,
                    const char *folder,
                    GTestDataFunc func,
                    gboolean (*skip) (const char *base));
GStrv rt_split_lines (const char *text);
gboolean rt_have_gen_synth (void);
char *rt_gen_synth (const char *dir,
                    const char *kind,
                    const char *name,
                    guint mb,
                    const char *options);

/* The text of one arg value, normalised: integers of any type and
 * numeric strings as decimal, doubles as %.17g, bools as 1/0. */
char *rt_arg_value (TraceBatch *b,
                    const TraceArg *a);
/* "k=v k=v" sorted by key */
char *rt_args_text (TraceBatch *b,
                    const TraceEvent *ev);

/* Slices per thread from begin/end pairs and complete events:
 * (pid, tid, name, ts, dur); open ones have dur -1. */
typedef struct
{
  gint64 pid, tid, ts, dur;
  const char *name;
} RtSlice;
GArray *rt_slices (TraceBatch *events);

TraceBatch *rt_all_kinds (TraceStringPool *pool);

GArray *rt_json_order (const TraceBatch *b);

G_END_DECLS
