/* tracepipe - the benchmark's input generator: the Chrome-shaped JSON input
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gen-synth.h"

/* ---------------------------------------------------------------- chrome */

/* The "chrome" kind: shaped like a trace saved by Chrome (chrome://tracing,
 * DevTools), where the "json" kind above is a plain B/E/X/C mix.  Object
 * form {"traceEvents":[…],"metadata":{…}}; every event with its keys in
 * the alphabetical order of Chrome's exporter and an "args" object (empty
 * on E); integer microsecond ts and dur; M metadata (process and thread
 * names, sort indices); B/E with args; X with dur, and on two threads in
 * three tts/tdur; args with nested objects, arrays, strings (with
 * escapes), integers, fractions, negative numbers, booleans and null; C
 * counters with one or two series; I instants; flows of both versions:
 * v1 "s"/"f" (bp "e") inside open slices with hex-string ids, v2
 * "bind_id" with "flow_out"/"flow_in" on X events.  Timestamps increase
 * strictly in file order (as in Perfetto's JSON export; Chrome's own
 * exporter writes an X at its end, which no importer here depends on).
 * The output is at most N MiB and short of it by less than the bytes of
 * the events that close the open slices and flows.
 */

/* clang-format off */
static const char *const chrome_categories[] = {
  "toplevel", "devtools.timeline", "v8", "blink", "cc", "gpu",
  "disabled-by-default-devtools.timeline", "loading,rail,devtools.timeline",
};
#define N_CHROME_CATEGORIES G_N_ELEMENTS (chrome_categories)

static const char *const chrome_urls[] = {
  "https://example.com/static/js/app.3f9a1c.js",
  "https://cdn.example.net/vendor/react-dom.production.min.js",
  "https://example.com/",
  "chrome-extension://abcdefghijklmnopabcdefghijklmnop/background.js",
};

static const char *const chrome_functions[] = {
  "onClick", "", "dispatchEvent", "requestAnimationFrame callback",
  "Promise.then", "render",
};

static const char *const chrome_posted_from[][2] = {
  { "../../base/task/thread_pool/worker_thread.cc", "RunWorker" },
  { "../../content/browser/renderer_host/render_widget_host_impl.cc", "ForwardInputEvent" },
  { "../../cc/trees/proxy_main.cc", "BeginMainFrame" },
  { "../../mojo/public/cpp/bindings/lib/connector.cc", "PostDispatchNextMessageFromPipe" },
};

static const char *const chrome_counters[] = {
  "JSHeapSize", "UpdateCounters", "FrameRate", "gpu.memory", "ThreadPool.Tasks",
};
/* clang-format on */

#define CHROME_START_US G_GUINT64_CONSTANT (183912345678)
#define CHROME_MAX_FLOWS 16
/* More than any line chrome_put_end() or a closing "f" writes. */
#define CHROME_CLOSE_LINE_MAX 200

typedef struct
{
  Rng rng;
  Thread threads[N_THREADS];
  guint64 tts_us[N_THREADS];  /* thread time, on threads that have it */
  char *names[N_SLICE_NAMES]; /* JSON-escaped */
  gsize name_lens[N_SLICE_NAMES];
  guint64 ts_us;
  guint64 open_slices;
  guint64 events;
  guint64 next_flow_id;
  guint64 v1_flows[CHROME_MAX_FLOWS]; /* "s" written, "f" not yet */
  guint n_v1_flows;
  guint64 v2_flows[CHROME_MAX_FLOWS]; /* "flow_out" written, no "flow_in" yet */
  guint n_v2_flows;
} ChromeTrace;

static inline char *
put_hex (char *p,
         guint64 v,
         int digits)
{
  static const char hex[] = "0123456789abcdef";

  for (int i = digits - 1; i >= 0; i--)
    *p++ = hex[(v >> (4 * i)) & 0xf];
  return p;
}

/* A v1 flow id, "0x1a2b": Chrome's are small counters or pointers. */
static inline char *
put_flow_id (char *p,
             guint64 id)
{
  p = put_lit (p, "\"0x");
  p = put_hex (p, id, id > 0xffff ? 8 : 4);
  *p++ = '"';
  return p;
}

/* A v2 bind_id, "0x9c0a4d6e1b2f3a85": Chrome's are hashes spread over 64
 * bits (splitmix64 of the counter here).  Small v2 ids would also collide
 * with the ids trace_processor numbers v1 flows with (it reports them as
 * flow_duplicate_id), which real traces do not do.
 */
