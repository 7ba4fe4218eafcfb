import Mustache

/// The report's swift-mustache templates. `{{value}}` escapes `& < > " '`, so a file name is text
/// wherever it lands, attributes included (every attribute is quoted). Details show on hover or
/// keyboard focus through CSS alone; the one script makes pictures as their tiles come near the
/// screen (without it, tiles show their outcome's shape).
enum ReportTemplates {
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        do {
            try library.register(Self.page, named: "page")
            try library.register(Self.timeline, named: "timeline")
            try library.register(Self.tile, named: "tile")
        } catch {
            preconditionFailure("a report template does not parse: \(error)")
        }
        return library
    }()

    static let page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>{{title}}</title>
        <style>
        :root { --bg: #fbfbfa; --fg: #1d1d1f; --muted: #5f6368; --card: #ffffff; --line: #d9d9de;
          --window: #e6f0ff; --uploaded: #1e7d34; --duplicate: #1f5fbf; --outside: #b35900; --failed: #c5221f;
          --pending: #6b5ca5; --skipped: #6f6f6f; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #16171a; --fg: #e8e8ea; --muted: #a4a7ad; --card: #222429; --line: #3a3d44;
            --window: #1d2a40; --uploaded: #5fcf7a; --duplicate: #7aa7ff; --outside: #ffa657; --failed: #ff7b72;
            --pending: #b7a6ff; --skipped: #a8a8a8; } }
        * { box-sizing: border-box; }
        body { margin: 0 auto; max-width: 1280px; padding: 1rem 1.5rem 4rem; background: var(--bg); color: var(--fg);
          font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
        h1 { font-size: 1.5rem; margin: .5rem 0; } h2 { font-size: 1.25rem; margin: 2.5rem 0 .25rem; }
        h3 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
        .meta, .note { color: var(--muted); margin: .25rem 0; }
        .summary { font-size: 1.1rem; font-weight: 600; margin: .5rem 0; }
        .counts, .legend { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; padding: 0; margin: .5rem 0; list-style: none; }
        .uploaded { color: var(--uploaded); } .duplicate { color: var(--duplicate); } .outside { color: var(--outside); }
        .failed { color: var(--failed); } .pending { color: var(--pending); } .skipped { color: var(--skipped); }
        .glyph { font-size: 1.1em; margin-right: .2em; }
        .count b { color: var(--fg); }
        svg.timeline { width: 100%; height: auto; background: var(--card); border: 1px solid var(--line); border-radius: 6px; }
        svg .window { fill: var(--window); } svg .lane { stroke: var(--line); } svg text { fill: var(--muted); font-size: 12px; }
        svg .tick { stroke: var(--line); stroke-dasharray: 2 3; }
        svg .mark { fill: currentColor; stroke: currentColor; stroke-width: 1; }
        svg .mark.failed { fill: none; stroke-width: 2.5; } svg .mark.pending { fill: none; stroke-width: 2; }
        svg .span { stroke: currentColor; stroke-width: 1.5; opacity: .2; }
        svg .ring { fill: none; stroke: var(--fg); stroke-width: 1.5; }
        .tiles { content-visibility: auto; contain-intrinsic-size: auto 2400px; display: grid; grid-template-columns: repeat(auto-fill, minmax(168px, 1fr)); gap: .75rem; padding: 0; list-style: none; }
        .tile { position: relative; margin: 0; background: var(--card); border: 1px solid var(--line); border-radius: 6px;
          padding: .4rem; outline-offset: 2px; }
        .tile .picture { display: flex; align-items: center; justify-content: center; height: 150px; }
        .tile img { max-width: 100%; max-height: 150px; object-fit: contain; }
        .tile .none { font-size: 3rem; }
        .tile figcaption { font-size: .8rem; overflow-wrap: anywhere; }
        .tile .name { font-weight: 600; }
        .tile .badge { font-size: .75rem; font-weight: 600; }
        .tile .why { font-size: .75rem; color: var(--muted); }
        .tile .edge { font-size: .75rem; font-weight: 600; color: var(--outside); }
        .tile .more { display: none; position: absolute; z-index: 2; inset: 0; overflow: auto; padding: .5rem;
          background: var(--card); border-radius: 6px; font-size: .78rem; }
        .tile:hover .more, .tile:focus .more, .tile:focus-within .more { display: block; }
        .tile:target { outline: 3px solid var(--fg); }
        dl { margin: 0; } dt { color: var(--muted); } dd { margin: 0 0 .3rem; overflow-wrap: anywhere; }
        </style>
        </head>
        <body>
        <h1>{{title}}</h1>
        <p class="meta">{{destination}} · report made {{generated}}{{#dryRun}} · dry run: nothing was written{{/dryRun}}</p>
        <ul class="legend" aria-label="Outcomes">{{#legend}}<li class="{{css}}"><span class="glyph" aria-hidden="true">{{glyph}}</span>{{label}}</li>{{/legend}}<li><svg width="14" height="14" viewBox="-7 -7 14 14" aria-hidden="true"><circle class="ring" r="6" fill="none" stroke="currentColor"/></svg> near an edge, or inside only in the assumed zone</li></ul>
        {{#leftOut}}<p class="note">{{leftOut}}</p>{{/leftOut}}
        {{#events}}
        <article id="{{anchor}}" class="event">
        <h2>{{name}}</h2>
        <p class="meta">Window: {{window}}</p>
        <p class="summary" data-summary>{{summary}}</p>
        <ul class="counts">{{#counts}}<li class="count {{css}}" data-status="{{css}}" data-count="{{count}}"><span class="glyph" aria-hidden="true">{{glyph}}</span>{{label}}: <b>{{count}}</b></li>{{/counts}}</ul>
        {{#timeline}}{{> timeline}}{{/timeline}}
        {{#undated}}<p class="note">{{undated}}</p>{{/undated}}
        {{#sections}}
        <section class="sheet" id="{{id}}" data-status="{{status}}">
        <h3 class="{{css}}"><span class="glyph" aria-hidden="true">{{glyph}}</span>{{heading}} ({{count}})</h3>
        {{#chunks}}<ul class="tiles">{{#tiles}}{{> tile}}{{/tiles}}</ul>{{/chunks}}
        </section>
        {{/sections}}
        </article>
        {{/events}}
        <script>
        // Pictures are made as their group of tiles nears the screen: 20,000 images at once would
        // keep a browser busy for many seconds (native lazy loading does not spare that here).
        // Those of the first screen are made at once, not on the observer's first callback.
        (() => {
          const show = (group) => group.querySelectorAll(".picture[data-src]:not(.shown)").forEach((holder) => {
            const img = document.createElement("img");
            img.src = holder.dataset.src; img.alt = ""; img.decoding = "async";
            holder.replaceChildren(img); holder.classList.add("shown"); });
          const groups = document.querySelectorAll(".tiles");
          if (!("IntersectionObserver" in window)) { groups.forEach(show); return; }
          const watch = new IntersectionObserver((entries) => entries.forEach((entry) => {
            if (entry.isIntersecting) { show(entry.target); watch.unobserve(entry.target); } }), { rootMargin: "1200px 0px" });
          // The groups on or near the first screen at once, the rest as they come near it.
          const near = (box) => box.bottom > -1200 && box.top < innerHeight + 1200;
          groups.forEach((group) => near(group.getBoundingClientRect()) ? show(group) : watch.observe(group));
        })();
        </script>
        </body>
        </html>

        """

    static let timeline = """
        <figure>
        <svg class="timeline" viewBox="0 0 {{width}} {{height}}" role="img" aria-label="Capture times against the event's window, one row per outcome">
        <rect class="window" x="{{windowX}}" y="4" width="{{windowWidth}}" height="{{windowHeight}}"/>
        {{#lanes}}<line class="lane" x1="0" x2="{{width}}" y1="{{y}}" y2="{{y}}"/><text x="4" y="{{labelY}}">{{label}}</text>
        {{/lanes}}{{#ticks}}<line class="tick" x1="{{x}}" x2="{{x}}" y1="4" y2="{{y}}"/><text x="{{x}}" y="{{y}}" text-anchor="middle" dy="4">{{label}}</text>
        {{/ticks}}{{#marks}}<a href="{{href}}" class="{{css}}">{{#span}}<line class="span" x1="{{x1}}" x2="{{x2}}" y1="{{y}}" y2="{{y}}"/>{{/span}}<path class="mark {{css}}" d="{{shape}}" transform="{{transform}}"/>{{#ring}}<circle class="ring" r="8" transform="{{transform}}"/>{{/ring}}<title>{{title}}</title></a>
        {{/marks}}</svg>
        <figcaption class="note">The shaded band is the event's window (UTC). A bar through a mark spans every instant the photo could have if the zone assumed for it is wrong.{{#offScale}} {{offScale}}{{/offScale}}</figcaption>
        </figure>
        """

    static let tile = """
        <li class="tile" id="{{id}}" tabindex="0" data-name="{{name}}"{{#outsideSeconds}} data-outside-seconds="{{outsideSeconds}}"{{/outsideSeconds}}>
        <div class="picture"{{#src}} data-src="{{src}}"{{/src}} role="img" aria-label="{{alt}}"><span class="none {{css}}" aria-hidden="true">{{glyph}}</span></div>
        <figcaption><div class="name">{{name}}</div><div class="badge {{css}}"><span aria-hidden="true">{{glyph}} </span>{{#detail}}{{detail}}{{/detail}}{{^detail}}{{utc}}{{/detail}}</div>{{#why}}<div class="why">{{why}}</div>{{/why}}{{#nearEdge}}<div class="edge">◎ {{nearEdge}}</div>{{/nearEdge}}</figcaption>
        <div class="more"><dl><dt>File</dt><dd>{{name}}</dd>{{#written}}<dt>Taken (as written)</dt><dd>{{written}}</dd>{{/written}}{{#utc}}<dt>Taken (UTC)</dt><dd>{{utc}}</dd>{{/utc}}<dt>Time from</dt><dd>{{source}}</dd>{{#detail}}<dt>Why</dt><dd>{{detail}}</dd>{{/detail}}</dl></div>
        </li>
        """
}
