import Foundation
import IngestTesting

/// A Slurm cluster of one node in a folder of its own: munged, slurmctld and slurmd (Debian's
/// munge and slurm-wlm) with their own key, configuration, state and spool folders, and ports
/// picked free; all stopped when it goes away, whatever happened.
final class SlurmCluster {
    let folder = TemporaryFolder("slurm")
    /// What `sbatch`, `squeue` and `scancel` need to reach this cluster.
    let environment: [String: String]
    /// The daemons' process ids, each run in the foreground as a child of this process, last
    /// started last.
    private var daemons: [pid_t] = []

    /// Why no cluster can start on this machine; nil when one can.
    static var unavailable: String? {
        if getuid() != 0 { return "not root: slurmd and munged here run jobs as root" }
        for tool in ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol"]
        where Self.path(of: tool) == nil {
            return "\(tool) is not installed (scripts/setup installs slurm-wlm and munge)"
        }
        return nil
    }

    /// The tool's path, in the folders Debian installs them to.
    static func path(of tool: String) -> String? {
        ["/usr/sbin", "/usr/bin", "/sbin", "/bin"].map { "\($0)/\(tool)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts the three daemons and waits until the node takes jobs.
    init() throws {
        let root = self.folder.path
        self.environment = ["SLURM_CONF": root + "/slurm.conf"]
        for folder in ["state", "spool"] {
            try FileManager.default.createDirectory(
                atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        var key = [UInt8](repeating: 0, count: 1_024)
        for index in key.indices { key[index] = UInt8.random(in: 0...255) }
        FileManager.default.createFile(
            atPath: root + "/munge.key", contents: Data(key), attributes: [.posixPermissions: 0o400])
        let munge = [
            "--foreground", "--force", "--socket=\(root)/munge.sock", "--key-file=\(root)/munge.key",
            "--pid-file=\(root)/munged.pid", "--log-file=\(root)/munged.log", "--seed-file=\(root)/munge.seed",
        ]
        try self.start("munged", munge, until: "munge.sock")
        let host = try runProgram("hostname", ["-s"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let (controller, node) = (try Self.freePort(), try Self.freePort())
        let configuration = """
            ClusterName=photoingest
            SlurmctldHost=\(host)
            SlurmUser=root
            SlurmdUser=root
            SlurmctldPort=\(controller)
            SlurmdPort=\(node)
            AuthType=auth/munge
            AuthInfo=socket=\(root)/munge.sock
            CredType=cred/munge
            StateSaveLocation=\(root)/state
            SlurmdSpoolDir=\(root)/spool
            SlurmctldPidFile=\(root)/slurmctld.pid
            SlurmdPidFile=\(root)/slurmd.pid
            SlurmctldLogFile=\(root)/slurmctld.log
            SlurmdLogFile=\(root)/slurmd.log
            ProctrackType=proctrack/linuxproc
            TaskPlugin=task/none
            SchedulerType=sched/builtin
            SelectType=select/cons_tres
            SelectTypeParameters=CR_CPU
            ReturnToService=2
            MpiDefault=none
            JobAcctGatherType=jobacct_gather/none
            AccountingStorageType=accounting_storage/none
            NodeName=\(host) NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
            PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP

            """
        try configuration.write(toFile: root + "/slurm.conf", atomically: true, encoding: .utf8)
        try self.start("slurmctld", ["-D", "-i", "-f", root + "/slurm.conf"], until: "slurmctld.pid")
        try self.start("slurmd", ["-D", "-f", root + "/slurm.conf"], until: "slurmd.pid")
        let deadline = Date().addingTimeInterval(30)
        while try self.run("sinfo", ["-h", "-o", "%T"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) != "idle"
        {
            guard Date() < deadline else { throw FixtureError("the Slurm node did not come up: \(self.logs)") }
            usleep(200_000)
        }
    }

    /// Stops the daemons, last started first: SIGTERM, then SIGKILL for one that lingers.
    deinit {
        for daemon in self.daemons.reversed() {
            kill(daemon, SIGTERM)
            var status: Int32 = 0
            let deadline = Date().addingTimeInterval(5)
            while waitpid(daemon, &status, WNOHANG) == 0 {
                if Date() > deadline {
                    kill(daemon, SIGKILL)
                    waitpid(daemon, &status, 0)
                    break
                }
                usleep(50_000)
            }
        }
    }

    /// Runs a Slurm command (`sbatch`, `squeue`, …) against this cluster.
    @discardableResult
    func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try runProgram(
            Self.path(of: tool) ?? tool, arguments, environment: environment.merging(self.environment) { $1 },
            timeout: 180)
    }

    /// The ends of the daemons' logs, for a failure's message.
    var logs: String {
        ["munged.log", "slurmctld.log", "slurmd.log"].map { name in
            let text = (try? String(contentsOfFile: self.folder.path + "/" + name, encoding: .utf8)) ?? ""
            return "\(name): " + text.split(separator: "\n").suffix(5).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Starts a daemon in the foreground (its output in its own log) and waits for the file it
    /// makes once it is up (`ready`, in the cluster's folder).
    ///
    /// Spawned directly, not with Foundation's `Process`: that takes a child's closing the socket
    /// it hands it for its exit, and slurmctld closes every descriptor it inherits; Foundation then
    /// waits on it for good, and every later program the test runs hangs behind it.
    private func start(_ daemon: String, _ arguments: [String], until ready: String) throws {
        let path = Self.path(of: daemon) ?? daemon
        let environment = ProcessInfo.processInfo.environment.merging(self.environment) { $1 }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(
                &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var pid: pid_t = 0
        let failure = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard failure == 0 else { throw FixtureError("\(daemon) did not start: \(String(cString: strerror(failure)))") }
        self.daemons.append(pid)
        let deadline = Date().addingTimeInterval(10)
        var status: Int32 = 0
        while !FileManager.default.fileExists(atPath: self.folder.path + "/" + ready) {
            guard waitpid(pid, &status, WNOHANG) == 0, Date() < deadline else {
                throw FixtureError("\(daemon) did not start: \(self.logs)")
            }
            usleep(50_000)
        }
    }

    /// A TCP port nothing listens on now.
    static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socket, generic, length) == 0 && getsockname(socket, generic, &length) == 0
            }
        }
        guard bound else { throw FixtureError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
