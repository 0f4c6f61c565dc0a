extension HTMLRenderer {
    /// The report's style sheet: light and dark schemes
    /// (`prefers-color-scheme`), and a print layout.
    static let css = """
        :root { color-scheme: light dark; --bg: #fff; --fg: #1d1d1f; --muted: #6e6e73; --line: #d2d2d7;
          --safe: #1a7f37; --unsafe: #c9252d; --apponly: #b26a00; --review: #8250df; --card: #f5f5f7; --link: #0b57d0; }
        @media (prefers-color-scheme: dark) { :root { --bg: #161617; --fg: #f5f5f7; --muted: #a1a1a6; --line: #424245;
          --safe: #3fb950; --unsafe: #ff6b6b; --apponly: #f0a830; --review: #b392f0; --card: #1f1f21; --link: #8ab4f8; } }
        body { font: 14px/1.4 system-ui, sans-serif; background: var(--bg); color: var(--fg); margin: 0 auto; max-width: 1400px; padding: .6em 2em 2em; }
        a { color: var(--link); } h1 { font-size: 1.15em; margin: 0; display: inline; } h2 { font-size: 1.1em; margin: .9em 0 .4em; } h3 { font-size: 1em; margin: 0 0 .2em; }
        header { display: flex; gap: 1em; align-items: baseline; flex-wrap: wrap; } header p.summary { margin: 0; color: var(--muted); }
        code { font: 12px ui-monospace, monospace; word-break: break-word; }
        code.path, .muted, .source, .quiet { color: var(--muted); }
        ul.answers { list-style: none; padding: 0; margin: .6em 0 .3em; font-size: 1.12em; }
        li.answer { margin: .15em 0; } li.answer ul.causes { margin: .1em 0 .2em; padding-left: 1.4em; font-size: .93em; }
        li.answer details.more { margin-left: 1.4em; font-size: .9em; }
        p.quiet { margin: .2em 0; font-size: .92em; }
        .verdict, .severity, .chip small, .reach small, .level { font-weight: 600; padding: .05em .45em; border-radius: 1em; color: #fff; white-space: nowrap; }
        .verdict.extension-safe, .swatch.extension-safe, .chip.extension-safe small { background: var(--safe); }
        .verdict.unsafe, .swatch.unsafe, .chip.unsafe small { background: var(--unsafe); }
        .verdict.app-only, .swatch.app-only, .chip.app-only small { background: var(--apponly); }
        .verdict.incomplete, .swatch.incomplete, .chip.incomplete small { background: var(--muted); }
        .verdict.needs-review, .swatch.needs-review, .chip.needs-review small { background: var(--review); }
        .verdict.not-loaded, .chip.not-loaded small { background: var(--line); color: var(--muted); }
        .use .slices { color: var(--muted); font-size: .9em; }
        .chip, .reach { display: inline-block; border: 1px solid var(--line); border-radius: 1em; padding: 0 .2em 0 .55em; margin: .1em 0; white-space: nowrap; }
        .chip small, .reach small { font-size: .78em; }
        .reach.error small, .level.error, .card.error .severity { background: var(--unsafe); }
        .reach.warning small, .level.warning, .card.warning .severity { background: var(--apponly); }
        .reach.note small, .level.note, .card.note .severity { background: var(--muted); }
        .scroll { overflow-x: auto; } figure { margin: 0; }
        svg.graph text { fill: var(--fg); }
        svg.graph .node polygon { fill: var(--card); stroke-width: 1.5; } svg.graph .node.extension polygon, svg.graph .node.app polygon { stroke-width: 3; }
        svg.graph .node.extension-safe polygon { stroke: var(--safe); } svg.graph .node.unsafe polygon { stroke: var(--unsafe); }
        svg.graph .node.app-only polygon { stroke: var(--apponly); } svg.graph .node.incomplete polygon { stroke: var(--muted); stroke-dasharray: 4 3; }
        svg.graph .node.needs-review polygon { stroke: var(--review); }
        svg.graph .edge path { stroke: var(--muted); } svg.graph .edge polygon { stroke: var(--muted); fill: var(--muted); }
        svg.graph .edge.unsafe path { stroke: var(--unsafe); } svg.graph .edge.unsafe polygon { stroke: var(--unsafe); fill: var(--unsafe); }
        svg.graph .edge text { fill: var(--muted); }
        .legend { color: var(--muted); font-size: .9em; } .swatch { display: inline-block; width: .9em; height: .9em; border-radius: .2em; vertical-align: middle; }
        .legend svg { vertical-align: middle; } line.key { stroke: var(--muted); stroke-width: 1.5; } line.key.dlopen { stroke-dasharray: 5 4; } line.key.unsafe { stroke: var(--unsafe); stroke-width: 2.5; }
        form#filters { display: flex; flex-wrap: wrap; gap: .3em 1.2em; align-items: center; padding: .35em .6em; background: var(--card); border-radius: .5em; margin-bottom: .4em; }
        article.card { border-left: 4px solid var(--line); background: var(--card); margin: .45em 0; padding: .4em .8em; border-radius: .3em; }
        article.card.error { border-color: var(--unsafe); } article.card.warning { border-color: var(--apponly); } article.card.note { border-color: var(--muted); }
        article.card p { margin: .2em 0; } .severity { text-transform: uppercase; font-size: .75em; } .rule { font-weight: 700; } .in, .role { color: var(--muted); font-weight: normal; }
        ul.uses { margin: .2em 0; padding-left: 1.2em; } li.use { margin: .15em 0; } .label { color: var(--muted); font-size: .9em; } .level { font-size: .72em; }
        .use .at .place, .use .at .inlined { color: var(--muted); } .use .at code.line { white-space: pre-wrap; }
        details.more summary, details.group > summary { cursor: pointer; color: var(--link); } details.more.inline { display: inline; } details.more.inline[open] { display: block; }
        p.fixit strong { color: var(--safe); } p.source { font-size: .9em; } a.permalink { color: var(--muted); }
        details.group { margin: .5em 0; padding: .3em .6em; border: 1px solid var(--line); border-radius: .4em; }
        #images summary h2 { display: inline; } #images summary { cursor: pointer; color: var(--muted); }
        table { border-collapse: collapse; width: 100%; } th, td { border-bottom: 1px solid var(--line); padding: .3em .6em; text-align: left; vertical-align: top; }
        th { cursor: pointer; user-select: none; } td.count { text-align: right; font-variant-numeric: tabular-nums; }
        footer { margin-top: 1.5em; border-top: 1px solid var(--line); color: var(--muted); }
        dl.run { display: grid; grid-template-columns: max-content 1fr; gap: .2em 1em; } dl.run dt { font-weight: 600; } dl.run dd { margin: 0; } dl.run ul { margin: 0; padding-left: 1.2em; }
        code.command { color: var(--fg); }
        [hidden] { display: none !important; }
        @media print { body { max-width: none; padding: 0; } form#filters { display: none !important; } article.card { break-inside: avoid; }
          .scroll { overflow: visible; } a { color: inherit; text-decoration: none; } }
        """

    /// Filtering (severity, rule, image, free text, with live counts) and
    /// sorting of the images table. The page is complete without it.
    static let script = """
        (function () {
          "use strict";
          var form = document.getElementById("filters");
          if (form) {
            form.hidden = false;
            var items = Array.prototype.slice.call(document.querySelectorAll("#findings article.card"));
            var reaches = function (item, image) {
              return Array.prototype.some.call(item.querySelectorAll(".reach"), function (chip) { return chip.dataset.image === image; });
            };
            var apply = function () {
              var severities = {};
              form.querySelectorAll("input[name=severity]").forEach(function (box) { severities[box.value] = box.checked; });
              var rule = form.elements.rule.value, image = form.elements.image.value, query = form.elements.q.value.toLowerCase();
              var counts = { error: 0, warning: 0, note: 0 }, shown = 0;
              items.forEach(function (item) {
                var matches = (!rule || item.dataset.rule === rule) && (!image || item.dataset.image === image || reaches(item, image))
                  && (!query || item.textContent.toLowerCase().indexOf(query) >= 0);
                if (matches) { counts[item.dataset.severity] += 1; }
                var visible = matches && severities[item.dataset.severity];
                item.hidden = !visible;
                if (visible) { shown += 1; }
              });
              Object.keys(counts).forEach(function (severity) {
                var label = form.querySelector(".count-" + severity);
                if (label) { label.textContent = counts[severity]; }
              });
              document.querySelectorAll("#findings details.group").forEach(function (group) {
                group.hidden = !group.querySelector("article.card:not([hidden])");
              });
              document.getElementById("shown").textContent = shown + " of " + items.length + " shown";
            };
            form.addEventListener("input", apply);
            form.addEventListener("change", apply);
            apply();
          }
          document.querySelectorAll("table.sortable th").forEach(function (header, column) {
            header.addEventListener("click", function () {
              var body = header.closest("table").tBodies[0];
              var rows = Array.prototype.slice.call(body.rows);
              var ascending = header.dataset.order !== "ascending";
              header.dataset.order = ascending ? "ascending" : "descending";
              rows.sort(function (a, b) {
                var x = a.cells[column].textContent, y = b.cells[column].textContent;
                var result = isNaN(x) || isNaN(y) ? x.localeCompare(y) : x - y;
                return ascending ? result : -result;
              });
              rows.forEach(function (row) { body.appendChild(row); });
            });
          });
        })();
        """
}
