/* srv_files: the server's table of loaded files (see srv_int.h): adding
 * (the command line's files and uploads), holding and releasing, removal
 * (DELETE /api/file/ID) and the eviction of the least recently used upload
 * when the table is full.
 *
 * Each file is counted: the table holds one reference while it lists the
 * file, each request, window or warming pass using it one more; the counts
 * change under s->mu and the last one out frees the file (outside the
 * lock). So a file removed while an analysis of it runs stays whole until
 * that analysis has answered, and new requests no longer find it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lru.h"
#include "server/srv_int.h"
#include "views/view_nsys_tl.h"

static void file_free(struct srv_file *f)
{
	if (!f)
		return;
	ses_free(f->ses);
	input_free(&f->in); /* an upload's named copy too */
	if (f->ncu_mu) {
		pthread_mutex_destroy(f->ncu_mu);
		free(f->ncu_mu);
	}
	tl_index_free(f->tl);
	nsys_tl_index_free(f->nsys_tl);
	free(f);
}

/* Drops one reference; returns f when it was the last (to free outside the
 * lock), else NULL. Under s->mu. */
static struct srv_file *unref_locked(struct srv_file *f)
{
	return --f->refs == 0 ? f : NULL;
}

struct srv_file *srv_file_find_locked(struct srv *s, int id)
{
	for (int i = 0; i < s->nfiles; i++)
		if (s->files[i]->id == id)
			return s->files[i];
	return NULL;
}

struct srv_file *srv_file_hold(struct srv *s, int id, bool use)
{
	pthread_mutex_lock(&s->mu);
	struct srv_file *f = srv_file_find_locked(s, id);
	if (f) {
		f->refs++;
		if (use)
			f->used = ++s->file_clock;
	}
	pthread_mutex_unlock(&s->mu);
	return f;
}

void srv_file_release(struct srv *s, struct srv_file *f)
{
	if (!f)
		return;
	pthread_mutex_lock(&s->mu);
	struct srv_file *dead = unref_locked(f);
	pthread_mutex_unlock(&s->mu);
	file_free(dead);
}

bool srv_file_get(struct srv *s, int id, struct srv_file *out)
{
	pthread_mutex_lock(&s->mu);
	struct srv_file *f = srv_file_find_locked(s, id);
	if (f)
		*out = *f;
	pthread_mutex_unlock(&s->mu);
	return f != NULL;
}

struct ses *srv_file_ses(struct srv *s, int id)
{
	struct srv_file f;
	return srv_file_get(s, id, &f) ? f.ses : NULL;
}

/* Takes the table's i-th file out; returns it when that was its last
 * reference. Under s->mu. */
static struct srv_file *unlist_locked(struct srv *s, int i)
{
	struct srv_file *f = s->files[i];
	memmove(&s->files[i], &s->files[i + 1], (size_t)(s->nfiles - i - 1) * sizeof *s->files);
	s->nfiles--;
	return unref_locked(f);
}

/* What goes with a file that left the table: its windows and its answers
 * in the cache ("ID/VIEW?..."), then the file itself when unused. */
static void forget(struct srv *s, int id, struct srv_file *dead)
{
	srv_windows_drop(s, id);
	char prefix[24];
	snprintf(prefix, sizeof prefix, "%d/", id);
	lru_drop_prefix(s->cache, prefix);
	file_free(dead);
}

bool srv_file_remove(struct srv *s, int id)
{
	struct srv_file *dead = NULL;
	bool found = false;
	pthread_mutex_lock(&s->mu);
	for (int i = 0; i < s->nfiles && !found; i++)
		if (s->files[i]->id == id) {
			dead = unlist_locked(s, i);
			found = true;
		}
	pthread_mutex_unlock(&s->mu);
	if (found)
		forget(s, id, dead);
	return found;
}

/* Adds f to the table (rc: its id) or says why not. When evict, a full
 * table first lets its least recently used upload go (*gone: its id, and
 * *dead the file when that was its last reference). Under s->mu. */
static int list_locked(struct srv *s, struct srv_file *f, bool evict, int *gone,
		       struct srv_file **dead, struct err *e)
{
	if (s->nfiles >= s->o.max_files && evict) {
		int lru = -1;
		for (int i = 0; i < s->nfiles; i++)
			if (s->files[i]->upload &&
			    (lru < 0 || s->files[i]->used < s->files[lru]->used))
				lru = i;
		if (lru >= 0) {
			*gone = s->files[lru]->id;
			*dead = unlist_locked(s, lru);
		}
	}
	if (s->nfiles >= s->o.max_files)
		return err_set(e, ERR_LIMIT, f->in.name, -1, "too many files (at most %d)",
			       s->o.max_files);
	struct srv_file **v = realloc(s->files, (size_t)(s->nfiles + 1) * sizeof *v);
	if (!v)
		return err_set(e, ERR_NOMEM, f->in.name, -1, "out of memory");
	s->files = v;
	f->id = s->next_id++;
	f->refs = 1;
	f->used = ++s->file_clock;
	s->files[s->nfiles++] = f;
	return f->id;
}

static int add_file(struct srv *s, struct input *in, bool upload, struct err *e)
{
	struct srv_file *f = calloc(1, sizeof *f);
	bool ncu = in->kind == INPUT_NCU;
	if (f && ncu && (f->ncu_mu = malloc(sizeof *f->ncu_mu)))
		pthread_mutex_init(f->ncu_mu, NULL);
	const struct trace *t = input_trace(in);
	int rc = !f || (ncu && !f->ncu_mu) ? err_set(e, ERR_NOMEM, in->name, -1, "out of memory")
		 : t			   ? ses_new(t, &f->ses, e)
					   : 0;
	int gone = 0;
	struct srv_file *dead = NULL;
	if (!rc) {
		f->in = *in;
		f->upload = upload;
		const char *base = strrchr(in->name, '/');
		snprintf(f->name, sizeof f->name, "%s", base ? base + 1 : in->name);
		pthread_mutex_lock(&s->mu);
		rc = list_locked(s, f, upload, &gone, &dead, e);
		pthread_mutex_unlock(&s->mu);
	}
	if (gone)
		forget(s, gone, dead);
	if (rc > 0 && in->kind == INPUT_TRACE)
		srv_warm_add(s, rc);
	if (rc < 0) {
		if (f)
			input_init(&f->in); /* in is freed below */
		file_free(f);
		input_free(in);
	}
	input_init(in); /* the server's now, or freed */
	return rc;
}

int srv_add_file(struct srv *s, struct input *in, struct err *e)
{
	return add_file(s, in, false, e);
}

int srv_add_upload(struct srv *s, struct input *in, struct err *e)
{
	return add_file(s, in, true, e);
}

void srv_files_free(struct srv *s)
{
	for (int i = 0; i < s->nfiles; i++)
		file_free(unref_locked(s->files[i]));
	free(s->files);
	s->files = NULL;
	s->nfiles = 0;
}

enum MHD_Result srv_api_delete(struct srv *s, struct MHD_Connection *c, int id)
{
	char bad[SRV_BAD_PARAM];
	if (srv_unknown_param(c, "", bad))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "DELETE takes no parameter '%s'",
				       bad);
	if (!srv_file_remove(s, id))
		return srv_reply_error(c, MHD_HTTP_NOT_FOUND, "no file %d", id);
	return srv_reply_files(s, c, 0);
}
