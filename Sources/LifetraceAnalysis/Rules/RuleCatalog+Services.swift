import LifetraceCore

extension RuleCatalog {
    /// The rules of a service's lifecycle that code checks (``ServiceRules``), for traces that follow the service
    /// lifecycle; the service model (`Schemas/models/service.json`) declares those its transitions and budgets name.
    static let services: [Rule] = [
        Rule(
            id: .serviceEndedUnasked, severity: .error, title: "service ended before a shutdown was asked",
            source:
                "swift-service-lifecycle, “Service” (https://swiftpackageindex.com/swift-server/swift-service-lifecycle/documentation/servicelifecycle/service): “A service group expects the run method to stay running until the process is terminated … Returning or throwing from this method indicates the service should stop”; “Adopting ServiceLifecycle in libraries”: “returning from it is interpreted as a failure and will lead to the ServiceGroup canceling all other services”; “Adopting ServiceLifecycle in applications”, “Customizing the behavior when a service returns or throws”: the default of successTerminationBehavior and failureTerminationBehavior is cancelGroup. Kubernetes, “Pod Lifecycle” (https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/): a container that exits is restarted according to the Pod's restartPolicy, with an exponential back-off delay (CrashLoopBackOff)",
            explanation:
                "A service's run() returned or threw while nobody had asked it to stop: no signal, no graceful shutdown of its group. With its group's default behaviour (cancelGroup) the group then cancels every other service at once, without a graceful shutdown, and throws ServiceGroupError.serviceFinishedUnexpectedly (or the service's error): in-flight work of the other services is cut, and under an orchestrator the container exits and is restarted, in a crash loop if it keeps happening. The finding says how the service ended and what its group did next. A service whose group ignores its end (TerminationBehavior.ignore: a one-shot job) or shuts down gracefully after its normal return (gracefullyShutdownGroup) ended as configured and is not reported.",
            fix:
                "Keep run() running until graceful shutdown or cancellation (await gracefulShutdown(), or iterate with cancelOnGracefulShutdown()); handle errors inside the service rather than letting them end it; if the service is meant to end (a migration before the server), configure its ServiceConfiguration with successTerminationBehavior: .gracefullyShutdownGroup or .ignore.",
            check: .events([.serviceStopped])),
        Rule(
            id: .killedDuringShutdown, severity: .error, title: "process killed during shutdown",
            source:
                "Kubernetes, “Termination of Pods” (https://kubernetes.io/docs/concepts/workloads/pods/pod-termination/): “Once the grace period has expired, the KILL signal is sent to any remaining processes”; systemd, “systemd.service” (https://www.freedesktop.org/software/systemd/man/latest/systemd.service.html), TimeoutStopSec= and “systemd.kill” (SIGKILL after the stop timeout); swift-service-lifecycle, “Adopting ServiceLifecycle in applications”: “SIGTERM is commonly used to indicate that the application should shutdown. If it does not, then a SIGKILL is sent to force a non-graceful shutdown”",
            explanation:
                "The process's shutdown had begun (a signal, or a service asked to shut down) and the process ended before its service group finished, at or after the end of the grace period (shutdownGrace, 30 s, a service's own if set): its exit was never recorded (LifetraceServiceLifecycle records it, and flushes, when the group's run() returns; without it, the process was gone within a heartbeat interval of its last event) or a supervisor recorded it as SIGKILL. That is how an orchestrator's kill at the end of the grace period looks; the finding names the services still stopping and how long they had been. A kill earlier in the drain is not the orchestrator's and proves nothing of the services: it is how the process ended, not a finding.",
            fix:
                "Make the shutdown finish within the grace period (see LT091): find the service that was still stopping, bound its drain, and set maximumGracefulShutdownDuration below the orchestrator's grace period.",
            check: .process),
        Rule(
            id: .slowServiceReadiness, severity: .error, title: "service start-up over its readiness budget",
            source:
                "systemd, “systemd.service” (https://www.freedesktop.org/software/systemd/man/latest/systemd.service.html), TimeoutStartSec=: “Configures the time to wait for start-up. If a daemon service does not signal start-up completion within the configured time, the service will be considered failed and will be shut down again”; its default is DefaultTimeoutStartSec=, 90 s (systemd-system.conf). Kubernetes, “Pod Lifecycle” (https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/), container probes: a container receives traffic only once its readiness probe succeeds, and a startup probe that keeps failing gets it killed",
            explanation:
                "The service said it is ready (its one readiness call) later after its start than the readiness budget (serviceReady: 90 s by default, systemd's TimeoutStartSec). Under systemd a Type=notify service that has not sent READY=1 by then is considered failed and stopped; under Kubernetes the Pod receives no traffic until it is ready and a startup probe's deadline kills it. A service that never says it is ready is not judged.",
            fix:
                "Move slow set-up (cache warm-up, migrations) after readiness or into its own service, or raise the start timeout (TimeoutStartSec=, the startup probe) and serviceReady for the service in lifetrace.json.",
            check: .events([.serviceReady])),
        Rule(
            id: .shutdownNotActedOn, severity: .error, title: "shutdown request never acted on",
            source:
                "swift-service-lifecycle, “Adopting ServiceLifecycle in applications” (https://swiftpackageindex.com/swift-server/swift-service-lifecycle/documentation/servicelifecycle/adopting-servicelifecycle-in-applications), “Graceful shutdown”: graceful shutdown is opt-in, each service must handle it, and the group waits for a service's run() to return before shutting down the next; “ServiceGroupConfiguration”, maximumGracefulShutdownDuration: “After this time has elapsed graceful shutdown will be escalated to task cancellation”. Kubernetes, “Termination of Pods”: SIGTERM is the process's one warning before SIGKILL",
            explanation:
                "A shutdown request led nowhere. Either a service was asked to shut down gracefully and kept running until its group cancelled it (maximumGracefulShutdownDuration, or a cancellation signal) — it never observes graceful shutdown (no gracefulShutdown(), withGracefulShutdownHandler or cancelOnGracefulShutdown()), so every shutdown costs the whole escalation delay and drops its in-flight work the way cancellation does; or the process received a shutdown signal and no service was ever asked to shut down, nor stopped, while the process went on for the whole grace period (shutdownGrace; a shorter silence before the process ended proves nothing). Under an orchestrator both end in SIGKILL at the end of the grace period.",
            fix:
                "Observe graceful shutdown in the service's run(): stop taking new work on withGracefulShutdownHandler's handler, iterate request streams with cancelOnGracefulShutdown(), or await gracefulShutdown(); list SIGTERM in the group's gracefulShutdownSignals.",
            check: .process),
        Rule(
            id: .serviceShutdownOutOfOrder, severity: .error, title: "service group shut down out of order",
            source:
                "swift-service-lifecycle, “Adopting ServiceLifecycle in applications” (https://swiftpackageindex.com/swift-server/swift-service-lifecycle/documentation/servicelifecycle/adopting-servicelifecycle-in-applications), “Graceful shutdown”: once a signal is received, the group “will gracefully shut down each service one by one in reverse startup order. Importantly, the ServiceGroup is going to wait for the Service/run() method to return before triggering the graceful shutdown of the next service”; its source, Sources/ServiceLifecycle/ServiceGroup.swift: “We have to shutdown the services in reverse. To do this we are going to signal each child task the graceful shutdown and then wait for its exit.”",
            explanation:
                "A service's graceful shutdown was asked out of its group's order: before a service started after it, which was still running and not yet asked (a ServiceGroup asks the last-started first), or while the service asked before it had not yet returned from run() (a ServiceGroup asks the next only once the previous has returned). Services are started in dependency order — a database client before the server that uses it — so a group shutting down otherwise tears down what a running service still needs. The start order is the services' position in their group (group_index on service.start, which LifetraceServiceLifecycle records) or, without it, the order of their service.start events. Not judged once the group escalated to cancellation (a service stopped cancelled, a cancellation signal), which lets the group ask the next service as soon as any returns, nor after the recorder dropped events. An orchestrator that stops services otherwise is configured with serviceShutdownOrder \"any\" in lifetrace.json.",
            fix:
                "Run the services under one ServiceGroup (or RecordedServiceGroup), listed in dependency order, and let its graceful shutdown reach them rather than shutting them down by hand; if the process's orchestrator legitimately stops services in another order, set \"serviceShutdownOrder\": \"any\".",
            check: .events([.serviceShutdown])),
    ]
}
