extension HTMLRenderer {
    /// The report's style sheet: light and dark schemes
    /// (`prefers-color-scheme`), and a print layout.
    static let css = """
        :root { color-scheme: light dark; --bg: #fff; --fg: #1d1d1f; --muted: #6e6e73; --line: #d2d2d7;
          --safe: #1a7f37; --unsafe: #c9252d; --apponly: #b26a00; --card: #f5f5f7; }
        @media (prefers-color-scheme: dark) { :root { --bg: #161617; --fg: #f5f5f7; --muted: #a1a1a6; --line: #424245;
          --safe: #3fb950; --unsafe: #ff6b6b; --apponly: #f0a830; --card: #1f1f21; } }
        body { font: 14px/1.45 system-ui, sans-serif; background: var(--bg); color: var(--fg); margin: 0 auto; max-width: 1400px; padding: 1em 2em; }
        code { font: 12px ui-monospace, monospace; word-break: break-all; }
        code.path, .muted, .source, .mangled { color: var(--muted); }
        .headline { font-size: 1.3em; font-weight: 600; } .headline.ok { color: var(--safe); } .headline.bad { color: var(--unsafe); }
        dl.run { display: grid; grid-template-columns: max-content 1fr; gap: .2em 1em; } dl.run dt { font-weight: 600; } dl.run ul { margin: 0; padding-left: 1.2em; }
        table { border-collapse: collapse; width: 100%; } th, td { border-bottom: 1px solid var(--line); padding: .35em .6em; text-align: left; vertical-align: top; }
        th { cursor: pointer; user-select: none; } td.count { text-align: right; font-variant-numeric: tabular-nums; }
        .verdict { font-weight: 600; padding: .1em .5em; border-radius: 1em; color: #fff; white-space: nowrap; }
        .verdict.extension-safe, .swatch.extension-safe { background: var(--safe); } .verdict.unsafe, .swatch.unsafe { background: var(--unsafe); }
        .verdict.app-only, .swatch.app-only { background: var(--apponly); } .verdict.incomplete, .swatch.incomplete { background: var(--muted); }
        .scroll { overflow-x: auto; } svg text { font: 12px system-ui, sans-serif; text-anchor: middle; fill: var(--fg); } svg text.sub { fill: var(--muted); font-size: 11px; }
        .node rect { fill: var(--card); stroke-width: 2.5; } .node.extension-safe rect { stroke: var(--safe); } .node.unsafe rect { stroke: var(--unsafe); } .node.app-only rect { stroke: var(--apponly); } .node.incomplete rect { stroke: var(--muted); stroke-dasharray: 4 3; }
        .edge { fill: none; stroke: var(--muted); stroke-width: 1.5; } .edge.dlopen { stroke-dasharray: 5 4; } .arrowhead { fill: var(--muted); }
        .legend { color: var(--muted); margin-top: .5em; } .swatch { display: inline-block; width: 1em; height: 1em; border-radius: .2em; vertical-align: middle; }
        .legend svg { vertical-align: middle; }
        form#filters { display: flex; flex-wrap: wrap; gap: .5em 1.2em; align-items: center; padding: .6em; background: var(--card); border-radius: .5em; }
        ol { padding-left: 0; list-style: none; } li.finding { border-left: 4px solid var(--line); background: var(--card); margin: .5em 0; padding: .3em .8em; border-radius: .3em; }
        li.finding p { margin: .25em 0; } li.finding.error { border-color: var(--unsafe); } li.finding.warning { border-color: var(--apponly); } li.finding.note { border-color: var(--muted); }
        .severity { text-transform: uppercase; font-size: .8em; font-weight: 700; } .rule { font-weight: 700; }
        li.error .severity { color: var(--unsafe); } li.warning .severity { color: var(--apponly); }
        [hidden] { display: none !important; }
        @media print { body { max-width: none; padding: 0; } form#filters { display: none !important; } li.finding { break-inside: avoid; }
          .scroll { overflow: visible; } a { color: inherit; text-decoration: none; } }
        """

    /// Filtering (severity, rule, image, free text, with live counts) and
    /// sorting of the verdict table. The page is complete without it.
    static let script = """
        (function () {
          "use strict";
          var form = document.getElementById("filters");
          if (form) {
            form.hidden = false;
            var items = Array.prototype.slice.call(document.querySelectorAll("#findings li.finding"));
            var apply = function () {
              var severities = {};
              form.querySelectorAll("input[name=severity]").forEach(function (box) { severities[box.value] = box.checked; });
              var rule = form.elements.rule.value, image = form.elements.image.value, query = form.elements.q.value.toLowerCase();
              var counts = { error: 0, warning: 0, note: 0 }, shown = 0;
              items.forEach(function (item) {
                var matches = (!rule || item.dataset.rule === rule) && (!image || item.dataset.image === image)
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
              document.querySelectorAll("#findings .finding-group").forEach(function (group) {
                group.hidden = !group.querySelector("li.finding:not([hidden])");
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
