/*
 * libpluginhost.so: loads a codec at run time instead of linking it, so it
 * imports dlopen and dlsym. The library name and the symbol are literals in
 * .rodata. Built for x86_64 and aarch64.
 *
 * Built with -nostdlib and no headers: the prototypes are declared here and
 * the dynamic linker binds them when the library is loaded.
 */

void *dlopen(const char *filename, int flags);
void *dlsym(void *handle, const char *symbol);

#define RTLD_NOW 2

typedef int (*rle_decode_fn)(const unsigned char *, int, unsigned char *, int);

/* Returns libcodec's decoder, or 0 when the codec cannot be loaded. */
rle_decode_fn pluginhost_load_decoder(void) {
    void *codec = dlopen("libcodec.so", RTLD_NOW);
    return codec ? (rle_decode_fn)dlsym(codec, "codec_rle_decode") : 0;
}
