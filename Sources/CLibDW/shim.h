// libdw from elfutils (Debian: libdw-dev): DWARF, for the source lines of ELF images.
#include <elfutils/libdw.h>
#include <dwarf.h>
