// The library versioned.c links against: dep_func is versioned DEP_1
// (dep.map), so versioned.c's import of it carries that version.
int dep_func(int x) { return x * 2; }
