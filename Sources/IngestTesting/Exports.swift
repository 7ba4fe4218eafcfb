/// A test imports IngestTesting alone and has the sample files and fixtures too: they live in
/// IngestSamples so that the fuzz harness links them without the destinations' C libraries.
@_exported import IngestSamples
