/* The query splitting of server/srv_query (srv_q_parse, the static site's
 * encoded queries) on hand-written queries: '+' and %XX decoded in keys
 * and values, a key without '=' valueless, empty keys dropped, a bad
 * escape kept as it is, the pair limit. */
#include "server/srv_query.h"
#include "test.h"

void test_srv_query_parse(struct t *t)
{
	char query[] = "find=a%20b+c&flows&x=%zz%4&=v&&px=10&k%3Dy=%3d";
	const char *key[8], *val[8];
	struct srv_query q;
	srv_q_parse(query, &q, key, val, 8);
	CHECK_INT(t, q.n, 5);
	CHECK_STR(t, key[0], "find");
	CHECK_STR(t, val[0], "a b c");
	CHECK_STR(t, key[1], "flows");
	CHECK(t, val[1] == NULL);
	CHECK_STR(t, key[2], "x");
	CHECK_STR(t, val[2], "%zz%4");
	CHECK_STR(t, key[3], "px");
	CHECK_STR(t, val[3], "10");
	CHECK_STR(t, key[4], "k=y");
	CHECK_STR(t, val[4], "=");
	CHECK_STR(t, srv_q_get(&q, "find"), "a b c");
	CHECK(t, srv_q_flag(&q, "flows") == false); /* valueless: no "1", "true" or "" */
	char two[] = "a=1&b=2&c=3";
	srv_q_parse(two, &q, key, val, 2);
	CHECK_INT(t, q.n, 2);
	CHECK_STR(t, key[1], "b");
	char empty[] = "";
	srv_q_parse(empty, &q, key, val, 8);
	CHECK_INT(t, q.n, 0);
}
