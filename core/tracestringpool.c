/* tracepipe - interned strings shared by a pipeline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "trace/trace.h"

/* Strings live in large chunks that never move; ids index a two-level
 * table whose first level is allocated once, so a reader needs no lock.
 */
#define PAGE_BITS 12
#define PAGE_SIZE (1u << PAGE_BITS)
#define MAX_PAGES (1u << 16)
#define CHUNK_SIZE (256 * 1024)

typedef struct
{
  const char *str;
  guint32 len;
  guint32 id;
} PoolEntry;

struct _TraceStringPool
{
  gint ref_count;
  GMutex lock;
  GHashTable *index; /* PoolEntry* -> itself */
  PoolEntry **pages; /* MAX_PAGES pointers to arrays of PAGE_SIZE entries */
  guint n_strings;
  char *chunk;
  gsize chunk_used;
  GPtrArray *chunks;
};

G_DEFINE_BOXED_TYPE (TraceStringPool, trace_string_pool, trace_string_pool_ref, trace_string_pool_unref)

static inline guint64
load64 (const char *p)
{
  guint64 w;

  memcpy (&w, p, 8);
  return w;
}

static inline guint64
load32 (const char *p)
{
  guint32 w;

  memcpy (&w, p, 4);
  return w;
}

/**
 * trace_string_pool_hash:
 * @str: (array length=len): bytes
 * @len: the number of bytes
 *
 * The hash the pool files its strings by, read a word at a time (a byte
 * at a time was a tenth of json-src's time when it had its own cache's
 * hash so, and the pool's own hash of every new string 1.4 % of a Chrome
 * trace's conversion). An element that keeps a cache of ids in front of
 * the pool may use it for the cache's slots; what a string's id is never
 * depends on it.
 *
 * Returns: the hash of the bytes
 */
guint32
trace_string_pool_hash (const char *str,
                        gsize len)
{
  const guint64 k = G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  guint64 h = len * k;

  if (len >= 8)
    {
      const char *last = str + len - 8;

      for (; str < last; str += 8)
        h = ((h ^ load64 (str)) * k) ^ (h >> 29);
      h = (h ^ load64 (last)) * k; /* overlaps the loop's last word */
    }
  else if (len >= 4)
    h = (h ^ (load32 (str) << 32 | load32 (str + len - 4))) * k;
  else if (len > 0)
    h = (h ^ ((guint64) (guchar) str[0] << 16 | (guint64) (guchar) str[len / 2] << 8 | (guchar) str[len - 1])) * k;
  h ^= h >> 32;
  h *= k;
  return (guint32) (h >> 32);
}

static guint
entry_hash (gconstpointer key)
{
  const PoolEntry *e = key;

  return trace_string_pool_hash (e->str, e->len);
}

static gboolean
entry_equal (gconstpointer a,
             gconstpointer b)
{
  const PoolEntry *ea = a, *eb = b;

  return ea->len == eb->len && memcmp (ea->str, eb->str, ea->len) == 0;
}

static char *
pool_store_bytes (TraceStringPool *pool,
                  const char *str,
                  gsize len)
{
  char *dest;

  if (len + 1 > CHUNK_SIZE / 4)
    {
      /* Large strings get their own chunk so they do not waste the tail. */
      dest = g_malloc (len + 1);
      g_ptr_array_add (pool->chunks, dest);
    }
  else
    {
      if (pool->chunk == NULL || pool->chunk_used + len + 1 > CHUNK_SIZE)
        {
          pool->chunk = g_malloc (CHUNK_SIZE);
          pool->chunk_used = 0;
          g_ptr_array_add (pool->chunks, pool->chunk);
        }
      dest = pool->chunk + pool->chunk_used;
      pool->chunk_used += len + 1;
    }
  memcpy (dest, str, len);
  dest[len] = '\0';
  return dest;
}

static PoolEntry *
pool_add (TraceStringPool *pool,
          const char *str,
          gsize len)
{
  guint id = pool->n_strings;
  guint page = id >> PAGE_BITS;
  PoolEntry *entry;

  if (page >= MAX_PAGES)
    g_error ("string pool: more than %u distinct strings", MAX_PAGES * PAGE_SIZE);
  if (pool->pages[page] == NULL)
    pool->pages[page] = g_new0 (PoolEntry, PAGE_SIZE);

  entry = &pool->pages[page][id & (PAGE_SIZE - 1)];
  entry->str = pool_store_bytes (pool, str, len);
  entry->len = len;
  entry->id = id;
  g_hash_table_add (pool->index, entry);
  /* Publish the entry before the count that makes it visible. */
  g_atomic_int_set ((gint *) &pool->n_strings, id + 1);
  return entry;
}

/**
 * trace_string_pool_new:
 *
 * Returns: (transfer full): a new pool holding only the empty string (id 0)
 */
TraceStringPool *
trace_string_pool_new (void)
{
  TraceStringPool *pool = g_new0 (TraceStringPool, 1);

  pool->ref_count = 1;
  g_mutex_init (&pool->lock);
  pool->index = g_hash_table_new (entry_hash, entry_equal);
  pool->pages = g_new0 (PoolEntry *, MAX_PAGES);
  pool->chunks = g_ptr_array_new_with_free_func (g_free);
  pool_add (pool, "", 0);
  return pool;
}

