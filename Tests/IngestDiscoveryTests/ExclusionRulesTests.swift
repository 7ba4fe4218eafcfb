import Testing

@testable import IngestDiscovery

@Suite struct ExclusionRulesTests {
    @Test("The default list takes what NAS boxes and file managers leave beside photos, whatever its case")
    func defaults() {
        let rules = ExclusionRules()
        for (name, rule) in [
            ("@eaDir", "@eaDir"), ("SYNOPHOTO_THUMB_XL.jpg", "SYNOPHOTO_THUMB_*"), ("#recycle", "#recycle"),
            ("@Recycle", "@Recycle"), (".@__thumb", ".@__thumb"), ("thumbs.db", "Thumbs.db"),
            ("Desktop.ini", "desktop.ini"), (".DS_Store", ".DS_Store"), ("._IMG_0001.JPG", "._*"),
            ("Catalog Previews.lrdata", "*.lrdata"), ("Recently Deleted", "Recently Deleted"),
        ] {
            #expect(rules.rule(name: name, path: "2024/" + name) == rule, "\(name)")
        }
        for name in ["IMG_0001.JPG", "eaDir", "recycle", "Thumbs.db.jpg", "lrdata.jpg", "Deleted"] {
            #expect(rules.rule(name: name, path: name) == nil, "\(name)")
        }
        #expect(ExclusionRules(useDefaults: false).rule(name: "@eaDir", path: "@eaDir") == nil)
    }

    @Test("Every default glob matches its own names in upper and lower case (none lost to the quick byte test)")
    func everyDefaultMatches() {
        let rules = ExclusionRules()
        for rule in ExclusionRules.defaults {
            let name = rule.glob.replacingOccurrences(of: "*", with: "x1")
            for variant in [name, name.uppercased(), name.lowercased()] {
                #expect(rules.rule(name: variant, path: variant) == rule.glob, "\(variant)")
            }
        }
    }

    @Test("--exclude matches names, or paths below the root when it has a slash; --include takes a name back")
    func userGlobs() {
        let rules = ExclusionRules(excludes: ["*.tmp", "drafts/*.jpg"], includes: ["keep.tmp", "._keep.jpg"])
        #expect(rules.rule(name: "a.tmp", path: "x/a.tmp") == "*.tmp")
        #expect(rules.rule(name: "A.TMP", path: "A.TMP") == nil, "a user's glob minds case")
        #expect(rules.rule(name: "keep.tmp", path: "x/keep.tmp") == nil)
        #expect(rules.rule(name: "._keep.jpg", path: "._keep.jpg") == nil, "an --include takes back a default too")
        #expect(rules.rule(name: "a.jpg", path: "drafts/a.jpg") == "drafts/*.jpg")
        #expect(rules.rule(name: "a.jpg", path: "2024/drafts/a.jpg") == nil, "a path glob is anchored at the root")
        #expect(rules.rule(name: "a.jpg", path: "drafts/deeper/a.jpg") == nil, "* does not cross a slash")
    }

    @Test("An ignore file's globs: one a line, comments and blank lines skipped, a leading slash anchors")
    func ignoreFile() {
        let globs = ExclusionRules.globs(inIgnoreFile: "# exports\n\n*.xcf\r\n  /raw/*.tif  \nedits\n")
        #expect(globs == ["*.xcf", "raw/*.tif", "edits"])
        let rules = ExclusionRules()
        #expect(rules.rule(name: "a.xcf", path: "y/z/a.xcf", scopes: [(globs, "z/a.xcf")]) == "*.xcf")
        #expect(rules.rule(name: "a.tif", path: "y/raw/a.tif", scopes: [(globs, "raw/a.tif")]) == "raw/*.tif")
        #expect(rules.rule(name: "a.tif", path: "raw/a.tif", scopes: []) == nil)
    }
}
