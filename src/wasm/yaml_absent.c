/* yaml_absent: the WebAssembly build has no libyaml (Debian ships no
 * source of it to compile). These are the calls of yaml.h that
 * nsys/manifest.c makes: parsing fails at the first event with the one
 * message below. */
#include <string.h>
#include <yaml.h>

int yaml_parser_initialize(yaml_parser_t *parser)
{
	memset(parser, 0, sizeof *parser);
	return 1;
}

void yaml_parser_delete(yaml_parser_t *parser)
{
	memset(parser, 0, sizeof *parser);
}

void yaml_parser_set_input_string(yaml_parser_t *parser, const unsigned char *input, size_t size)
{
}

int yaml_parser_parse(yaml_parser_t *parser, yaml_event_t *event)
{
	memset(event, 0, sizeof *event);
	parser->error = YAML_PARSER_ERROR;
	parser->problem = "YAML manifests are not read by the WebAssembly build of gpuprof; "
			  "use the native gpuprof";
	return 0;
}

void yaml_event_delete(yaml_event_t *event)
{
	memset(event, 0, sizeof *event);
}
