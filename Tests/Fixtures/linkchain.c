// Libraries for the link-resolution tests. Compiled with -DUNSAFE (calls
// kit_shared, which the tests' rule pack denies), -DCLEAN, or neither (a
// library that only links the others, as DT_NEEDED).
#ifdef UNSAFE
void kit_shared(void);
void use_kit(void) { kit_shared(); }
#elif defined(CLEAN)
int clean_function(void) { return 1; }
#else
int extension_entry(void) { return 0; }
#endif
