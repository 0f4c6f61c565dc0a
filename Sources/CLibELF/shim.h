// libelf and gelf from elfutils (Debian: libelf-dev).
#include <libelf.h>
#include <gelf.h>
#include <elf.h>
