// Reading memory-mapped files that may shrink while they are read.
//
// Accessing a page of a file mapping that lies past the file's end raises
// SIGBUS (mmap(2), "Errors"), which happens when a file is truncated in place
// while linkcheck reads it through libelf's ELF_C_READ_MMAP mapping. A mapping
// registered here is guarded: on such a fault the page is replaced by a page
// of zeros (an anonymous MAP_FIXED mapping) and the fault is counted, so the
// reader finishes with zeros instead of the process dying, and its owner then
// reports the file as changed. Faults outside registered mappings go to the
// handler that was installed before.
#ifndef LINKCHECK_MAPPED_FILE_GUARD_H
#define LINKCHECK_MAPPED_FILE_GUARD_H

#include <stddef.h>

/// Guards the `length` bytes at `start` (a file mapping) until
/// `linkcheck_unguard_mapping`. Installs the SIGBUS handler on first use.
/// Returns a slot number, or -1 when every slot is taken (the mapping is then
/// read unguarded, as before).
int linkcheck_guard_mapping(const void *start, size_t length);

/// How many pages of the mapping guarded in `slot` have faulted so far and
/// read as zeros (0 for slot -1).
unsigned linkcheck_mapping_faults(int slot);

/// Ends the guard of `slot` (from `linkcheck_guard_mapping`; -1 is ignored).
/// Returns how many pages of the mapping faulted and were replaced by zeros.
unsigned linkcheck_unguard_mapping(int slot);

#endif
