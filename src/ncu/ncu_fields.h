/* ncu_fields: the protobuf field numbers of the .ncu-rep messages gpuprof
 * reads, declared once: F(message, field, number, what the field holds).
 * The enum has one constant NCU_<message>_<field> per row; the readers
 * (ncu_read.c, ncu_result.c) compare field numbers with these names only.
 * Fields not listed are skipped. Depends on nothing.
 */
#ifndef GP_NCU_FIELDS_H
#define GP_NCU_FIELDS_H

#define NCU_FIELDS(F)                                                                              \
	/* FileHeader */                                                                           \
	F(FILE, VERSION, 1, "Version")                                                             \
	/* BlockHeader */                                                                          \
	F(BLOCK, NUM_SOURCES, 1, "NumSources")                                                     \
	F(BLOCK, NUM_RESULTS, 2, "NumResults")                                                     \
	F(BLOCK, SESSION, 3, "SessionDetails")                                                     \
	F(BLOCK, STRINGS, 4, "StringTable")                                                        \
	F(BLOCK, PAYLOAD_SIZE, 5, "PayloadSize")                                                   \
	F(BLOCK, PROCESS, 6, "Process")                                                            \
	F(BLOCK, NUM_RANGE_RESULTS, 7, "NumRangeResults")                                          \
	/* SessionDetails */                                                                       \
	F(SESSION, CREATION_TIME, 2, "CreationTime")                                               \
	F(SESSION, HOST, 3, "HostSystemInfo")                                                      \
	F(SESSION, TARGET, 4, "TargetSystemInfo")                                                  \
	F(SESSION, DEVICE, 6, "Devices")                                                           \
	F(SESSION, VERSION, 8, "Versions")                                                         \
	F(SESSION, COMMAND_LINE, 11, "CommandLine")                                                \
	/* SystemInfo */                                                                           \
	F(SYSINFO, OS, 1, "OSName")                                                                \
	F(SYSINFO, BUILD, 2, "Build")                                                              \
	F(SYSINFO, PROCESSOR, 3, "Processor")                                                      \
	F(SYSINFO, ARCH, 4, "Architecture")                                                        \
	F(SYSINFO, COMPUTER, 5, "ComputerName")                                                    \
	F(SYSINFO, PLATFORM, 6, "Platform")                                                        \
	F(SYSINFO, ADDRESSES, 7, "NetworkAddresses")                                               \
	F(ADDRESSES, ADDRESS, 1, "Address")                                                        \
	/* Device, its attributes */                                                               \
	F(DEVICE, ID, 1, "Id")                                                                     \
	F(DEVICE, NAME, 2, "Name")                                                                 \
	F(DEVICE, ATTRIBUTE, 3, "Attributes")                                                      \
	F(ATTR, NAME, 1, "Name")                                                                   \
	F(ATTR, VALUE, 2, "Value")                                                                 \
	/* a tool version of the session */                                                        \
	F(VERSION, PROVIDER, 1, "Provider")                                                        \
	F(VERSION, VERSION, 2, "Version")                                                          \
	/* StringTable */                                                                          \
	F(STRINGS, STRING, 1, "Strings")                                                           \
	/* ProcessInfo */                                                                          \
	F(PROCESS, PID, 1, "ProcessID")                                                            \
	F(PROCESS, HOST, 2, "Hostname")                                                            \
	F(PROCESS, NAME, 3, "ProcessName")                                                         \
	/* SourceData (block payload), and the reference a result holds */                         \
	F(SOURCE, REF, 1, "Reference")                                                             \
	F(SOURCE, BINARY, 4, "Binary")                                                             \
	F(SOURCE, SASS_LEVEL, 5, "SASSLevel")                                                      \
	F(SOURCE, SM_REVISION, 6, "SMRevision")                                                    \
	F(SOURCE, IMPORTED, 8, "ImportedSources")                                                  \
	F(IMPORTED, FILE, 1, "File")                                                               \
	F(IMPORTED_FILE, PATH, 1, "Path")                                                          \
	F(IMPORTED_FILE, TEXT, 2, "Text")                                                          \
	F(SOURCE, FUNCTIONS, 9, "Functions")                                                       \
	F(FUNCTIONS, FUNCTION, 1, "Function")                                                      \
	F(FUNCTION, NAME, 1, "Name")                                                               \
	F(FUNCTION, ENTRY, 2, "EntryAddress")                                                      \
	F(SOURCE_REF, REF, 1, "Reference")                                                         \
	/* MetricValueMessage */                                                                   \
	F(VALUE, STRING, 1, "StringValue")                                                         \
	F(VALUE, FLOAT, 2, "FloatValue")                                                           \
	F(VALUE, DOUBLE, 3, "DoubleValue")                                                         \
	F(VALUE, U32, 4, "Uint32Value")                                                            \
	F(VALUE, U64, 5, "Uint64Value")                                                            \
	/* ProfileResult */                                                                        \
	F(RESULT, THREAD_ID, 1, "ThreadID")                                                        \
	F(RESULT, API_CALL_ID, 2, "APICallID")                                                     \
	F(RESULT, PROGRAM_HANDLE, 3, "ProgramHandle")                                              \
	F(RESULT, KERNEL_ID, 4, "KernelID")                                                        \
	F(RESULT, MANGLED, 5, "KernelMangledName")                                                 \
	F(RESULT, FUNCTION, 6, "KernelFunctionName")                                               \
	F(RESULT, DEMANGLED, 7, "KernelDemangledName")                                             \
	F(RESULT, GRID, 10, "GridSize")                                                            \
	F(RESULT, BLOCK, 11, "BlockSize")                                                          \
	F(RESULT, METRIC, 13, "MetricResults")                                                     \
	F(RESULT, CREATION_TIME, 14, "CreationTime")                                               \
	F(RESULT, SOURCE, 15, "Source")                                                            \
	F(RESULT, SECTION, 17, "Sections")                                                         \
	F(RESULT, RULE, 19, "RuleResults")                                                         \
	F(RESULT, CONTEXT, 22, "Context")                                                          \
	F(RESULT, STREAM, 23, "Stream")                                                            \
	/* Uint64x3 (grid, block) */                                                               \
	F(XYZ, X, 1, "X")                                                                          \
	F(XYZ, Z, 3, "Z")                                                                          \
	/* MetricResult and its instances */                                                       \
	F(METRIC, NAME_ID, 1, "NameId")                                                            \
	F(METRIC, VALUE, 2, "MetricValue")                                                         \
	F(METRIC, INSTANCE, 3, "Instances")                                                        \
	F(METRIC, KIND, 4, "Kind")                                                                 \
	F(INSTANCE, CORR, 1, "CorrelationId")                                                      \
	F(INSTANCE, VALUE, 2, "Value")                                                             \
	/* ProfilerSection (embedded in a result) */                                               \
	F(SECTION, ID, 1, "Identifier")                                                            \
	F(SECTION, NAME, 2, "DisplayName")                                                         \
	F(SECTION, ORDER, 3, "Order")                                                              \
	F(SECTION, HEADER, 4, "Header")                                                            \
	F(SECTION, BODY, 5, "Body")                                                                \
	F(SECTION, METRICS, 6, "Metrics")                                                          \
	F(SECTION, DESCRIPTION, 7, "Description")                                                  \
	F(SECTION, SOURCE_METRICS, 13, "SourceMetrics")                                            \
	F(HEADER, METRIC, 2, "Metrics")                                                            \
	F(METRICS, METRIC, 1, "Metrics")                                                           \
	F(SEC_METRIC, NAME, 1, "Name")                                                             \
	F(SEC_METRIC, LABEL, 2, "Label")                                                           \
	F(SEC_METRIC, SHOW_INSTANCES, 4, "ShowInstances")                                          \
	F(BODY, ITEM, 1, "Items")                                                                  \
	/* ProfilerSectionBodyItem: the item's kind is its field number */                         \
	F(ITEM, TABLE, 1, "Table")                                                                 \
	F(ITEM, BAR_CHART, 2, "BarChart")                                                          \
	F(ITEM, HISTOGRAM, 3, "HistogramChart")                                                    \
	F(ITEM, LINE_CHART, 4, "LineChart")                                                        \
	F(ITEM, GROUP, 5, "Group")                                                                 \
	F(ITEM, ROOFLINE, 6, "RooflineChart")                                                      \
	F(ITEM, SOURCE_TABLE, 7, "SourceTable")                                                    \
	F(ITEM, INSTANCE_TABLE, 8, "MetricInstanceTable")                                          \
	F(ITEM, MEMORY_SHARED_TABLE, 101, "MemorySharedTable")                                     \
	F(ITEM, MEMORY_L1_TABLE, 102, "MemoryL1Table")                                             \
	F(ITEM, MEMORY_L2_TABLE, 103, "MemoryL2Table")                                             \
	F(ITEM, MEMORY_DRAM_TABLE, 104, "MemoryDramTable")                                         \
	F(ITEM, MEMORY_CHART, 105, "MemoryChart")                                                  \
	F(ITEM, MEMORY_L1_CACHE_TABLE, 106, "MemoryL1CacheTable")                                  \
	F(ITEM, MEMORY_L2_CACHE_TABLE, 107, "MemoryL2CacheTable")                                  \
	F(ITEM, NVLINK_TOPOLOGY, 108, "NvlinkTopology")                                            \
	F(ITEM, NVLINK_TABLE, 109, "NvlinkTable")                                                  \
	F(ITEM, NVLINK_TABLE_2, 110, "NvlinkTable (second form)")                                  \
	F(ITEM, MEMORY_L2_EVICT_TABLE, 111, "MemoryL2EvictTable")                                  \
	F(ITEM, NUMA_TABLE, 112, "NumaTable")                                                      \
	F(ITEM, PM_TIMELINE, 113, "PmSamplingTimeline")                                            \
	F(ITEM, FILTER, 200, "Filter")                                                             \
	F(GROUP, ITEM, 1, "Items")                                                                 \
	F(FILTER, MIN_ARCH, 1, "MinArch")                                                          \
	F(FILTER, MAX_ARCH, 2, "MaxArch")                                                          \
	/* inside the item kinds: the label, and where each keeps its metrics */                   \
	F(CHART, LABEL, 1, "Label")                                                                \
	F(TABLE, METRIC, 5, "Metrics")                                                             \
	F(LINE_CHART, METRIC, 4, "Metrics")                                                        \
	F(LINE_CHART, HIGHLIGHT, 5, "Highlight")                                                   \
	F(SOURCE_TABLE, METRIC, 3, "Metrics")                                                      \
	F(INSTANCE_TABLE, COLUMNS, 2, "Columns")                                                   \
	F(INSTANCE_TABLE, ROWS, 3, "Rows")                                                         \
	F(LIST, METRIC, 1, "Metrics")                                                              \
	/* RuleResult, its body, messages and speedups */                                          \
	F(RULE, ID, 1, "Identifier")                                                               \
	F(RULE, NAME, 2, "Name")                                                                   \
	F(RULE, BODY, 3, "Body")                                                                   \
	F(RULE, SECTION_ID, 4, "SectionIdentifier")                                                \
	F(RULE_BODY, ITEM, 1, "Items")                                                             \
	F(RULE_ITEM, MESSAGE, 1, "Message")                                                        \
	F(RULE_ITEM, SPEEDUP, 10, "Speedup")                                                       \
	F(MESSAGE, TEXT, 1, "Message")                                                             \
	F(MESSAGE, TYPE, 2, "Type")                                                                \
	F(MESSAGE, ID, 3, "Id")                                                                    \
	F(MESSAGE, TITLE, 4, "Title")                                                              \
	F(SPEEDUP, TYPE, 1, "SpeedupType")                                                         \
	F(SPEEDUP, VALUE, 2, "Value")

enum ncu_field {
#define NCU_FIELD_(msg, field, num, name) NCU_##msg##_##field = num,
	NCU_FIELDS(NCU_FIELD_)
#undef NCU_FIELD_
};

/* The key byte(s) of field num with wire type w, as they precede a value
 * (a constant expression: usable as a case label). */
#define NCU_KEY(num, w) ((num) << 3 | (w))

#endif
