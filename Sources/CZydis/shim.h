// Zydis's decoder (Debian: libzydis-dev), for the lengths of x86-64
// instructions without Capstone's text formatting.
#include <Zydis/Decoder.h>