static inline char *
put_bind_id (char *p,
             guint64 id)
{
  guint64 z = id * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  z ^= z >> 31;
  p = put_lit (p, "\"0x");
  p = put_hex (p, z, 16);
  *p++ = '"';
  return p;
}

/* A frame id as Chrome writes it: 32 upper-case hex digits. */
static char *
chrome_put_frame (ChromeTrace *ct,
                  char *p)
{
  char *start = p;

  *p++ = '"';
  p = put_hex (p, rng_next (&ct->rng), 16);
  p = put_hex (p, rng_next (&ct->rng), 16);
  for (char *c = start + 1; c < p; c++)
    if (*c >= 'a')
      *c = (char) (*c - 'a' + 'A');
  *p++ = '"';
  return p;
}

static char *
chrome_put_stack_frame (ChromeTrace *ct,
                        char *p)
{
  p = put_lit (p, "{\"columnNumber\":");
  p = put_uint (p, rng_below (&ct->rng, 120));
  p = put_lit (p, ",\"functionName\":\"");
  p = put_str (p, chrome_functions[rng_below (&ct->rng, G_N_ELEMENTS (chrome_functions))]);
  p = put_lit (p, "\",\"lineNumber\":");
  p = put_uint (p, rng_below (&ct->rng, 20000));
  p = put_lit (p, ",\"scriptId\":\"");
  p = put_uint (p, 10 + rng_below (&ct->rng, 400));
  p = put_lit (p, "\",\"url\":\"");
  p = put_str (p, chrome_urls[rng_below (&ct->rng, G_N_ELEMENTS (chrome_urls))]);
  return put_lit (p, "\"}");
}

/* The "args" member, without a leading comma: one of a few shapes taken
 * from real traces, with random values.
 */
static char *
chrome_put_args (ChromeTrace *ct,
                 char *p)
{
  guint shape = rng_below (&ct->rng, 10);

  p = put_lit (p, "\"args\":");
  switch (shape)
    {
    case 0: /* devtools.timeline FunctionCall */
      p = put_lit (p, "{\"data\":{\"columnNumber\":");
      p = put_uint (p, rng_below (&ct->rng, 200));
      p = put_lit (p, ",\"frame\":");
      p = chrome_put_frame (ct, p);
      p = put_lit (p, ",\"functionName\":\"");
      p = put_str (p, chrome_functions[rng_below (&ct->rng, G_N_ELEMENTS (chrome_functions))]);
      p = put_lit (p, "\",\"isMainFrame\":");
      p = rng_below (&ct->rng, 4) ? put_lit (p, "true") : put_lit (p, "false");
      p = put_lit (p, ",\"lineNumber\":");
      p = put_uint (p, rng_below (&ct->rng, 30000));
      p = put_lit (p, ",\"scriptId\":\"");
      p = put_uint (p, 10 + rng_below (&ct->rng, 400));
      p = put_lit (p, "\",\"url\":\"");
      p = put_str (p, chrome_urls[rng_below (&ct->rng, G_N_ELEMENTS (chrome_urls))]);
      return put_lit (p, "\"}}");
    case 1: /* a network request, with a nested initiator */
      p = put_lit (p, "{\"data\":{\"frame\":");
      p = chrome_put_frame (ct, p);
      p = put_lit (p, ",\"initiator\":{\"lineNumber\":");
      p = put_uint (p, rng_below (&ct->rng, 500));
      p = put_lit (p, ",\"type\":\"parser\",\"url\":\"https://example.com/\"},\"isLinkPreload\":false,\"priority\":\"");
      p = rng_below (&ct->rng, 2) ? put_lit (p, "High") : put_lit (p, "VeryLow");
      p = put_lit (p, "\",\"renderBlocking\":\"non_blocking\",\"requestId\":\"");
      p = put_uint (p, 1000 + rng_below (&ct->rng, 9000));
      *p++ = '.';
      p = put_uint (p, rng_below (&ct->rng, 1000));
      p = put_lit (p, "\",\"requestMethod\":\"GET\",\"url\":\"https://cdn.example.net/img/");
      p = put_uint (p, rng_below (&ct->rng, 100000));
      return put_lit (p, ".webp?w=640&h=480\"}}");
    case 2: /* a stack trace: an array of objects */
      {
        guint frames = 1 + rng_below (&ct->rng, 3);

        p = put_lit (p, "{\"beginData\":{\"frame\":");
        p = chrome_put_frame (ct, p);
        p = put_lit (p, ",\"stackTrace\":[");
        for (guint i = 0; i < frames; i++)
          {
            if (i > 0)
              *p++ = ',';
            p = chrome_put_stack_frame (ct, p);
          }
        p = put_lit (p, "]},\"elementCount\":");
        p = put_uint (p, rng_below (&ct->rng, 5000));
        return put_lit (p, "}");
      }
    case 3: /* a task's origin */
      {
        guint i = rng_below (&ct->rng, G_N_ELEMENTS (chrome_posted_from));

        p = put_lit (p, "{\"task\":{\"posted_from\":{\"file_name\":\"");
        p = put_str (p, chrome_posted_from[i][0]);
        p = put_lit (p, "\",\"function_name\":\"");
        p = put_str (p, chrome_posted_from[i][1]);
        return put_lit (p, "\"}}}");
      }
    case 4: /* numbers of every kind, null, escapes, an array of numbers */
      p = put_lit (p, "{\"delta\":-");
      p = put_uint (p, rng_below (&ct->rng, 1000));
      p = put_lit (p, ",\"path\":\"C:\\\\Program Files\\\\Example\\\\caf\\u00e9 \\\"v2\\\"\",\"ratio\":0.");
      p = put_uint_pad (p, rng_below (&ct->rng, 1000000), 6, '0');
      p = put_lit (p, ",\"scale\":1.5e-");
      p = put_uint (p, 1 + rng_below (&ct->rng, 9));
      p = put_lit (p, ",\"sizes\":[");
      p = put_uint (p, rng_below (&ct->rng, 4096));
      *p++ = ',';
      p = put_uint (p, rng_below (&ct->rng, 4096));
      *p++ = ',';
      p = put_uint (p, rng_below (&ct->rng, 4096));
      return put_lit (p, "],\"token\":null}");
    case 5:
    case 6: /* small, flat */
      p = put_lit (p, "{\"n\":");
      p = put_uint (p, rng_below (&ct->rng, 100));
      return put_lit (p, "}");
    default:
      return put_lit (p, "{}");
    }
}

