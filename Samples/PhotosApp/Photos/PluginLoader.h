/* Loads Plugin.framework at run time on systems that have the capture API
   it needs; returns the number of effects it registered, 0 when it was not
   loaded. */
int load_capture_plugin(double systemVersion);
