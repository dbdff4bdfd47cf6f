/* anomaly: names and descriptions of the anomaly list; see anomaly.h. */
#include "trace/anomaly.h"

static const char *const keys[] = {
#define X(id, key, desc) key,
    TR_ANOMALIES(X)
#undef X
};

static const char *const descs[] = {
#define X(id, key, desc) desc,
    TR_ANOMALIES(X)
#undef X
};

void tr_anomalies_init(struct tr_anomalies *a)
{
	for (int i = 0; i < AN_COUNT; i++) {
		a->count[i] = 0;
		a->first_offset[i] = -1;
	}
}

const char *tr_anomaly_key(enum tr_anomaly k)
{
	return (unsigned)k < AN_COUNT ? keys[k] : "?";
}

const char *tr_anomaly_desc(enum tr_anomaly k)
{
	return (unsigned)k < AN_COUNT ? descs[k] : "?";
}

uint64_t tr_anomalies_total(const struct tr_anomalies *a)
{
	uint64_t n = 0;
	for (int i = 0; i < AN_COUNT; i++)
		n += a->count[i];
	return n;
}
