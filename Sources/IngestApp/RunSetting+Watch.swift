import Foundation
import IngestDiscovery

extension RunSetting {
    /// How `watch` follows its folders (`run` has no use for them).
    static let watch: [RunSetting] = [
        .interval(
            "settle", \.watch.settle,
            help:
                "watch: a file found not yet closed, its writer unseen, is read once its size and time have not changed for this long and it is whole. A file closed after writing, or moved in, is read at once; one seen being written waits for its close (past 30 times this, it is read if whole)."
        ),
        .interval(
            "refresh", \.watch.refreshInterval,
            help:
                "watch: how often the server's events and each event's hash set are fetched again. New or changed events start the watch again with them."
        ),
        .choice(
            "poll", \.watch.polling, when: .everywhere,
            help:
                "watch: list every folder every --poll-interval as well, not only those on a share or FUSE mount (where inotify does not see other machines' writes, and folders are polled anyway)."
        ),
        .choice(
            "no-poll", \.watch.polling, when: .never,
            help: "watch: trust inotify everywhere, a share's folders too: nothing is listed on a period.",
            contradicting: "poll"),
        .interval(
            "poll-interval", \.watch.pollInterval,
            help: "watch: how often polled folders are listed: a listing and a stat per file, what a re-run costs."),
    ]
}
