/* replay: runs a libFuzzer target over files given on the command line,
 * without libFuzzer, so `make test` replays the corpora with any compiler. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 2;
		}
		uint8_t *buf = NULL;
		size_t n = 0, cap = 0;
		for (;;) {
			if (n == cap) {
				cap = cap ? cap * 2 : 65536;
				uint8_t *nb = realloc(buf, cap);
				if (!nb) {
					fclose(f);
					free(buf);
					return 2;
				}
				buf = nb;
			}
			size_t got = fread(buf + n, 1, cap - n, f);
			if (!got)
				break;
			n += got;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
	}
	return 0;
}
