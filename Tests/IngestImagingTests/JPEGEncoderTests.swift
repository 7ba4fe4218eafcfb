import Foundation
import IngestCore
import IngestTesting
import Testing

@testable import IngestImaging

@Suite struct JPEGEncoderTests {
    let folder = TemporaryFolder("jpeg-encoder")

    init() throws {
        try ImagingLibrary.bootstrap()
    }

    /// Pixels with edges, gradients and noise (a fixed seed), so that every quantisation and
    /// Huffman table is exercised: `bands` bytes a pixel.
    func pixels(width: Int, height: Int, bands: Int) -> [UInt8] {
        var random = SplitMix64(seed: UInt64(width * 31 + height * 7 + bands))
        var pixels = [UInt8](repeating: 0, count: width * height * bands)
        for y in 0..<height {
            for x in 0..<width {
                for band in 0..<bands {
                    let edge = (x / 17 + y / 13) % 2 == 0 ? 60 : 0
                    let gradient = (x * 255 / max(width, 1) + y * 128 / max(height, 1) + band * 40) % 200
                    pixels[(y * width + x) * bands + band] = UInt8(
                        truncatingIfNeeded: edge + gradient + Int(random.next() % 24))
                }
            }
        }
        return pixels
    }

    /// The pixels as a PGM (grey) or PPM (RGB) file, which libvips reads as they are.
    func netpbm(_ pixels: [UInt8], width: Int, height: Int, bands: Int, name: String) throws -> URL {
        let url = self.folder.appending(name)
        try Data(Array("P\(bands == 1 ? 5 : 6)\n\(width) \(height)\n255\n".utf8) + pixels).write(to: url)
        return url
    }

    @Test(
        "The bytes are libvips's jpegsave's with Q and strip, grey and RGB, odd sizes, 4:2:0 below quality 90 and full chroma from 90",
        arguments: [(1, 82), (3, 82), (3, 50), (3, 90), (3, 97), (1, 95)])
    func bytesAreLibvipsJpegsaves(bands: Int, quality: Int) throws {
        for (width, height) in [(1, 1), (37, 23), (500, 375), (203, 611)] {
            let pixels = self.pixels(width: width, height: height, bands: bands)
            let source = try self.netpbm(pixels, width: width, height: height, bands: bands, name: "in-\(width).pnm")
            let reference = self.folder.appending("libvips-\(width).jpg")
            try Fixtures.check(
                runProgram("vips", ["jpegsave", source.path, reference.path, "--Q", "\(quality)", "--strip"]))
            let encoded = try pixels.withUnsafeBufferPointer { buffer in
                try JPEGEncoder.encode(
                    buffer.baseAddress!, width: width, height: height, bands: bands, stride: width * bands,
                    quality: quality)
            }
            #expect(
                encoded == Array(try Data(contentsOf: reference)), "\(width)×\(height), \(bands) bands, Q \(quality)")
        }
    }

    @Test("Rows are read `stride` bytes apart: padding after each row is never encoded")
    func strideSkipsPadding() throws {
        let (width, height) = (45, 31)
        let pixels = self.pixels(width: width, height: height, bands: 3)
        let rowBytes = width * 3
        var padded: [UInt8] = []
        for row in 0..<height {
            padded += pixels[row * rowBytes..<(row + 1) * rowBytes] + [UInt8](repeating: 0xEE, count: 9)
        }
        let tight = try pixels.withUnsafeBufferPointer {
            try JPEGEncoder.encode(
                $0.baseAddress!, width: width, height: height, bands: 3, stride: rowBytes, quality: 82)
        }
        let loose = try padded.withUnsafeBufferPointer {
            try JPEGEncoder.encode(
                $0.baseAddress!, width: width, height: height, bands: 3, stride: rowBytes + 9, quality: 82)
        }
        #expect(loose == tight)
    }

    @Test("A JPEG libjpeg cannot write is an error with libjpeg's reason, and the next encode works")
    func failureCarriesTheReason() throws {
        let pixels = [UInt8](repeating: 128, count: 3)
        #expect {
            try pixels.withUnsafeBufferPointer {
                try JPEGEncoder.encode($0.baseAddress!, width: 0, height: 1, bands: 3, stride: 3, quality: 82)
            }
        } throws: { error in
            guard let error = error as? IngestError else { return false }
            return error.code == .encodeFailed && error.message.contains("Empty JPEG image")
        }
        let encoded = try pixels.withUnsafeBufferPointer {
            try JPEGEncoder.encode($0.baseAddress!, width: 1, height: 1, bands: 3, stride: 3, quality: 82)
        }
        #expect(encoded.starts(with: [0xFF, 0xD8]) && encoded.suffix(2) == [0xFF, 0xD9])
    }
}
