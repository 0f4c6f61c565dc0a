// See include/mapped_file_guard.h.
#define _GNU_SOURCE
#include "mapped_file_guard.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// One slot per mapping being read: as many as threads inspect at once, with
// room to spare. `start` is set last and cleared first, so the handler never
// sees a half-written slot as guarded.
enum { slot_count = 512 };
static struct {
    atomic_uintptr_t start;
    atomic_uintptr_t end;
    atomic_uint faults;
    atomic_flag taken;
} slots[slot_count];

static struct sigaction previous;
static uintptr_t page_size;
static pthread_once_t installed = PTHREAD_ONCE_INIT;

static void on_sigbus(int signal_number, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int slot = 0; slot < slot_count; slot++) {
        uintptr_t start = atomic_load(&slots[slot].start);
        if (start == 0 || address < start || address >= atomic_load(&slots[slot].end)) continue;
        void *page = (void *)(address & ~(page_size - 1));
        // mmap is a plain system call on Linux, safe in a signal handler.
        if (mmap(page, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
            atomic_fetch_add(&slots[slot].faults, 1);
            return;
        }
    }
    // Not a guarded mapping: what would have happened without this handler.
    if (previous.sa_flags & SA_SIGINFO) {
        previous.sa_sigaction(signal_number, info, context);
    } else if (previous.sa_handler != SIG_IGN && previous.sa_handler != SIG_DFL) {
        previous.sa_handler(signal_number);
    } else {
        // Returning re-runs the faulting access, which now gets the default
        // action (the process ends with SIGBUS).
        signal(SIGBUS, SIG_DFL);
    }
}

static void install(void) {
    page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &previous);
}

int linkcheck_guard_mapping(const void *start, size_t length) {
    if (start == NULL || length == 0) return -1;
    pthread_once(&installed, install);
    for (int slot = 0; slot < slot_count; slot++) {
        if (atomic_flag_test_and_set(&slots[slot].taken)) continue;
        atomic_store(&slots[slot].faults, 0);
        atomic_store(&slots[slot].end, (uintptr_t)start + length);
        atomic_store(&slots[slot].start, (uintptr_t)start);
        return slot;
    }
    return -1;
}

unsigned linkcheck_mapping_faults(int slot) {
    if (slot < 0 || slot >= slot_count) return 0;
    return atomic_load(&slots[slot].faults);
}

unsigned linkcheck_unguard_mapping(int slot) {
    if (slot < 0 || slot >= slot_count) return 0;
    atomic_store(&slots[slot].start, 0);
    atomic_store(&slots[slot].end, 0);
    unsigned faults = atomic_load(&slots[slot].faults);
    atomic_flag_clear(&slots[slot].taken);
    return faults;
}
