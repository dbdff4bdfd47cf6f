/* argtext: element sizes of dtype names; see argtext.h. */
#include "trace/argtext.h"

#include <string.h>

static const struct {
	const char *name;
	int size;
	bool tb; /* in the reference's table */
} elem_sizes[] = {
    {"long int", 8, true},
    {"float", 4, true},
    {"int", 4, true},
    {"c10::Half", 2, true},
    {"c10::BFloat16", 2, true},
    {"unsigned char", 1, true},
    /* "Input type" names of newer PyTorch and the ScalarType names that
     * record_param_comms writes as "dtype" */
    {"long", 8, false},
    {"long long", 8, false},
    {"double", 8, false},
    {"short", 2, false},
    {"signed char", 1, false},
    {"bool", 1, false},
    {"c10::complex<float>", 8, false},
    {"c10::complex<double>", 16, false},
    {"c10::complex<c10::Half>", 4, false},
    {"c10::Float8_e4m3fn", 1, false},
    {"c10::Float8_e5m2", 1, false},
    {"c10::Float8_e4m3fnuz", 1, false},
    {"c10::Float8_e5m2fnuz", 1, false},
    {"Float", 4, false},
    {"Double", 8, false},
    {"Half", 2, false},
    {"BFloat16", 2, false},
    {"Long", 8, false},
    {"Int", 4, false},
    {"Short", 2, false},
    {"Char", 1, false},
    {"Byte", 1, false},
    {"Bool", 1, false},
    {"ComplexFloat", 8, false},
    {"ComplexDouble", 16, false},
    {"Float8_e4m3fn", 1, false},
    {"Float8_e5m2", 1, false},
};

int tr_dtype_size(const char *type, size_t len, bool tb_only)
{
	for (size_t i = 0; i < sizeof elem_sizes / sizeof elem_sizes[0]; i++)
		if ((elem_sizes[i].tb || !tb_only) && strlen(elem_sizes[i].name) == len &&
		    !memcmp(elem_sizes[i].name, type, len))
			return elem_sizes[i].size;
	return 0;
}