/* '{"args":…,' (the caller puts what follows args, alphabetically). */
static inline char *
chrome_put_open (char *p)
{
  return put_lit (p, ",\n{");
}

/* '"cat":"…",' */
static inline char *
chrome_put_cat (char *p,
                guint cat)
{
  p = put_lit (p, "\"cat\":\"");
  p = put_str (p, chrome_categories[cat]);
  return put_lit (p, "\",");
}

static inline char *
chrome_put_name (char *p,
                 const ChromeTrace *ct,
                 guint name)
{
  p = put_lit (p, "\"name\":\"");
  p = put_mem (p, ct->names[name], ct->name_lens[name]);
  return put_lit (p, "\",");
}

/* '"ph":"B","pid":612,' */
static inline char *
chrome_put_ph_pid (char *p,
                   char ph,
                   const Thread *th)
{
  p = put_lit (p, "\"ph\":\"");
  *p++ = ph;
  p = put_lit (p, "\",\"pid\":");
  p = put_uint (p, (guint64) th->tgid);
  return put_lit (p, ",");
}

/* '"tid":…,"ts":…}' (no tts) */
static inline char *
chrome_put_tid_ts (char *p,
                   const Thread *th,
                   guint64 ts_us)
{
  p = put_lit (p, "\"tid\":");
  p = put_uint (p, (guint64) th->tid);
  p = put_lit (p, ",\"ts\":");
  p = put_uint (p, ts_us);
  *p++ = '}';
  return p;
}

static char *
chrome_put_end (char *p,
                const ChromeTrace *ct,
                const Thread *th,
                guint64 ts_us,
                guint8 slot)
{
  p = chrome_put_open (p);
  p = put_lit (p, "\"args\":{},");
  p = chrome_put_cat (p, slot >> 5);
  p = chrome_put_name (p, ct, slot & 31);
  p = chrome_put_ph_pid (p, 'E', th);
  return chrome_put_tid_ts (p, th, ts_us);
}

static inline gboolean
chrome_has_tts (int t)
{
  return t % 3 != 2;
}

