// A library with every kind of symbol the inspector tells apart.
// Built by InspectorTests with versioned.map as its version script.

void *dlopen(const char *file, int mode);   // an import without a version
int dep_func(int);                           // an import versioned DEP_1 (from libdep.so)

int api_v1(int x) { return x + 1; }                        // exported, LIBFIX_1.0
int api_v2(int x) { return x + 2; }                        // exported, LIBFIX_2.0
__attribute__((weak)) int weak_hook(void) { return 0; }    // exported, weak binding
__attribute__((visibility("protected"))) int protected_api(void) { return 3; }
__attribute__((visibility("hidden"))) int hidden_helper(void) { return 4; }  // not exported
int exported_data = 5;                                      // exported OBJECT

const char *activation_rule(void) { return "TRUEPREDICATE"; }  // a string in .rodata
void *load_plugin(void) { return dlopen("libplugin.so", 2) ? (void *)(long)dep_func(hidden_helper()) : 0; }
