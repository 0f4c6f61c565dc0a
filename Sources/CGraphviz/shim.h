// Graphviz (Debian: libgraphviz-dev): cgraph reads a graph in the DOT
// language, gvc lays it out (the dot engine) and renders it (SVG).
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
