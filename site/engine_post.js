// engine_post: appended to the static site's engine (emcc --post-js): the
// file system that reads File objects in slices (WORKERFS), for the worker.
Module['WORKERFS'] = WORKERFS;
