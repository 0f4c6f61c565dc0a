// See include/mapped_file_guard.h.
#define _GNU_SOURCE
#include "mapped_file_guard.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// Per thread, so that the handler (which runs on the faulting thread) only
// looks at the state of the thread it interrupted. initial-exec (ELF):
// reading it in a signal handler never allocates. Mach-O has one model of
// its own (thread-local variables through dyld's tlv_get_addr), which
// allocates on a thread's first access: linkcheck_guard_begin makes that
// access before any guarded read, so the handler's, in a guarded read,
// never is the first.
#if defined(__ELF__)
#define LINKCHECK_SIGNAL_SAFE_TLS __attribute__((tls_model("initial-exec")))
#else
#define LINKCHECK_SIGNAL_SAFE_TLS
#endif
static __thread LINKCHECK_SIGNAL_SAFE_TLS unsigned guarded_depth;
static __thread LINKCHECK_SIGNAL_SAFE_TLS unsigned long fault_count;

static struct sigaction previous;
static uintptr_t page_size;
static pthread_once_t installed = PTHREAD_ONCE_INIT;

static void on_sigbus(int signal_number, siginfo_t *info, void *context) {
    // A kernel-raised "no such page in the file" fault (si_code BUS_ADRERR,
    // never the codes of kill or sigqueue) inside a guarded read.
    if (guarded_depth > 0 && info->si_code == BUS_ADRERR && info->si_addr != NULL) {
        void *page = (void *)((uintptr_t)info->si_addr & ~(page_size - 1));
        // mmap is a plain system call on Linux and on Darwin, safe in a
        // signal handler (Darwin's sys/mman.h defines MAP_ANONYMOUS as
        // MAP_ANON). Should Darwin give a fault past a file's end another
        // code than BUS_ADRERR, it goes below, as any other SIGBUS does.
        if (mmap(page, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
            fault_count++;
            return;
        }
    }
    // Anything else: what would have happened without this handler.
    if (previous.sa_flags & SA_SIGINFO) {
        previous.sa_sigaction(signal_number, info, context);
    } else if (previous.sa_handler == SIG_IGN) {
        return;
    } else if (previous.sa_handler != SIG_DFL) {
        previous.sa_handler(signal_number);
    } else {
        signal(SIGBUS, SIG_DFL);
        raise(SIGBUS);
    }
}

static void install(void) {
    page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
    // The previous action is recorded before ours is in place, so the
    // handler never sees it unset.
    sigaction(SIGBUS, NULL, &previous);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, NULL);
}

void linkcheck_guard_begin(void) {
    pthread_once(&installed, install);
    guarded_depth++;
}

void linkcheck_guard_end(void) {
    if (guarded_depth > 0) guarded_depth--;
}

unsigned long linkcheck_guard_faults(void) {
    return fault_count;
}
