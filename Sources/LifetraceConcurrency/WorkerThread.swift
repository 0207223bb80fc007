#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of its own for one long-running job, joined when the job is done.
///
/// A dedicated thread rather than a dispatch queue: the job blocks while it waits for its consumer, and
/// the consumers (`lifetrace check` reads several files at once) may already occupy every thread of the
/// shared pool.
package final class WorkerThread {
    #if canImport(Darwin)
    private var thread: pthread_t?
    #else
    private var thread = pthread_t()
    #endif
    private var joined = false

    /// Starts `body` on a new thread.
    package init(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Job(body)).toOpaque()
        #if canImport(Darwin)
        let status = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Job>.fromOpaque(context).takeRetainedValue().body()
                return nil
            }, context)
        #else
        let status = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, context)
        #endif
        precondition(status == 0, "pthread_create failed: \(status)")
    }

    /// Waits for the job to finish; later calls return at once.
    package func join() {
        guard !joined else { return }
        joined = true
        #if canImport(Darwin)
        pthread_join(thread!, nil)
        #else
        pthread_join(thread, nil)
        #endif
    }

    deinit {
        join()
    }

    private final class Job {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