static char *
chrome_slice (ChromeTrace *ct,
              char *p,
              Thread *th,
              gboolean want_begin)
{
  if (th->depth >= MAX_DEPTH)
    want_begin = FALSE;
  else if (th->depth == 0)
    want_begin = TRUE;

  if (want_begin)
    {
      guint name = rng_below (&ct->rng, N_SLICE_NAMES);
      guint cat = rng_below (&ct->rng, N_CHROME_CATEGORIES);
      guint8 slot = (guint8) (cat << 5 | name);

      th->stack[th->depth++] = slot;
      ct->open_slices++;
      p = chrome_put_open (p);
      p = chrome_put_args (ct, p);
      *p++ = ',';
      p = chrome_put_cat (p, cat);
      p = chrome_put_name (p, ct, name);
      p = chrome_put_ph_pid (p, 'B', th);
      return chrome_put_tid_ts (p, th, ct->ts_us);
    }
  th->depth--;
  ct->open_slices--;
  return chrome_put_end (p, ct, th, ct->ts_us, th->stack[th->depth]);
}

/* A complete leaf slice of 1 to 40 µs; with thread time on most threads,
 * and in one of four a v2 flow leaving or (when one is waiting) arriving.
 */
static char *
chrome_complete (ChromeTrace *ct,
                 char *p,
                 Thread *th)
{
  int t = (int) (th - ct->threads);
  guint dur = 1 + rng_below (&ct->rng, 40);
  guint flow = rng_below (&ct->rng, 8);
  guint64 bind = 0;
  gboolean out = FALSE;

  th->busy_until_us = ct->ts_us + dur + 1;
  if (flow == 0 && ct->n_v2_flows < CHROME_MAX_FLOWS)
    {
      bind = ++ct->next_flow_id;
      ct->v2_flows[ct->n_v2_flows++] = bind;
      out = TRUE;
    }
  else if (flow == 1 && ct->n_v2_flows > 0)
    {
      bind = ct->v2_flows[0];
      memmove (ct->v2_flows, ct->v2_flows + 1, --ct->n_v2_flows * sizeof ct->v2_flows[0]);
    }

  p = chrome_put_open (p);
  p = chrome_put_args (ct, p);
  *p++ = ',';
  if (bind)
    {
      p = put_lit (p, "\"bind_id\":");
      p = put_bind_id (p, bind);
      *p++ = ',';
    }
  p = chrome_put_cat (p, rng_below (&ct->rng, N_CHROME_CATEGORIES));
  p = put_lit (p, "\"dur\":");
  p = put_uint (p, dur);
  *p++ = ',';
  if (bind)
    p = out ? put_lit (p, "\"flow_out\":true,") : put_lit (p, "\"flow_in\":true,");
  p = chrome_put_name (p, ct, rng_below (&ct->rng, N_SLICE_NAMES));
  p = chrome_put_ph_pid (p, 'X', th);
  if (chrome_has_tts (t))
    {
      guint tdur = dur - rng_below (&ct->rng, dur);

      p = put_lit (p, "\"tdur\":");
      p = put_uint (p, tdur);
      p = put_lit (p, ",");
      p = chrome_put_tid_ts (p, th, ct->ts_us);
      p--; /* the '}' */
      p = put_lit (p, ",\"tts\":");
      p = put_uint (p, ct->tts_us[t]);
      *p++ = '}';
      ct->tts_us[t] += tdur + 1;
      return p;
    }
  return chrome_put_tid_ts (p, th, ct->ts_us);
}

static char *
chrome_counter (ChromeTrace *ct,
                char *p,
                const Thread *th)
{
  guint c = rng_below (&ct->rng, G_N_ELEMENTS (chrome_counters));

  p = chrome_put_open (p);
  if (c == 0)
    {
      p = put_lit (p, "\"args\":{\"jsHeapSizeTotal\":");
      p = put_uint (p, 8000000 + rng_below (&ct->rng, 8000000));
      p = put_lit (p, ",\"jsHeapSizeUsed\":");
      p = put_uint (p, 4000000 + rng_below (&ct->rng, 4000000));
      p = put_lit (p, "},");
    }
  else
    {
      p = put_lit (p, "\"args\":{\"value\":");
      p = put_uint (p, rng_below (&ct->rng, 100000));
      if (c == 2)
        {
          p = put_lit (p, ".");
          p = put_uint (p, rng_below (&ct->rng, 10));
        }
      p = put_lit (p, "},");
    }
  p = chrome_put_cat (p, c == 0 ? 6 : 0);
  p = put_lit (p, "\"name\":\"");
  p = put_str (p, chrome_counters[c]);
  p = put_lit (p, "\",");
  p = chrome_put_ph_pid (p, 'C', th);
  return chrome_put_tid_ts (p, th, ct->ts_us);
}

