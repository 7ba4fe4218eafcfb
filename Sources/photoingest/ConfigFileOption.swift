import ArgumentParser
import IngestApp

/// `--config FILE`, for every command that reads settings.
struct ConfigFileOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Settings in YAML or TOML (by the file's ending), one key per long option (jobs: 4, or jobs = 4). Default: $PHOTOINGEST_CONFIG, else ~/.config/photoingest/config.yaml or config.toml if it exists. Flags win over PHOTOINGEST_<OPTION> variables, which win over the file.",
            valueName: "file"))
    var config: String?
}
