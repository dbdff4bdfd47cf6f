/* noderawfs: a correction to emscripten 3.1.6's file system for Node
 * (-sNODERAWFS=1), given to emcc as --js-library (it replaces the library
 * function of the same name).
 *
 * dup: emscripten duplicates a descriptor by opening its path again with
 * the flags it was opened with, so the file mkostemp made (O_CREAT |
 * O_EXCL) cannot be duplicated (EEXIST) and one opened with O_TRUNC would
 * be emptied. Reopened here without the flags that create or truncate. */
mergeInto(LibraryManager.library, {
	__syscall_dup: function (fd) {
		var old = SYSCALLS.getStreamFromFD(fd);
		var keep = ~({{{ cDefine('O_CREAT') }}} | {{{ cDefine('O_EXCL') }}} | {{{ cDefine('O_TRUNC') }}});
		return FS.open(old.path, old.flags & keep, 0).fd;
	},
});
