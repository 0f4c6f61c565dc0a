// libarchive (Debian: libarchive-dev): reads the zip archives an .ipa is.
#include <archive.h>
#include <archive_entry.h>
