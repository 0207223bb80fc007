import Testing

@testable import LifetraceReport

/// The name and labels a process is shown with, spelled as bytes by the encoders.
@Suite struct ExportProcessTests {
    private func process(pid: Int64?, _ origin: ExportProcess.Origin) -> ExportProcess {
        ExportProcess(uuid: 1, pid: 1, title: "com.example.app", systemPID: pid, origin: origin, start: 0)
    }

    @Test func theNameCarriesTheSystemsPidWhereTheTraceHasIt() {
        #expect(process(pid: 4127, .running).name == "com.example.app (pid 4127)")
        #expect(process(pid: -3, .running).name == "com.example.app (pid -3)")
        #expect(process(pid: nil, .running).name == "com.example.app")
    }

    @Test func theLabelsSayWhyItLaunchedThenItsPid() {
        #expect(process(pid: 88, .launched(reason: "user")).labels == ["launch: user", "pid 88"])
        #expect(process(pid: nil, .launched(reason: nil)).labels == ["launch: unknown"])
        #expect(process(pid: 7, .running).labels == ["running when the trace began", "pid 7"])
        #expect(process(pid: 7, .none).labels == [])
        #expect(process(pid: 7, .none).labelCount == 0)
    }
}
