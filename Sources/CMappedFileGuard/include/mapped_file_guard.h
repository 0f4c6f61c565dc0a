// Reading memory-mapped files that may shrink while they are read.
//
// Accessing a page of a file mapping that lies past the file's end raises
// SIGBUS with code BUS_ADRERR (mmap(2), "Errors"), which happens when a file
// is truncated in place while linkcheck reads it through libelf's
// ELF_C_READ_MMAP mapping. While a thread is inside a guarded read, such a
// fault on that thread is absorbed: the page is replaced by a page of zeros
// (an anonymous MAP_FIXED mapping) and counted, so the reader finishes with
// zeros instead of the process dying, and then learns from the count that
// the file changed. Every other SIGBUS (another thread, another code, one
// sent with kill) gets what it would have got without this handler.
#ifndef LINKCHECK_MAPPED_FILE_GUARD_H
#define LINKCHECK_MAPPED_FILE_GUARD_H

/// Starts a guarded read on the calling thread (reads nest). Installs the
/// SIGBUS handler on first use.
void linkcheck_guard_begin(void);

/// Ends the calling thread's innermost guarded read.
void linkcheck_guard_end(void);

/// How many pages have faulted on the calling thread inside guarded reads
/// and were replaced by zeros, since the thread started: compare the value
/// before and after a read.
unsigned long linkcheck_guard_faults(void);

#endif
