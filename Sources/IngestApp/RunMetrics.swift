import Foundation
import IngestCore
import IngestDiscovery
import IngestOutcome
import IngestPipeline
import Metrics
import Prometheus
import SystemPackage

/// `--metrics-file`: the last run in Prometheus text format, for node_exporter's textfile
/// collector. Made with swift-metrics gauges on a swift-prometheus registry; the file is replaced
/// atomically (written beside it, synced, renamed), so the collector never reads half of it.
struct RunMetrics {
    let registry = PrometheusCollectorRegistry()
    var factory: PrometheusMetricsFactory { PrometheusMetricsFactory(registry: self.registry) }

    func gauge(_ name: String, _ value: Double, _ labels: [(String, String)] = []) {
        Gauge(label: "photoingest_" + name, dimensions: labels, factory: self.factory).record(value)
    }

    /// The run's figures: files by event and outcome, bytes, duration, per-stage busy time, exit
    /// status, and when a run last succeeded (kept from the previous file when this one failed).
    /// A watch still going has no exit status yet (nil): the last success stays the previous one.
    func record(
        reports: [RunReport], bytesRead: Int64, seconds: Double, exitStatus: Int32?, now: Date, previous: String?
    ) {
        for report in reports {
            for status in FileStatus.allCases {
                self.gauge(
                    "last_run_files", Double(report.count(status)),
                    [
                        ("event", report.event.name), ("event_id", report.event.id),
                        ("outcome", status.name(atArchive: report.atArchive)),
                    ])
            }
            // What a stopped run leaves for the next: stopped in flight, and not reached at all.
            self.gauge(
                "last_run_files_left", Double(report.count(.pending) + report.notReached),
                [("event", report.event.name), ("event_id", report.event.id)])
        }
        var stages: [String: Double] = [:]
        for report in reports {
            for stage in StageTimings.Stage.allCases {
                stages[stage.rawValue, default: 0] += report.timings.histogram(stage)?.total ?? 0
            }
        }
        // Busy time: summed over the files each stage worked on, at once on several cores, so
        // the stages together exceed the run's duration; the name says so.
        for (stage, total) in stages { self.gauge("last_run_stage_busy_seconds", total, [("stage", stage)]) }
        self.gauge("last_run_read_bytes", Double(bytesRead))
        self.gauge("last_run_duration_seconds", seconds)
        if let exitStatus { self.gauge("last_run_exit_status", Double(exitStatus)) }
        self.gauge("last_run_timestamp_seconds", now.timeIntervalSince1970)
        let lastSuccess = exitStatus == 0 ? now.timeIntervalSince1970 : previous.flatMap(Self.lastSuccess)
        if let lastSuccess { self.gauge("last_success_timestamp_seconds", lastSuccess) }
    }

    /// A watch's figures: how long files waited from whole to done (the median and 95th
    /// percentile of the last 1,024), how many were measured, how many wait now, and the uploads
    /// sending and queued.
    func record(_ latency: WatchLatency, uploads: UploadCounts?) {
        let figures = latency.figures
        for (quantile, value) in [("0.5", figures.p50), ("0.95", figures.p95)] {
            if let value { self.gauge("watch_wait_seconds", value.seconds, [("quantile", quantile)]) }
        }
        self.gauge("watch_files_measured", Double(figures.measured))
        self.gauge("watch_files_waiting", Double(figures.waiting))
        self.gauge("watch_files_held", Double(latency.held))
        if let uploads {
            self.gauge("uploads_in_flight", Double(uploads.sending), [("state", "sending")])
            self.gauge("uploads_in_flight", Double(uploads.queued), [("state", "queued")])
        }
    }

    /// The last success recorded in an earlier file.
    static func lastSuccess(in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix("photoingest_last_success_timestamp_seconds ") {
            return Double(line.split(separator: " ").last ?? "")
        }
        return nil
    }

    /// Writes the registry's text to `path`, replacing what was there in one rename.
    func write(to path: String) throws(IngestError) {
        let url = URL(fileURLWithPath: path)
        // node_exporter reads only *.prom: the temporary name is not one.
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let bytes = self.registry.emitToBuffer()
        // Left by a run that died between open and rename.
        FileSystem.remove(temporary.path)
        do {
            let file = try OpenFile(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, permissions: 0o644)
            defer { file.close() }
            do {
                // Readable by node_exporter whatever the umask (the unit's is 0027).
                guard fchmod(file.raw, 0o644) == 0 else { throw Errno(rawValue: errno) }
                try file.writeAll(bytes)
                try file.sync()
                try FileSystem.rename(temporary.path, to: path)
            } catch {
                FileSystem.remove(temporary.path)
                throw error
            }
        } catch {
            throw IngestError(.invalidConfiguration, "cannot write the metrics file \(path): \(error)")
        }
    }
}