/**
 * trace_string_pool_get_default:
 *
 * The pool of elements that are not in a pipeline.
 *
 * Returns: (transfer none): the process-wide default pool
 */
TraceStringPool *
trace_string_pool_get_default (void)
{
  static gsize default_pool;

  if (g_once_init_enter (&default_pool))
    g_once_init_leave (&default_pool, (gsize) trace_string_pool_new ());
  return (TraceStringPool *) default_pool;
}

/**
 * trace_string_pool_ref:
 * @pool: a #TraceStringPool
 *
 * Returns: (transfer full): @pool
 */
TraceStringPool *
trace_string_pool_ref (TraceStringPool *pool)
{
  g_return_val_if_fail (pool != NULL, NULL);
  g_atomic_int_inc (&pool->ref_count);
  return pool;
}

/**
 * trace_string_pool_unref:
 * @pool: (transfer full): a #TraceStringPool
 */
void
trace_string_pool_unref (TraceStringPool *pool)
{
  g_return_if_fail (pool != NULL);
  if (!g_atomic_int_dec_and_test (&pool->ref_count))
    return;
  for (guint i = 0; i < MAX_PAGES && pool->pages[i]; i++)
    g_free (pool->pages[i]);
  g_free (pool->pages);
  g_hash_table_unref (pool->index);
  g_ptr_array_unref (pool->chunks);
  g_mutex_clear (&pool->lock);
  g_free (pool);
}

/**
 * trace_string_pool_intern_len:
 * @pool: a #TraceStringPool
 * @str: (array length=len): bytes, not necessarily nul-terminated
 * @len: the number of bytes
 *
 * Returns: the id of the string, the same for equal strings
 */
guint32
trace_string_pool_intern_len (TraceStringPool *pool,
                              const char *str,
                              gsize len)
{
  PoolEntry key = { str, len, 0 };
  PoolEntry *entry;

  /* Called for every string of every event: NULL checks only (no type
   * to check on a plain struct), next to the lock taken anyway. */
  g_return_val_if_fail (pool != NULL, 0);
  g_return_val_if_fail (str != NULL || len == 0, 0);

  if (len == 0)
    return 0;
  g_mutex_lock (&pool->lock);
  entry = g_hash_table_lookup (pool->index, &key);
  if (entry == NULL)
    entry = pool_add (pool, str, len);
  g_mutex_unlock (&pool->lock);
  return entry->id;
}

/**
 * trace_string_pool_intern:
 * @pool: a #TraceStringPool
 * @str: (nullable): a nul-terminated string; %NULL is the empty string
 *
 * Returns: the id of the string
 */
guint32
trace_string_pool_intern (TraceStringPool *pool,
                          const char *str)
{
  /* Per event: trace_string_pool_intern_len() checks @pool when @str is
   * set; nothing more here. */
  return str ? trace_string_pool_intern_len (pool, str, strlen (str)) : 0;
}

/**
 * trace_string_pool_lookup:
 * @pool: a #TraceStringPool
 * @str: (array length=len): bytes
 * @len: the number of bytes
 *
 * Looks a string up without adding it.
 *
 * Returns: its id, or %G_MAXUINT32 when the pool does not hold it
 */
guint32
trace_string_pool_lookup (TraceStringPool *pool,
                          const char *str,
                          gsize len)
{
  PoolEntry key = { str, len, 0 };
  PoolEntry *entry;

  /* Per event, as trace_string_pool_intern_len(): NULL checks only. */
  g_return_val_if_fail (pool != NULL, G_MAXUINT32);
  g_return_val_if_fail (str != NULL || len == 0, G_MAXUINT32);

  if (len == 0)
    return 0;
  g_mutex_lock (&pool->lock);
  entry = g_hash_table_lookup (pool->index, &key);
  g_mutex_unlock (&pool->lock);
  return entry ? entry->id : G_MAXUINT32;
}

/**
 * trace_string_pool_get:
 * @pool: a #TraceStringPool
 * @id: an id returned by this pool
 *
 * Returns: (transfer none): the nul-terminated string, valid while @pool lives
 */
const char *
trace_string_pool_get (TraceStringPool *pool,
                       guint32 id)
{
  /* No check: sinks call this for every string of every event. (An id
   * the pool does not hold gives "".) */
  if (G_UNLIKELY (id >= (guint32) g_atomic_int_get ((gint *) &pool->n_strings)))
    return "";
  return pool->pages[id >> PAGE_BITS][id & (PAGE_SIZE - 1)].str;
}

/**
 * trace_string_pool_get_length:
 * @pool: a #TraceStringPool
 * @id: an id returned by this pool
 *
 * Returns: the length in bytes of string @id
 */
gsize
trace_string_pool_get_length (TraceStringPool *pool,
                              guint32 id)
{
  /* No check, as trace_string_pool_get(): per event. */
  if (G_UNLIKELY (id >= (guint32) g_atomic_int_get ((gint *) &pool->n_strings)))
    return 0;
  return pool->pages[id >> PAGE_BITS][id & (PAGE_SIZE - 1)].len;
}

/**
 * trace_string_pool_get_size:
 * @pool: a #TraceStringPool
 *
 * Returns: how many distinct strings the pool holds
 */
guint
trace_string_pool_get_size (TraceStringPool *pool)
{
  g_return_val_if_fail (pool != NULL, 0);

  return g_atomic_int_get ((gint *) &pool->n_strings);
}