static char *
chrome_instant (ChromeTrace *ct,
                char *p,
                const Thread *th)
{
  p = chrome_put_open (p);
  p = chrome_put_args (ct, p);
  *p++ = ',';
  p = chrome_put_cat (p, rng_below (&ct->rng, N_CHROME_CATEGORIES));
  p = chrome_put_name (p, ct, rng_below (&ct->rng, N_SLICE_NAMES));
  p = chrome_put_ph_pid (p, 'I', th);
  p = put_lit (p, "\"s\":\"t\",");
  return chrome_put_tid_ts (p, th, ct->ts_us);
}

/* A v1 flow event ('s' or 'f'): bound to the slice open on @th. */
static char *
chrome_put_flow_v1 (char *p,
                    const Thread *th,
                    char ph,
                    guint64 id,
                    guint64 ts_us)
{
  p = chrome_put_open (p);
  p = put_lit (p, "\"args\":{},");
  if (ph == 'f')
    p = put_lit (p, "\"bp\":\"e\",");
  p = put_lit (p, "\"cat\":\"disabled-by-default-toplevel.flow\",\"id\":");
  p = put_flow_id (p, id);
  p = put_lit (p, ",\"name\":\"ThreadPool_PostTask\",");
  p = chrome_put_ph_pid (p, ph, th);
  return chrome_put_tid_ts (p, th, ts_us);
}

/* Starts a v1 flow, or ends the oldest; only inside an open slice, which
 * is what binds it (a B/E otherwise).
 */
static char *
chrome_flow (ChromeTrace *ct,
             char *p,
             Thread *th,
             gboolean want_start)
{
  guint64 id;

  if (th->depth == 0)
    return chrome_slice (ct, p, th, TRUE);
  if (ct->n_v1_flows == 0 || (want_start && ct->n_v1_flows < CHROME_MAX_FLOWS))
    {
      id = ++ct->next_flow_id;
      ct->v1_flows[ct->n_v1_flows++] = id;
      return chrome_put_flow_v1 (p, th, 's', id, ct->ts_us);
    }
  id = ct->v1_flows[0];
  memmove (ct->v1_flows, ct->v1_flows + 1, --ct->n_v1_flows * sizeof ct->v1_flows[0]);
  return chrome_put_flow_v1 (p, th, 'f', id, ct->ts_us);
}

/* One event: 40 % B/E, 30 % X, 12 % C, 8 % I, 10 % v1 flow steps; a
 * thread inside an X slice gets a counter instead.
 */
static char *
chrome_event (ChromeTrace *ct,
              char *p)
{
  guint r;
  Thread *th;

  ct->ts_us += 1 + rng_below (&ct->rng, 12);
  r = rng_below (&ct->rng, 100);
  th = &ct->threads[rng_below (&ct->rng, N_THREADS)];
  ct->events++;
  if (th->busy_until_us > ct->ts_us)
    r = 75;
  if (r < 40)
    return chrome_slice (ct, p, th, r < 20);
  if (r < 70)
    return chrome_complete (ct, p, th);
  if (r < 82)
    return chrome_counter (ct, p, th);
  if (r < 90)
    return chrome_instant (ct, p, th);
  return chrome_flow (ct, p, th, r < 95);
}

static char *
chrome_put_metadata (char *p,
                     const Thread *th,
                     const char *what,
                     const char *arg,
                     const char *str_value,
                     int int_value)
{
  p = put_lit (p, "{\"args\":{\"");
  p = put_str (p, arg);
  p = put_lit (p, "\":");
  if (str_value)
    {
      *p++ = '"';
      p = put_str (p, str_value);
      *p++ = '"';
    }
  else
    {
      if (int_value < 0)
        *p++ = '-';
      p = put_uint (p, (guint64) ABS (int_value));
    }
  p = put_lit (p, "},\"cat\":\"__metadata\",\"name\":\"");
  p = put_str (p, what);
  p = put_lit (p, "\",");
  p = chrome_put_ph_pid (p, 'M', th);
  return chrome_put_tid_ts (p, th, 0);
}

