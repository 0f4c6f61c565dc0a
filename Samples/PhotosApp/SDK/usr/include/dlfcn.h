/* The dynamic loader's interface (<dlfcn.h>), with Darwin's flag values. */
#ifndef _DLFCN_H_
#define _DLFCN_H_

#define RTLD_LAZY 0x1
#define RTLD_NOW 0x2
#define RTLD_LOCAL 0x4
#define RTLD_GLOBAL 0x8

void *dlopen(const char *path, int mode);
void *dlsym(void *handle, const char *symbol);
int dlclose(void *handle);
char *dlerror(void);

#endif
