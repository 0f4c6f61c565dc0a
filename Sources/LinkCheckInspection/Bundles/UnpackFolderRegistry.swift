import Dispatch
import Foundation
import LinkCheckImage
import SystemInterface

/// The private folders unpacked and not yet removed, for removal at the
/// end of a run or when a signal stops the process.
final class UnpackFolderRegistry: @unchecked Sendable {
    static let shared = UnpackFolderRegistry()

    private let lock = NSLock()
    private var folders: Set<String> = []
    private var sources: [any DispatchSourceSignal] = []

    /// Runs `make` (which makes a folder and gives its path, or `nil`) and
    /// registers the folder, so that no signal falls between the two.
    func add(_ make: () -> String?) -> String? {
        lock.withLock {
            guard let folder = make() else { return nil }
            folders.insert(folder)
            return folder
        }
    }

    /// Removes `folder` (recursively) if it is still registered.
    func remove(_ folder: String) {
        lock.withLock {
            guard folders.remove(folder) != nil else { return }
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// Runs `body` (a write into a folder) with the lock held, so that a
    /// signal's removal never races it.
    func whileHeld<Value>(_ body: () throws(ArchiveProblem) -> Value) throws(ArchiveProblem) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Takes `signals` through dispatch sources: on one, every folder is
    /// removed with the lock kept (no write can follow), and the signal is
    /// raised again with its default action, unblocked in this thread
    /// (libdispatch blocks the signals it watches); should the process
    /// outlive it, it exits with 128 + the signal's number, as shells
    /// report a process a signal stopped.
    func watchSignals(_ signals: [Int32]) {
        lock.withLock {
            guard sources.isEmpty else { return }
            for number in signals {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [self] in
                    lock.lock()
                    for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
                    folders.removeAll()
                    signal(number, SIG_DFL)
                    var set = sigset_t()
                    sigemptyset(&set)
                    sigaddset(&set, number)
                    pthread_sigmask(SIG_UNBLOCK, &set, nil)
                    raise(number)
                    _exit(128 + number)
                }
                source.resume()
                sources.append(source)
            }
        }
    }
}