static void
chrome_write_metadata (ChromeTrace *ct,
                       Output *out)
{
  char *p = output_line_begin (out);

  output_line_end (out, put_lit (p, "{\"traceEvents\":["));
  for (int t = 0; t < N_THREADS; t++)
    {
      const Thread *th = &ct->threads[t];

      p = output_line_begin (out);
      *p++ = '\n';
      if (th->tid == th->tgid)
        {
          p = chrome_put_metadata (p, th, "process_name", "name", th->comm, 0);
          p = put_lit (p, ",\n");
          p = chrome_put_metadata (p, th, "process_sort_index", "sort_index", NULL, t / THREADS_PER_PROCESS - 2);
          p = put_lit (p, ",\n");
          ct->events += 2;
        }
      p = chrome_put_metadata (p, th, "thread_name", "name", th->comm, 0);
      p = put_lit (p, ",\n");
      p = chrome_put_metadata (p, th, "thread_sort_index", "sort_index", NULL, t % THREADS_PER_PROCESS);
      ct->events += 2;
      if (t + 1 < N_THREADS)
        *p++ = ',';
      output_line_end (out, p);
    }
}

static const char chrome_tail[] =
    "\n],\n\"metadata\":{\"command_line\":\"/opt/google/chrome/chrome --enable-tracing\","
    "\"cpu-brand\":\"AMD EPYC\",\"num-cpus\":8,\"os-name\":\"Linux\","
    "\"product-version\":\"Chrome/120.0.6099.109\",\"trace-config\":\"\","
    "\"trace-capture-datetime\":\"2026-11-25 12:00:00\"}}\n";

static void
chrome_close_all (ChromeTrace *ct,
                  Output *out)
{
  char *p;

  /* Past the end of any X slice still running. */
  ct->ts_us += 100;
  /* The v1 flows still open end in whatever slice is open. */
  for (int t = 0; t < N_THREADS && ct->n_v1_flows > 0; t++)
    {
      Thread *th = &ct->threads[t];

      while (th->depth > 0 && ct->n_v1_flows > 0)
        {
          p = output_line_begin (out);
          ct->ts_us++;
          ct->events++;
          p = chrome_put_flow_v1 (p, th, 'f', ct->v1_flows[--ct->n_v1_flows], ct->ts_us);
          output_line_end (out, p);
        }
    }
  for (int t = 0; t < N_THREADS; t++)
    {
      Thread *th = &ct->threads[t];

      while (th->depth > 0)
        {
          p = output_line_begin (out);
          ct->ts_us++;
          th->depth--;
          ct->events++;
          p = chrome_put_end (p, ct, th, ct->ts_us, th->stack[th->depth]);
          output_line_end (out, p);
        }
    }
  p = output_line_begin (out);
  output_line_end (out, put_lit (p, chrome_tail));
}

/* Returns the number of events written. */
guint64
gen_chrome (Output *out,
            guint64 target,
            guint64 seed)
{
  g_autofree ChromeTrace *ct = g_new0 (ChromeTrace, 1);
  char *p;

  G_STATIC_ASSERT (N_SLICE_NAMES <= 32 && N_CHROME_CATEGORIES <= 8);
  rng_init (&ct->rng, seed);
  threads_init (ct->threads);
  for (guint i = 0; i < N_SLICE_NAMES; i++)
    {
      ct->names[i] = json_escape (slice_names[i]);
      ct->name_lens[i] = strlen (ct->names[i]);
    }
  for (int t = 0; t < N_THREADS; t++)
    ct->tts_us[t] = 1000 + (guint64) t * 12345;
  ct->ts_us = CHROME_START_US;

  chrome_write_metadata (ct, out);
  /* Room for the events that close what is open, and the tail. */
  while (out->total + (ct->open_slices + ct->n_v1_flows) * CHROME_CLOSE_LINE_MAX + LINE_MAX_BYTES + sizeof chrome_tail < target && !out->error)
    {
      p = output_line_begin (out);
      output_line_end (out, chrome_event (ct, p));
    }
  chrome_close_all (ct, out);
  for (guint i = 0; i < N_SLICE_NAMES; i++)
    g_free (ct->names[i]);
  return ct->events;
}
